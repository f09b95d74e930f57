import { MAPPING_SPINNER_MS } from '@accord/contracts';
import { useEffect, useState } from 'react';

/**
 * Whether the list shows its spinner: while loading, and for at least MAPPING_SPINNER_MS after each
 * change of `key` (a new page or filter), so the list does not flicker (document 2 section 4).
 */
export function useMinimumSpinner(loading: boolean, key: string): boolean {
  const [shownKey, setShownKey] = useState<string | null>(null);
  useEffect(() => {
    const timer = window.setTimeout(() => setShownKey(key), MAPPING_SPINNER_MS);
    return () => window.clearTimeout(timer);
  }, [key]);
  return loading || shownKey !== key;
}
