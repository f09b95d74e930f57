/**
 * The session calls every screen relies on: renewing the token and logging out. Login and password
 * reset belong to the auth feature.
 */
import { MessageResponse, SignedInUser } from '@accord/contracts';
import { ApiError } from '../api-error.ts';
import { apiJson } from '../api-client.ts';
import { getToken, hasSessionHint, setToken, signIn, signOut } from '../session.ts';

let pendingRefresh: Promise<SignedInUser> | null = null;

/**
 * GET /api/auth/refresh: renews the token (header or remember-me cookie) and answers the user. Calls
 * made while one is under way share it, since each renewal invalidates the token before it.
 */
export function refreshSession(
  options: { withoutToken?: boolean; allowUnauthorized?: boolean } = {},
): Promise<SignedInUser> {
  if (pendingRefresh) return pendingRefresh;
  const request = apiJson('/auth/refresh', SignedInUser, {
    withoutToken: options.withoutToken,
    allowUnauthorized: options.allowUnauthorized,
  }).then((user) => {
    signIn(user);
    return user;
  });
  pendingRefresh = request.finally(() => {
    pendingRefresh = null;
  });
  return pendingRefresh;
}

/**
 * Start-up: a token left in this tab, or else the remember-me cookie, may still be good. A stale
 * token is dropped and the cookie tried alone before deciding the user is signed out.
 */
let pendingRestore: Promise<void> | null = null;

export function restoreSession(): Promise<void> {
  pendingRestore ??= tryRestoreSession().finally(() => {
    pendingRestore = null;
  });
  return pendingRestore;
}

async function tryRestoreSession(): Promise<void> {
  const hadToken = getToken() !== null;
  // No token and no sign-in remembered in this browser: nothing the server could renew.
  if (!hadToken && !hasSessionHint()) {
    signOut();
    return;
  }
  try {
    await refreshSession({ allowUnauthorized: true });
    return;
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401 && hadToken)) {
      signOut();
      return;
    }
  }
  setToken(null);
  try {
    await refreshSession({ withoutToken: true, allowUnauthorized: true });
  } catch {
    signOut();
  }
}

/** POST /api/auth/logout ends the server session; the client session ends whatever it answers. */
export async function logout(): Promise<void> {
  try {
    await apiJson('/auth/logout', MessageResponse, {
      method: 'POST',
      handledStatuses: [400, 503],
      allowUnauthorized: true,
    });
  } finally {
    signOut();
  }
}
