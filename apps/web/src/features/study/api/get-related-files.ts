import { StudyFileNode } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { studyKeys } from './keys.ts';

/** Query keys of the files page (under the study, so a study refresh reaches them too). */
export const studyFileKeys = {
  tree: (id: number) => [...studyKeys.detail(id), 'file-tree'] as const,
  versionsOf: (id: number) => [...studyKeys.detail(id), 'file-versions'] as const,
  versions: (id: number, folder: string, fileName: string) =>
    [...studyFileKeys.versionsOf(id), folder, fileName] as const,
};

/** GET /api/study/{id}/related-study-files/: the study group with its folders and files, each with errors. */
export function getRelatedFiles(id: number, signal?: AbortSignal): Promise<StudyFileNode> {
  return apiJson(`/study/${id}/related-study-files/`, StudyFileNode, { signal });
}

export function useRelatedFilesQuery(id: number) {
  return useQuery({
    queryKey: studyFileKeys.tree(id),
    queryFn: ({ signal }) => getRelatedFiles(id, signal),
    enabled: id > 0,
  });
}
