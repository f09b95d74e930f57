import { useCallback, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigation, useSearchParams } from 'react-router';

/**
 * The query string of a screen that mirrors its own state there (filters, tab, startSearch).
 * `update` is stable and edits the address the browser shows now, in place (replace), but only while
 * the user is still on this screen and no navigation is under way: a mirror written during a move to
 * another page would take the user back here, or carry this screen's parameters to the next page. An
 * update that changes nothing does not navigate at all.
 */
export function useScreenParams() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigation = useNavigation();
  const screen = useRef(location.pathname);
  const latest = useRef({ setParams, idle: navigation.state === 'idle' });
  useLayoutEffect(() => {
    latest.current = { setParams, idle: navigation.state === 'idle' };
  });

  const update = useCallback((change: (next: URLSearchParams) => void) => {
    if (!latest.current.idle || window.location.pathname !== screen.current) return;
    const current = new URLSearchParams(window.location.search);
    const next = new URLSearchParams(current);
    change(next);
    if (next.toString() === current.toString()) return;
    latest.current.setParams(next, { replace: true });
  }, []);

  return [params, update] as const;
}
