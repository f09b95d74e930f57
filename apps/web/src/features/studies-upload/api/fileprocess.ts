import {
  FileProcessDetail,
  FileProcessRow,
  ProcessStudiesResponse,
  StudiesUploadResponse,
  StudyOptionsResponse,
  TaskErrorEvent,
  TaskResultEvent,
  type FileProcessStatus,
} from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { API_BASE, apiFetch, apiJson } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/save-blob.ts';
import { getToken } from '../../../lib/session.ts';

export const fileProcessKeys = {
  all: ['fileprocess'] as const,
  list: () => [...fileProcessKeys.all, 'list'] as const,
  detail: (id: number) => [...fileProcessKeys.all, 'detail', id] as const,
  options: ['study', 'options'] as const,
};

/** GET /api/fileprocess/file-processes: the upload history, newest first. */
export function useFileProcessesQuery() {
  return useQuery({
    queryKey: fileProcessKeys.list(),
    queryFn: ({ signal }) => apiJson('/fileprocess/file-processes', z.array(FileProcessRow), { signal }),
  });
}

/** GET /api/fileprocess/file-process/{id}: status, tree and problems of one upload. */
export function useFileProcessQuery(id: number) {
  return useQuery({
    queryKey: fileProcessKeys.detail(id),
    queryFn: ({ signal }) => apiJson(`/fileprocess/file-process/${id}`, FileProcessDetail, { signal }),
    enabled: id > 0,
    retry: false,
  });
}

/** The Client and Region choices: the study fields' options. */
export function useUploadOptionsQuery() {
  return useQuery({
    queryKey: fileProcessKeys.options,
    queryFn: ({ signal }) => apiJson('/study/options', StudyOptionsResponse, { signal }),
    staleTime: 5 * 60_000,
    select: (data) => {
      const of = (field: string) =>
        [...new Set((data.metadata.find((d) => d.field === field)?.options ?? []).map((o) => o.value))].sort(
          (a, b) => a.localeCompare(b),
        );
      return { clients: of('client'), regions: of('region') };
    },
  });
}

/** The answer of a multipart upload: the parsed body, or null when it answered nothing usable. */
export interface SendResult<T> {
  data: T | null;
  /** The server's message when it refused the upload. */
  message: string | null;
}

/**
 * A multipart upload with its progress (XMLHttpRequest: fetch reports no upload progress). Answers
 * the body parsed with `schema`, or the server's message.
 */
export function sendForm<T>(
  method: 'POST' | 'PUT',
  path: string,
  form: FormData,
  schema: z.ZodType<T>,
  onProgress: (percent: number) => void,
): Promise<SendResult<T>> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, `${API_BASE}${path}`);
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        const parsed = schema.safeParse(body);
        resolve({ data: parsed.success ? parsed.data : null, message: null });
      } else {
        const message = (body as { message?: unknown } | null)?.message;
        resolve({ data: null, message: typeof message === 'string' ? message : null });
      }
    };
    xhr.onerror = () => resolve({ data: null, message: null });
    xhr.send(form);
  });
}

export function uploadStudies(
  fields: { client: string; region: string; year: string; study_type: string },
  file: File,
  onProgress: (percent: number) => void,
) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('file', file, file.name);
  return sendForm('POST', '/fileprocess/studies_upload', form, StudiesUploadResponse, onProgress);
}

export function replaceFile(id: number, filepath: string, file: File, onProgress: (percent: number) => void) {
  const form = new FormData();
  form.append('filepath', filepath);
  form.append('file', file, file.name);
  return sendForm('PUT', `/fileprocess/fileprocess/${id}/replace_file`, form, FileProcessDetail, onProgress);
}

/** POST /api/fileprocess/fileprocess/{id}/process_studies: answers the task, or null. */
export async function processStudies(
  id: number,
  replaceCmis: string[] = [],
  confirmForm = false,
): Promise<string | null> {
  try {
    const answer = await apiJson(`/fileprocess/fileprocess/${id}/process_studies`, ProcessStudiesResponse, {
      method: 'POST',
      body: {
        ...(replaceCmis.length > 0 ? { replace_cmis: replaceCmis } : {}),
        ...(confirmForm ? { confirm_form: true } : {}),
      },
      handledStatuses: [400, 409],
    });
    return answer.task_id || null;
  } catch {
    return null;
  }
}

/** GET /api/fileprocess/{id}/{base64 path}/download, saved under the file's name. */
export async function downloadProcessFile(id: number, filePath: string, name: string): Promise<void> {
  const bytes = new TextEncoder().encode(filePath);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  const encoded = btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const response = await apiFetch(`/fileprocess/${id}/${encoded}/download`, { handledStatuses: [400, 404] });
  saveBlob(await response.blob(), name);
}

export interface TaskHandlers {
  onProgress(status: FileProcessStatus, progress: number): void;
  onResult(result: TaskResultEvent): void;
  onError(message: string): void;
}

/** Follows GET /api/fileprocess/{taskId}/status (server-sent events) until its result or error event. */
export async function followTask(
  taskId: string,
  handlers: TaskHandlers,
  signal?: AbortSignal,
): Promise<void> {
  const token = getToken();
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/fileprocess/${taskId}/status`, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      signal,
    });
  } catch {
    if (!signal?.aborted) handlers.onError('The progress of the task could not be read.');
    return;
  }
  if (!response.ok || !response.body) {
    handlers.onError('The progress of the task could not be read.');
    return;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    let chunk: ReadableStreamReadResult<string>;
    try {
      chunk = await reader.read();
    } catch {
      return;
    }
    if (chunk.done) return;
    buffer += chunk.value;
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (!event || data === undefined) continue;
      const payload: unknown = JSON.parse(data);
      if (event === 'progress') {
        const progress = payload as { status: FileProcessStatus; progress: number };
        handlers.onProgress(progress.status, progress.progress);
      } else if (event === 'result') {
        handlers.onResult(TaskResultEvent.parse(payload));
        return;
      } else if (event === 'error') {
        handlers.onError(TaskErrorEvent.parse(payload).message);
        return;
      }
    }
  }
}
