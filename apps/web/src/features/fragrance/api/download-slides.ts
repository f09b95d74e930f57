import { FRAGRANCE_DECK_FILE_NAME, type FragranceQuery } from '@accord/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/save-blob.ts';

/**
 * GET /api/fragrance/{code}/pptx: the page's tests, pooled estimates and markets as slides, under the
 * page's pool (its category and methodology, widened or not).
 */
export async function downloadFragranceSlides({
  code,
  query = {},
}: {
  code: string;
  query?: FragranceQuery;
}): Promise<void> {
  const search = new URLSearchParams();
  if (query.category !== undefined) search.set('category', query.category);
  if (query.methodology !== undefined) search.set('methodology', query.methodology);
  if (query.pool !== undefined && query.pool !== 'group') search.set('pool', query.pool);
  const suffix = search.size > 0 ? `?${search.toString()}` : '';
  const response = await apiFetch(`/fragrance/${encodeURIComponent(code)}/pptx${suffix}`, {
    handledStatuses: [400, 404, 503],
  });
  saveBlob(await response.blob(), FRAGRANCE_DECK_FILE_NAME);
}

export function useDownloadFragranceSlidesMutation() {
  return useMutation({
    mutationFn: downloadFragranceSlides,
    // Download errors are ignored silently (document 3 section 8); keep them for diagnosis.
    onError: (error) => console.error('Slides download failed:', error),
  });
}
