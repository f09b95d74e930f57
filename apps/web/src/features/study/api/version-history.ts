import { VersionHistoryResponse, type StudyFolder } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { studyFileKeys } from './get-related-files.ts';

/** POST /api/study/{id}/version-history/{filename}: the current file and its other versions. */
export function getVersionHistory(
  studyId: number,
  fileName: string,
  folder: StudyFolder,
  signal?: AbortSignal,
): Promise<VersionHistoryResponse> {
  return apiJson(
    `/study/${studyId}/version-history/${encodeURIComponent(fileName)}`,
    VersionHistoryResponse,
    {
      method: 'POST',
      body: { foldertype: folder },
      signal,
    },
  );
}

/** Loaded while the Version Control modal of that file is open. */
export function useVersionHistoryQuery(studyId: number, file: { name: string; folder: StudyFolder } | null) {
  return useQuery({
    queryKey: studyFileKeys.versions(studyId, file?.folder ?? '', file?.name ?? ''),
    queryFn: ({ signal }) => getVersionHistory(studyId, file!.name, file!.folder, signal),
    enabled: studyId > 0 && file !== null,
  });
}
