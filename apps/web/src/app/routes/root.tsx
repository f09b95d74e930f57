import { PRODUCT_NAME } from '@accord/contracts';
import { useEffect } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router';
import { AlertBar } from '../../components/alert-bar.tsx';
import { FailureModal } from '../../components/failure-modal.tsx';
import { rememberPath } from '../../lib/navigation-history.ts';

export interface RouteHandle {
  title?: string;
}

/** Sets "<Title> | Accord" from the deepest route that names one. */
function useDocumentTitle() {
  const matches = useMatches();
  const title = [...matches].reverse().find((match) => (match.handle as RouteHandle | undefined)?.title)
    ?.handle as RouteHandle | undefined;
  useEffect(() => {
    document.title = title?.title ? `${title.title} | ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [title]);
}

/**
 * Remembers the signed-in screens the user has been on. It sits inside the signed-in layout, after
 * start-up, so a guard reads the previous path before the refused one is written.
 */
export function PathMemory() {
  const location = useLocation();
  useEffect(() => {
    rememberPath(`${location.pathname}${location.search}`);
  }, [location.pathname, location.search]);
  return null;
}

/** The root of every route: page title, alert bar and the global failure box. */
export function Root() {
  useDocumentTitle();

  return (
    <>
      <Outlet />
      <AlertBar />
      <FailureModal />
    </>
  );
}
