// Start-up asks the server to renew a session only when there may be one: a token in this tab, or a
// sign-in remembered in this browser (the remember-me cookie itself cannot be read by the page).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

function memoryStorage(): Storage {
  const values = new Map<string, string>();
  return {
    get length() {
      return values.size;
    },
    clear: () => values.clear(),
    getItem: (key) => values.get(key) ?? null,
    key: (index) => [...values.keys()][index] ?? null,
    removeItem: (key) => void values.delete(key),
    setItem: (key, value) => void values.set(key, value),
  };
}

const USER = {
  id: 7,
  email: 'researcher@accord.test',
  first_name: 'Rita',
  last_name: 'Researcher',
  role_id: 3,
};

let calls: string[];

beforeEach(() => {
  vi.resetModules();
  calls = [];
  vi.stubGlobal('window', {
    sessionStorage: memoryStorage(),
    localStorage: memoryStorage(),
    location: { origin: 'http://localhost', href: 'http://localhost/' },
  });
  vi.stubGlobal('fetch', (url: string | URL) => {
    calls.push(String(url));
    return Promise.resolve(
      new Response(JSON.stringify({ message: 'Unauthorized' }), {
        status: 401,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('restoreSession', () => {
  it('asks nothing of the server on a first visit, and the visitor is signed out', async () => {
    const { restoreSession } = await import('./session-api.ts');
    const { sessionStore } = await import('../session.ts');
    await restoreSession();
    expect(calls).toEqual([]);
    expect(sessionStore.get().status).toBe('signed-out');
  });

  it('tries the remember-me cookie once this browser has signed in, and forgets it when that fails', async () => {
    const { restoreSession } = await import('./session-api.ts');
    const session = await import('../session.ts');
    session.signIn(USER as never);
    session.setToken(null);
    expect(session.hasSessionHint()).toBe(true);
    await restoreSession();
    expect(calls.filter((url) => url.includes('/auth/refresh'))).toHaveLength(1);
    expect(session.sessionStore.get().status).toBe('signed-out');
    expect(session.hasSessionHint()).toBe(false);
  });

  it('renews a token left in the tab', async () => {
    const { restoreSession } = await import('./session-api.ts');
    const session = await import('../session.ts');
    session.setToken('left-in-tab');
    await restoreSession();
    expect(calls.some((url) => url.includes('/auth/refresh'))).toBe(true);
  });
});
