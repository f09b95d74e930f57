/**
 * The signed-in session: the access token (kept in sessionStorage, so a reload of the tab keeps it),
 * the signed-in user and the permissions derived from the role (document 1 section 4).
 */
import { permissionsForRole, type Permissions, type SignedInUser } from '@accord/contracts';
import { createStore, useStore } from './create-store.ts';

const TOKEN_KEY = 'accord.token';

export type SessionStatus = 'unknown' | 'signed-in' | 'signed-out';

export interface SessionState {
  status: SessionStatus;
  user: SignedInUser | null;
  permissions: Permissions;
  /** Set when the server ended the session (a 401), so the login screen can say so. */
  ended: boolean;
}

const signedOutState = (ended = false): SessionState => ({
  status: 'signed-out',
  user: null,
  permissions: permissionsForRole(null),
  ended,
});

export const sessionStore = createStore<SessionState>({ ...signedOutState(), status: 'unknown' });

function readStorage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * Whether this browser has signed in and not signed out since: the only sign that a remember-me
 * cookie (which the page cannot read) may be there. Without it a start-up asks the server nothing,
 * so a public page does not answer every visitor with a failed renewal.
 */
const SESSION_HINT_KEY = 'accord.signedIn';

function hintStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function hasSessionHint(): boolean {
  return hintStorage()?.getItem(SESSION_HINT_KEY) === '1';
}

export function getToken(): string | null {
  return readStorage()?.getItem(TOKEN_KEY) ?? null;
}

export function setToken(token: string | null): void {
  const storage = readStorage();
  if (!storage) return;
  if (token) storage.setItem(TOKEN_KEY, token);
  else storage.removeItem(TOKEN_KEY);
}

/** Reads "Bearer <token>" from an Authorization header value. */
export function tokenFromHeader(header: string | null): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match?.[1] ?? null;
}

export function signIn(user: SignedInUser, token?: string | null): void {
  if (token) setToken(token);
  hintStorage()?.setItem(SESSION_HINT_KEY, '1');
  sessionStore.set({
    status: 'signed-in',
    user,
    permissions: permissionsForRole(user.role_id),
    ended: false,
  });
}

/** Ends the session on this client. `ended` marks an end the user did not ask for (a 401). */
export function signOut(options: { ended?: boolean } = {}): void {
  setToken(null);
  hintStorage()?.removeItem(SESSION_HINT_KEY);
  const wasSignedIn = sessionStore.get().status === 'signed-in';
  sessionStore.set(signedOutState(Boolean(options.ended && wasSignedIn)));
}

export function useSession(): SessionState {
  return useStore(sessionStore);
}
