import { UploadStartedResponse, type StudyFolder } from '@accord/contracts';
import { apiFetch } from '../../../lib/api-client.ts';

export interface UploadStudyFileInput {
  studyId: number;
  file: File;
  /** The file the upload replaces; absent for a new file of the folder. */
  filename?: string;
  filetype: string;
  foldertype: StudyFolder;
}

/** What the upload call answered: a job to poll, done at once ('success'), or nothing usable. */
export type UploadAnswer = { kind: 'job'; jobId: string } | { kind: 'success' } | { kind: 'empty' };

/** Reads the answer: the job object, or the bare 'success' or job id of document 2 section 7. */
export function readUploadAnswer(text: string): UploadAnswer {
  const trimmed = text.trim();
  if (!trimmed) return { kind: 'empty' };
  let data: unknown = trimmed;
  try {
    data = JSON.parse(trimmed);
  } catch {
    data = trimmed;
  }
  const started = UploadStartedResponse.safeParse(data);
  if (started.success)
    return started.data.job_id ? { kind: 'job', jobId: started.data.job_id } : { kind: 'empty' };
  if (typeof data === 'string') {
    if (data === 'success') return { kind: 'success' };
    return data ? { kind: 'job', jobId: data } : { kind: 'empty' };
  }
  return { kind: 'empty' };
}

/** POST /api/study/{id}/upload: multipart with the file and filename, filetype, foldertype (admins). */
export async function uploadStudyFile(input: UploadStudyFileInput): Promise<UploadAnswer> {
  const form = new FormData();
  if (input.filename) form.append('filename', input.filename);
  form.append('filetype', input.filetype);
  form.append('foldertype', input.foldertype);
  form.append('file', input.file, input.file.name);
  const response = await apiFetch(`/study/${input.studyId}/upload`, {
    method: 'POST',
    body: form,
    // The screen shows the server's message itself (a warning alert for 5 s).
    handledStatuses: [400],
  });
  return readUploadAnswer(await response.text());
}
