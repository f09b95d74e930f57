import { SignedInUser, type LoginRequest } from '@accord/contracts';
import { apiJson } from '../../../lib/api-client.ts';

/**
 * POST /api/auth/login. The API client keeps the token from the Authorization header. The login
 * screen shows every failure itself, so none raises the global box.
 */
export function login(body: LoginRequest): Promise<SignedInUser> {
  return apiJson('/auth/login', SignedInUser, {
    method: 'POST',
    body,
    handledStatuses: [400, 503],
    allowUnauthorized: true,
  });
}
