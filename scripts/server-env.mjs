/**
 * What the server's environment adds for the C allocator (glibc's malloc), set by `npm start` and
 * `npm run worker` (package.json runs node with it), by scripts/start.mjs for the web processes it
 * forks, and by `npm run bench` for the server it measures. The allocator reads it only when a
 * process starts.
 *
 * mmap_threshold: a block of 256 KiB or more (the typed arrays of a search, a Calculate, an export)
 * is mapped on its own and given back to the system when freed. Left to itself the allocator raises
 * that threshold to the largest block freed so far (up to 32 MiB), after which such blocks come from
 * its heap, whose freed middle it keeps: measured on the 3,000-study library, the main heap then grew
 * to 300 MB and never shrank, so the process stayed at its highest (bench/README.md, "Where the
 * memory goes").
 */
export const MALLOC_TUNABLES = 'glibc.malloc.mmap_threshold=262144';

/** `env` with the allocator settings, unless it sets GLIBC_TUNABLES itself. */
export function serverEnv(env) {
  return env.GLIBC_TUNABLES ? env : { ...env, GLIBC_TUNABLES: MALLOC_TUNABLES };
}
