import { StudyMetricsResponse } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { mappingKeys } from './keys.ts';

/** GET /api/study/metrics/{studyId}: the metrics the study uses, and by which questions. */
export function getStudyMetrics(studyId: number, signal?: AbortSignal): Promise<StudyMetricsResponse> {
  return apiJson(`/study/metrics/${studyId}`, StudyMetricsResponse, { signal, handledStatuses: [400] });
}

export function useStudyMetricsQuery(studyId: number) {
  return useQuery({
    queryKey: mappingKeys.studyMetrics(studyId),
    queryFn: ({ signal }) => getStudyMetrics(studyId, signal),
    enabled: studyId > 0,
  });
}
