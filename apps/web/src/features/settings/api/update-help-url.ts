import { HelpUrl } from '@accord/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { sharedKeys } from '../../../lib/api/keys.ts';

/** POST /api/help-url (admin): stores the help view url. A 400 is shown on the form. */
export function updateHelpUrl(url: string) {
  return apiJson('/help-url', HelpUrl, { method: 'POST', body: { url }, handledStatuses: [400] });
}

/** Saving puts the answer into the help-url cache, so the layout's Help link changes at once. */
export function useUpdateHelpUrlMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateHelpUrl,
    onSuccess: (data) => queryClient.setQueryData(sharedKeys.helpUrl, data),
  });
}
