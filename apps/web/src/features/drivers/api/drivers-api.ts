/** Drivers of liking: the drivers of a base (GET /api/drivers), the workbook and the slides. */
import {
  DRIVER_ANSWERS_FILE_NAME,
  DRIVERS_FILE_NAME,
  DRIVERS_SLIDES_FILE_NAME,
  DriversResponse,
  DriverTraceResponse,
  MESSAGES,
} from '@accord/contracts';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { NormBaseChoice } from '../../../components/norms/norms-api.ts';
import { showAlert } from '../../../lib/alerts.ts';
import { apiFetch, apiJson } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/save-blob.ts';

export interface DriversChoice extends NormBaseChoice {
  liking: string;
}

/** GET /api/drivers (null: no category chosen yet). */
export function useDrivers(query: DriversChoice | null) {
  return useQuery({
    queryKey: ['drivers', query],
    queryFn: ({ signal }) => apiJson('/drivers', DriversResponse, { query: { ...query! }, signal }),
    enabled: query !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/** GET /api/drivers/trace: one attribute's figure recomputed from its answers (null: closed). */
export function useDriverTrace(query: (DriversChoice & { attribute: string }) | null) {
  return useQuery({
    queryKey: ['drivers-trace', query],
    queryFn: ({ signal }) =>
      apiJson('/drivers/trace', DriverTraceResponse, {
        query: { ...query! },
        signal,
        handledStatuses: [400, 403, 404],
      }),
    enabled: query !== null,
    staleTime: 60_000,
    retry: false,
  });
}

/** GET /api/drivers/trace/answers.csv: the paired answers behind an attribute's figure. */
export function useDownloadDriverAnswers() {
  return useMutation({
    mutationFn: async (query: DriversChoice & { attribute: string }) => {
      const response = await apiFetch('/drivers/trace/answers.csv', {
        query: { ...query },
        handledStatuses: [400, 403, 404],
      });
      saveBlob(await response.blob(), DRIVER_ANSWERS_FILE_NAME);
    },
    onError: () => showAlert('danger', MESSAGES.downloadFailure),
  });
}

/** GET /api/drivers/xlsx or /pptx: the drivers as a workbook or as slides. */
export function useDownloadDrivers() {
  return useMutation({
    mutationFn: async ({ query, format }: { query: DriversChoice; format: 'xlsx' | 'pptx' }) => {
      const response = await apiFetch(`/drivers/${format}`, {
        query: { ...query },
        handledStatuses: [400, 403, 404],
      });
      saveBlob(await response.blob(), format === 'xlsx' ? DRIVERS_FILE_NAME : DRIVERS_SLIDES_FILE_NAME);
    },
    onError: () => showAlert('danger', MESSAGES.downloadFailure),
  });
}
