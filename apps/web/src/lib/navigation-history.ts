/**
 * Remembers where the user has been, so that a non-admin who opens an admin-only route is sent back
 * to the path they were on (document 1 section 2). Kept in sessionStorage so it survives a typed
 * address. The current and the previous path are both kept: whether the refused path has already
 * been written when the guard looks does not matter.
 */
const CURRENT_KEY = 'accord.path.current';
const PREVIOUS_KEY = 'accord.path.previous';
/** Paths the guard refused this session: never a place to send anyone back to. */
const REFUSED_KEY = 'accord.path.refused';

function read(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    window.sessionStorage.setItem(key, value);
  } catch {
    // storage unavailable: the fallback is the home screen
  }
}

const samePath = (a: string, b: string) => {
  const strip = (path: string) => (path.split('?')[0] ?? '').replace(/\/+$/, '');
  return strip(a) === strip(b);
};

function refusedPaths(): string[] {
  try {
    const value: unknown = JSON.parse(read(REFUSED_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

const isRefused = (path: string) => refusedPaths().some((refused) => samePath(refused, path));

export function rememberPath(path: string): void {
  // The guard may render before this runs; a refused path must not become "where the user was".
  if (isRefused(path)) return;
  const current = read(CURRENT_KEY);
  if (current !== null && samePath(current, path)) {
    write(CURRENT_KEY, path);
    return;
  }
  if (current !== null) write(PREVIOUS_KEY, current);
  write(CURRENT_KEY, path);
}

/** Where to send someone who may not open `refused`. */
export function previousPath(refused: string, fallback: string): string {
  if (!isRefused(refused)) write(REFUSED_KEY, JSON.stringify([...refusedPaths(), refused].slice(-20)));
  for (const candidate of [read(CURRENT_KEY), read(PREVIOUS_KEY)]) {
    if (candidate && !isRefused(candidate)) return candidate;
  }
  return fallback;
}
