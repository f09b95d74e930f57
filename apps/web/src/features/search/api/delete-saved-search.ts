import { MessageResponse, type SearchType } from '@accord/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { searchKeys } from './keys.ts';

/** DELETE /api/users/{userId}/searches/ with the search id in the body. */
export function deleteSavedSearch(input: { userId: number; searchId: number; type: SearchType }) {
  return apiJson(`/users/${input.userId}/searches/`, MessageResponse, {
    method: 'DELETE',
    body: { searchId: input.searchId },
  });
}

export function useDeleteSavedSearchMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSavedSearch,
    onSuccess: (_answer, input) =>
      queryClient.invalidateQueries({ queryKey: searchKeys.saved(input.userId, input.type) }),
  });
}
