import { HelpUrl } from '@accord/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../api-client.ts';
import { sharedKeys } from './keys.ts';

/** GET /api/help-url: the url of the layout's Help link (empty hides it). */
export function getHelpUrl(signal?: AbortSignal): Promise<HelpUrl> {
  return apiJson('/help-url', HelpUrl, { signal });
}

export function useHelpUrlQuery(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: sharedKeys.helpUrl,
    queryFn: ({ signal }) => getHelpUrl(signal),
    enabled: options.enabled ?? true,
  });
}
