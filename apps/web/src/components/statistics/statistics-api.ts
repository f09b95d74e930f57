import {
  StatisticsFileResponse,
  StatisticsProductCodeResponse,
  StatisticsResults,
  StatisticsScaleResponse,
  StatisticsStudyProducts,
  StatisticsUploadResponse,
  StudyMetricsResponse,
  type StatisticsForm,
  type StatisticsStudyFilters,
} from '@accord/contracts';
import { apiFetch, apiJson } from '../../lib/api-client.ts';
import { saveBlob } from '../../lib/save-blob.ts';

/** The wizard and the study statistics page show a refused call themselves (an alert). */
const handledStatuses = [400, 404] as const;

const formData = (fields: Record<string, string>, file?: { field: string; file: File }) => {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  if (file) body.append(file.field, file.file, file.file.name);
  return body;
};

export const statisticsApi = {
  uploadData: (studyName: string, file: File) =>
    apiJson('/rdf/upload/', StatisticsUploadResponse, {
      method: 'POST',
      body: formData({ study_name: studyName }, { field: 'data_input', file }),
      handledStatuses,
    }),
  uploadScale: (folder: string, file: File) =>
    apiJson('/rdf/upload/', StatisticsScaleResponse, {
      method: 'PUT',
      body: formData({ folder_name: folder }, { field: 'likert_scale', file }),
      handledStatuses,
    }),
  uploadFile: (folder: string, kind: 'regression' | 'names', file: File) =>
    apiJson('/rdf/upload/files/', StatisticsFileResponse, {
      method: 'POST',
      body: formData({ folder_name: folder, kind }, { field: 'file', file }),
      handledStatuses,
    }),
  checkProductCode: (body: { product_code: string; folder_name?: string; study_id?: number }) =>
    apiJson('/rdf/product-code/', StatisticsProductCodeResponse, { method: 'POST', body, handledStatuses }),
  generate: (form: StatisticsForm) =>
    apiJson('/rdf/results/', StatisticsResults, { method: 'POST', body: form, handledStatuses }),
  studyMetrics: (studyId: number) =>
    apiJson(`/study/metrics/${studyId}`, StudyMetricsResponse, { handledStatuses }),
  studyProducts: (studyId: number) =>
    apiJson(`/statistics/${studyId}/products/`, StatisticsStudyProducts, { handledStatuses }),
  studyStatistics: (studyId: number, query: StatisticsStudyFilters) =>
    apiJson(`/statistics/${studyId}/`, StatisticsResults, {
      method: 'POST',
      body: { query },
      handledStatuses,
    }),
  async download(folder: string, file: string): Promise<void> {
    const response = await apiFetch(`/rdf/download_templates/${folder}/${encodeURIComponent(file)}`, {
      handledStatuses,
    });
    saveBlob(await response.blob(), file);
  },
};

/** The message of a refused call, for the alert. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
