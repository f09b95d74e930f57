import { MessageResponse } from '@accord/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api-client.ts';

/**
 * POST /api/auth/request-change-password/: mails a reset link. client_address is this web app's
 * address, so the link points at its /login/reset/{token} route.
 */
export function requestPasswordReset(email: string) {
  return apiJson('/auth/request-change-password/', MessageResponse, {
    method: 'POST',
    body: { email, client_address: window.location.origin },
    handledStatuses: [400],
    allowUnauthorized: true,
  });
}

export function useRequestPasswordResetMutation() {
  return useMutation({ mutationFn: requestPasswordReset });
}
