import {
  ATTRIBUTES_DECK_FILE_NAME,
  METRICS_DECK_FILE_NAME,
  PERFORMANCE_DECK_FILE_NAME,
  TENDENCIES_DECK_FILE_NAME,
  type MetricsDeckQuery,
  type TendenciesRequest,
} from '@accord/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/save-blob.ts';

/** Which deck of the analytics tabs, with what its server call takes. */
export type SlidesRequest =
  | { kind: 'metrics'; jobId: string; query: MetricsDeckQuery }
  | { kind: 'performance'; jobId: string; sort: { key: string; desc: boolean } }
  | { kind: 'attributes'; jobId: string }
  | { kind: 'tendencies'; body: TendenciesRequest };

const query = (values: Record<string, string | number | boolean | undefined>) =>
  Object.fromEntries(
    Object.entries(values)
      .filter(([, value]) => value !== undefined && value !== '')
      .map(([key, value]) => [key, String(value)]),
  );

/**
 * GET /api/analytics/fragrances/pptx/{jobId} (the rows the table shows, or the selection),
 * /performance/pptx/{jobId}, /top-attributes/pptx/{jobId}, POST /tendencies/pptx: the tab's answer
 * as slides.
 */
export async function downloadSlides(request: SlidesRequest): Promise<void> {
  const handledStatuses = [400, 404, 503];
  let response: Response;
  let fileName: string;
  switch (request.kind) {
    case 'metrics':
      response = await apiFetch(`/analytics/fragrances/pptx/${encodeURIComponent(request.jobId)}`, {
        query: query(request.query),
        handledStatuses,
      });
      fileName = METRICS_DECK_FILE_NAME;
      break;
    case 'performance':
      response = await apiFetch(`/analytics/performance/pptx/${encodeURIComponent(request.jobId)}`, {
        query: { sort: request.sort.key, desc: String(request.sort.desc) },
        handledStatuses,
      });
      fileName = PERFORMANCE_DECK_FILE_NAME;
      break;
    case 'attributes':
      response = await apiFetch(`/analytics/top-attributes/pptx/${encodeURIComponent(request.jobId)}`, {
        handledStatuses,
      });
      fileName = ATTRIBUTES_DECK_FILE_NAME;
      break;
    case 'tendencies':
      response = await apiFetch('/analytics/tendencies/pptx', {
        method: 'POST',
        body: request.body,
        handledStatuses,
      });
      fileName = TENDENCIES_DECK_FILE_NAME;
      break;
  }
  saveBlob(await response.blob(), fileName);
}

export function useDownloadSlidesMutation() {
  return useMutation({
    mutationFn: downloadSlides,
    // Download errors are ignored silently (document 3 section 8); keep them for diagnosis.
    onError: (error) => console.error('Slides download failed:', error),
  });
}
