/** The trace calls: POST /api/trace, the answers csv and the results file downloads it links to. */
import { TRACE_ANSWERS_FILE_NAME, TraceResponse, type TraceRequest } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { API_BASE, apiFetch, apiJson } from '../../lib/api-client.ts';
import { saveBlob } from '../../lib/save-blob.ts';

/** How the aggregate was computed; fetched only while the trace is open (request not null). */
export function useTraceQuery(request: TraceRequest | null) {
  return useQuery({
    queryKey: ['trace', request],
    queryFn: ({ signal }) =>
      apiJson('/trace', TraceResponse, {
        method: 'POST',
        body: request,
        signal,
        handledStatuses: [400, 404],
      }),
    enabled: request !== null,
    staleTime: 60_000,
    retry: false,
  });
}

/** The answers behind the aggregate as answers.csv. */
export async function downloadTraceAnswers(request: TraceRequest): Promise<void> {
  const response = await apiFetch('/trace/answers.csv', { method: 'POST', body: request });
  saveBlob(await response.blob(), TRACE_ANSWERS_FILE_NAME);
}

/** A results file the trace links to (its url is the API route, /api included). */
export async function downloadResultsFile(file: { url: string; name: string }): Promise<void> {
  const path = file.url.startsWith(API_BASE) ? file.url.slice(API_BASE.length) : file.url;
  const response = await apiFetch(path);
  saveBlob(await response.blob(), file.name);
}
