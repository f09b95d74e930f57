import { FRAGRANCE_EXPORT_FILE_NAME, type FragranceExportRequest } from '@accord/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/save-blob.ts';

/**
 * POST /api/smartsearch/download_fragrances: fragrances (or, with type concept, concepts) as
 * search-fragrances-result.xlsx.
 */
export async function downloadFragrances(body: FragranceExportRequest): Promise<void> {
  const response = await apiFetch('/smartsearch/download_fragrances', {
    method: 'POST',
    body,
    handledStatuses: [400, 503],
  });
  saveBlob(await response.blob(), FRAGRANCE_EXPORT_FILE_NAME);
}

export function useDownloadFragrancesMutation() {
  return useMutation({ mutationFn: downloadFragrances });
}
