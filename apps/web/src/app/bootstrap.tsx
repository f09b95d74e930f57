import { useEffect, type ReactNode } from 'react';
import { FullPageLoader, markFirstLoadDone } from '../components/full-page-loader.tsx';
import { useFieldsQuery } from '../lib/api/get-fields.ts';
import { useHelpUrlQuery } from '../lib/api/help-url.ts';
import { useVersionQuery } from '../lib/api/get-version.ts';
import { restoreSession } from '../lib/api/session-api.ts';
import { useSession } from '../lib/session.ts';

/**
 * Start-up, first half (document 1 section 2): the API version, then the session (a token left in
 * this tab or the remember-me cookie) before deciding whether the user is signed in.
 */
export function Bootstrap({ children }: { children: ReactNode }) {
  const version = useVersionQuery();
  const { status } = useSession();
  const versionSettled = version.isFetched || version.isError;

  useEffect(() => {
    if (versionSettled && status === 'unknown') void restoreSession();
  }, [versionSettled, status]);

  if (!versionSettled || status === 'unknown') return <FullPageLoader />;
  return children;
}

/**
 * Start-up, second half, for signed-in screens: field definitions, then permissions (derived from
 * the role as the session is set), then the help url; only then is the page shown.
 */
export function SignedInStartup({ children }: { children: ReactNode }) {
  const fields = useFieldsQuery();
  const fieldsSettled = fields.isFetched || fields.isError;
  const helpUrl = useHelpUrlQuery({ enabled: fieldsSettled });
  const ready = fieldsSettled && (helpUrl.isFetched || helpUrl.isError);

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
