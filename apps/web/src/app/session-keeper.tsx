import { TOKEN_REFRESH_INTERVAL_MS } from '@accord/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { refreshSession } from '../lib/api/session-api.ts';
import { sessionStore, useSession } from '../lib/session.ts';

/**
 * Keeps the session alive: renews the token every minute while signed in (a 401 ends the session in
 * the API client), and forgets cached data when the user signs out.
 */
export function SessionKeeper() {
  const { status } = useSession();
  const queryClient = useQueryClient();

  useEffect(() => {
    if (status !== 'signed-in') return;
    const timer = window.setInterval(() => {
      refreshSession().catch(() => {
        // a 401 has already ended the session; other failures are retried at the next tick
      });
    }, TOKEN_REFRESH_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [status]);

  useEffect(
    () =>
      sessionStore.subscribe(() => {
        if (sessionStore.get().status === 'signed-out')
          queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'version' });
      }),
    [queryClient],
  );

  return null;
}
