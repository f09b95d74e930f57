import { User, type UpdateUserRequest } from '@accord/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';
import { usersKeys } from './keys.ts';

export interface UpdateUserInput {
  id: number;
  body: UpdateUserRequest;
  /** A form shows its own 400; removal from the list leaves it to the global box. */
  formHandlesErrors?: boolean;
}

/** PUT /api/users/{id}/: saves a user; removal is an update with deleted true. */
export function updateUser({ id, body, formHandlesErrors = true }: UpdateUserInput): Promise<User> {
  return apiJson(`/users/${id}/`, User, {
    method: 'PUT',
    body,
    handledStatuses: formHandlesErrors ? [400] : [],
  });
}

export function useUpdateUserMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: (user) => {
      queryClient.setQueryData(usersKeys.detail(user.id), user);
      return queryClient.invalidateQueries({ queryKey: usersKeys.lists() });
    },
  });
}
