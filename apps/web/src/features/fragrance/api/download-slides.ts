import { FRAGRANCE_DECK_FILE_NAME } from '@accord/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/save-blob.ts';

/** GET /api/fragrance/{code}/pptx: the page's tests, pooled estimates and markets as slides. */
export async function downloadFragranceSlides(code: string): Promise<void> {
  const response = await apiFetch(`/fragrance/${encodeURIComponent(code)}/pptx`, {
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
