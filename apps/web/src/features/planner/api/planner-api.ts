/** The study planner's calls: a plan (GET /api/plan) and its workbook (GET /api/plan/xlsx). */
import { MESSAGES, PLAN_FILE_NAME, PlanResponse, type PlanQuery } from '@accord/contracts';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { showAlert } from '../../../lib/alerts.ts';
import { apiFetch, apiJson } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/save-blob.ts';

/** A plan's query as the screen holds it (null: not narrowed). */
export type PlanChoice = {
  [Key in keyof PlanQuery]: PlanQuery[Key] | null;
};

const clean = (query: PlanChoice) =>
  Object.fromEntries(
    Object.entries(query).filter((entry) => entry[1] !== null && entry[1] !== undefined),
  ) as Record<string, string | number>;

/** GET /api/plan (null: no category chosen yet). */
export function usePlan(query: PlanChoice | null) {
  return useQuery({
    queryKey: ['plan', query],
    queryFn: ({ signal }) => apiJson('/plan', PlanResponse, { query: clean(query!), signal }),
    enabled: query !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** GET /api/plan/xlsx: the plan as study-plan.xlsx. */
export function useDownloadPlan() {
  return useMutation({
    mutationFn: async (query: PlanChoice) => {
      const response = await apiFetch('/plan/xlsx', {
        query: clean(query),
        handledStatuses: [400, 403, 404],
      });
      saveBlob(await response.blob(), PLAN_FILE_NAME);
    },
    onError: () => showAlert('danger', MESSAGES.downloadFailure),
  });
}
