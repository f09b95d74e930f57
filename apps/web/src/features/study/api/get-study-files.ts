import { StudyFileEntry } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiJson } from '../../../lib/api-client.ts';
import { studyKeys } from './keys.ts';

const StudyFileList = z.array(StudyFileEntry);

/** GET /api/study/{id}/study-files/: the study's files (RDFs only for users who may download). */
export function getStudyFiles(id: number, signal?: AbortSignal): Promise<StudyFileEntry[]> {
  return apiJson(`/study/${id}/study-files/`, StudyFileList, { signal });
}

export function useStudyFilesQuery(id: number, enabled = true) {
  return useQuery({
    queryKey: studyKeys.files(id),
    queryFn: ({ signal }) => getStudyFiles(id, signal),
    enabled: enabled && id > 0,
  });
}
