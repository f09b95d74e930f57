import { MessageResponse } from '@accord/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';

/** POST /api/auth/reset-password/: sets the new password with the mailed token. */
export function resetPassword(input: { token: string; newPassword: string }) {
  return apiJson('/auth/reset-password/', MessageResponse, {
    method: 'POST',
    body: { token: input.token, new_password: input.newPassword },
    handledStatuses: [400],
    allowUnauthorized: true,
  });
}

export function useResetPasswordMutation() {
  return useMutation({ mutationFn: resetPassword });
}
