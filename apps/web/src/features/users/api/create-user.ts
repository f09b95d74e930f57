import { User, type CreateUserRequest } from '@accord/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { usersKeys } from './keys.ts';

/** POST /api/users/. A 400 (validation) is shown on the form, not in the global box. */
export function createUser(body: CreateUserRequest): Promise<User> {
  return apiJson('/users/', User, { method: 'POST', body, handledStatuses: [400] });
}

export function useCreateUserMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKeys.lists() }),
  });
}
