/**
 * Finished Calculates kept in memory: the answer of a significance request (its JSON text) under the
 * request's fingerprint as the caller's rights read it (client scope, admin or not, the whole request
 * with its correction and filters) and the data's version (data_versions, as every analytics cache
 * keys itself), at most SIGNIFICANCE_CACHE_BYTES together, the least recently used first out. The
 * same Calculate asked again is read here; Calculates asked at the same time share one computation
 * (the first one's), and a change of the data (a mapping edit, an upload) gives fresh marks.
 *
 * Each answer is written once, to the job row of the job that computed it; the row of a job that
 * read it here points to that row (as the job runner's cache hits do), so an entry is kept no longer
 * than the rows it points to live (SIGNIFICANCE_CACHE_MAX_AGE_MS, well within JOB_RESULT_TTL_MS).
 */
import { createHash } from 'node:crypto';
import type { StoredResult } from './analytics-job-runner.ts';

/** At most this many characters of answers kept together (1,000 products × 2 tests: 430,000). */
export const SIGNIFICANCE_CACHE_CHARS = 16_000_000;
/** An answer computed longer ago than this is computed again. */
export const SIGNIFICANCE_CACHE_MAX_AGE_MS = 60 * 60_000;
/** Job ids whose answer is remembered here, for their status polls (the newest). */
const JOBS_REMEMBERED = 2000;

/** The fingerprint of a significance request as one caller's rights read it. */
export function significanceFingerprint(
  scope: { clients: readonly string[] | null; admin: boolean },
  request: unknown,
): string {
  return createHash('sha256')
    .update(JSON.stringify({ clients: scope.clients, admin: scope.admin, request }))
    .digest('hex');
}

interface Entry {
  key: string;
  version: string;
  /** The job whose row holds the answer's text. */
  jobId: string;
  result: Promise<StoredResult>;
  done: StoredResult | null;
  chars: number;
  at: number;
  /** The jobs remembered as answered by this entry (see `jobs`), forgotten with it. */
  jobIds: string[];
}

/** An answer of the cache: the result and the job whose row holds its text. */
export interface CachedSignificance {
  result: StoredResult;
  jobId: string;
}

export function createSignificanceCache(
  options: { maxChars?: number; maxAgeMs?: number; now?: () => number } = {},
) {
  const maxChars = options.maxChars ?? SIGNIFICANCE_CACHE_CHARS;
  const maxAgeMs = options.maxAgeMs ?? SIGNIFICANCE_CACHE_MAX_AGE_MS;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  /** The entry answering each job answered within its request, and the job's owner. */
  const jobs = new Map<string, { entry: Entry; owner: number }>();
  let total = 0;
  let computed = 0;

  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    total -= entry.chars;
    entries.delete(key);
    // Their polls read the rows once the entry is gone; remembering them would keep its text alive
    // beyond the bound (up to JOBS_REMEMBERED answers of 430,000 characters each).
    for (const jobId of entry.jobIds) if (jobs.get(jobId)?.entry === entry) jobs.delete(jobId);
  };
  const trim = () => {
    while (entries.size > 1 && total > maxChars) remove(entries.keys().next().value!);
  };
  const held = (entry: Entry | undefined) => entry !== undefined && entries.get(entry.key) === entry;
  const answers = (jobId: string, entry: Entry, owner: number) => {
    // An entry no longer held (asked afresh meanwhile, or pushed out) answers no poll.
    if (!held(entry)) return;
    jobs.delete(jobId);
    jobs.set(jobId, { entry, owner });
    entry.jobIds.push(jobId);
    if (jobs.size > JOBS_REMEMBERED) {
      const [oldest, job] = jobs.entries().next().value!;
      jobs.delete(oldest);
      const at = job.entry.jobIds.indexOf(oldest);
      if (at >= 0) job.entry.jobIds.splice(at, 1);
    }
  };

  return {
    /**
     * The answer of the request `key` under `version` for job `jobId`: the one held (or under way:
     * its computation is shared), else `compute`'s, kept. `fresh`: computed again even when held (a
     * Calculate asked without the cache, for measuring). The answer names the job whose row holds
     * its text: `jobId` itself when computed for it. `owner`: the user of a job answered within its
     * request (finished once its row is written, never cancelled), whose polls forJob then answers.
     */
    async get(
      key: string,
      version: string,
      jobId: string,
      compute: () => Promise<StoredResult>,
      options: { fresh?: boolean; owner?: number } = {},
    ): Promise<CachedSignificance> {
      const { fresh = false, owner } = options;
      let entry = entries.get(key);
      if (entry && (fresh || entry.version !== version || now() - entry.at > maxAgeMs)) {
        remove(key);
        entry = undefined;
      }
      if (entry) {
        // Used last: out last.
        entries.delete(key);
        entries.set(key, entry);
      } else {
        computed++;
        const made: Entry = {
          key,
          version,
          jobId,
          result: compute(),
          done: null,
          chars: 0,
          at: now(),
          jobIds: [],
        };
        entry = made;
        entries.set(key, made);
        made.result.then(
          (result) => {
            made.done = result;
            if (entries.get(key) !== made) return;
            made.chars = result.text.length;
            total += made.chars;
            trim();
          },
          () => {
            if (entries.get(key) === made) remove(key);
          },
        );
      }
      const result = await entry.result;
      if (owner !== undefined) answers(jobId, entry, owner);
      return { result, jobId: entry.jobId };
    },

    /**
     * The answer of a job of `owner` answered within its request, while held here; else null: its
     * row then answers.
     */
    forJob(jobId: string, owner: number): StoredResult | null {
      const job = jobs.get(jobId);
      return job && job.owner === owner && held(job.entry) ? job.entry.done : null;
    },

    /**
     * Answers kept, their characters, how many were computed since the start, and the jobs whose
     * polls are answered here.
     */
    size(): { entries: number; chars: number; computed: number; jobs: number } {
      return { entries: entries.size, chars: total, computed, jobs: jobs.size };
    },
  };
}

export type SignificanceCache = ReturnType<typeof createSignificanceCache>;
