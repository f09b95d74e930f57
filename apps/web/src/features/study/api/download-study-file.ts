import { MESSAGES, type StudyFileEntry } from '@accord/contracts';
import { useMutation } from '@tanstack/react-query';
import { showAlert } from '../../../lib/alerts.ts';
import { apiFetch } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/save-blob.ts';

/** The name a download is saved under: the file's own name, with its extension when it lacks one. */
export function downloadName(file: Pick<StudyFileEntry, 'name' | 'extension'>): string {
  const extension = file.extension.replace(/^\./, '');
  if (!extension || file.name.toLowerCase().endsWith(`.${extension.toLowerCase()}`)) return file.name;
  return `${file.name}.${extension}`;
}

/** GET /api/study/{studyId}/study-files/{fileId}: the current version, fetched with the token and saved. */
export async function downloadStudyFile({
  studyId,
  file,
}: {
  studyId: number;
  file: StudyFileEntry;
}): Promise<void> {
  const response = await apiFetch(`/study/${studyId}/study-files/${file.id}`, {
    handledStatuses: [400, 503],
  });
  saveBlob(await response.blob(), downloadName(file));
}

/** A failed download shows the danger alert of document 2 section 8. */
export function useDownloadStudyFileMutation() {
  return useMutation({
    mutationFn: downloadStudyFile,
    onError: () => showAlert('danger', MESSAGES.downloadFailure),
  });
}
