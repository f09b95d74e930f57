import { CicsQuestionStatistics, type CicsInspectFilter } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { cicsKeys } from './keys.ts';

/** POST /api/cics/inspect_question/{id}/: the answer statistics of a question under the filters. */
export function inspectQuestion(
  id: number,
  filter: CicsInspectFilter,
  signal?: AbortSignal,
): Promise<CicsQuestionStatistics> {
  return apiJson(`/cics/inspect_question/${id}/`, CicsQuestionStatistics, {
    method: 'POST',
    body: { q: filter },
    signal,
  });
}

export function useQuestionStatisticsQuery(id: number | null, filter: CicsInspectFilter) {
  return useQuery({
    queryKey: cicsKeys.question(id ?? 0, filter),
    queryFn: ({ signal }) => inspectQuestion(id ?? 0, filter, signal),
    enabled: id !== null,
    placeholderData: (previous) => (previous?.question.id === id ? previous : undefined),
  });
}
