/** The debug flag (off by default): set localStorage "accord.debug" to "1" to turn it on. */
export function isDebugEnabled(): boolean {
  try {
    return window.localStorage.getItem('accord.debug') === '1';
  } catch {
    return false;
  }
}
