import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useDeferredValue, useEffect, type ReactNode } from 'react';
import { FullPageLoader, markFirstLoadDone } from '../components/full-page-loader.tsx';
import { FIELDS_STALE_MS, getFields, useFieldsQuery } from '../lib/api/get-fields.ts';
import { sharedKeys } from '../lib/api/keys.ts';
import { useHelpUrlQuery } from '../lib/api/help-url.ts';
import { useVersionQuery } from '../lib/api/get-version.ts';
import { restoreSession } from '../lib/api/session-api.ts';
import { getToken, useSession } from '../lib/session.ts';

let pendingStart: Promise<void> | null = null;

/**
 * After the API version: the field definitions, then the permissions (the session, renewed from the
 * token this tab holds or the remember-me cookie). The field definitions are scoped to the user, so
 * they come first only when this tab holds a token to ask with; with the cookie alone the session
 * comes first and the field definitions follow it (SignedInStartup).
 */
function startSession(queryClient: QueryClient): Promise<void> {
  pendingStart ??= (async () => {
    if (getToken() !== null) {
      try {
        await queryClient.fetchQuery({
          queryKey: sharedKeys.fields,
          queryFn: ({ signal }) => getFields(signal, { allowUnauthorized: true }),
          staleTime: FIELDS_STALE_MS,
        });
      } catch {
        // A stale token: the session decides, and the field definitions are asked for after it.
      }
    }
    await restoreSession();
  })().finally(() => {
    pendingStart = null;
  });
  return pendingStart;
}

/**
 * Start-up, first half (document 1 section 2): the API version, then the field definitions, then the
 * permissions, before deciding whether the user is signed in.
 */
export function Bootstrap({ children }: { children: ReactNode }) {
  const version = useVersionQuery();
  const { status } = useSession();
  const queryClient = useQueryClient();
  const versionSettled = version.isFetched || version.isError;
  const shown = useDeferredValue(versionSettled && status !== 'unknown');

  useEffect(() => {
    if (versionSettled && status === 'unknown') void startSession(queryClient);
  }, [versionSettled, status, queryClient]);

  if (!shown) return <FullPageLoader />;
  return children;
}

/**
 * Start-up, second half, for signed-in screens: the field definitions (already there after a full
 * load with a token; asked for here after a sign-in or a cookie-only start), then the help url; only
 * then is the page shown.
 *
 * Both halves show their children through a deferred value: the whole page (layout and screen) is
 * then rendered in a background pass that React splits into short tasks, instead of one long task
 * in the answer's callback that holds the page unresponsive (Lighthouse's Total Blocking Time).
 */
export function SignedInStartup({ children }: { children: ReactNode }) {
  const fields = useFieldsQuery();
  const fieldsSettled = fields.isFetched || fields.isError;
  const helpUrl = useHelpUrlQuery({ enabled: fieldsSettled });
  const ready = useDeferredValue(fieldsSettled && (helpUrl.isFetched || helpUrl.isError));

  useEffect(() => {
    if (ready) markFirstLoadDone();
  }, [ready]);

  if (!ready) return <FullPageLoader />;
  return children;
}

/** Marks the first load done for the screens outside the layout. */
export function PublicStartup({ children }: { children: ReactNode }) {
  useEffect(() => {
    markFirstLoadDone();
  }, []);
  return children;
}
