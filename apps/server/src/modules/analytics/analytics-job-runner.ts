/**
 * The job protocol of the analytics searches (jobs/queue.ts): the POST records the job row, queues
 * the job and waits for it up to FAST_JOB_MS, so a fast job is done at its first poll; otherwise the
 * worker goes on and the polls see it finish. A result is kept as the JSON text its row stores and
 * its polls are sent; a cache hit's row points to the earlier job holding the same result.
 */
import { randomUUID } from 'node:crypto';
import {
  ANALYTICS_MESSAGES,
  type ParsedMetricSearchRequest,
  type ParsedSignificanceRequest,
} from '@accord/contracts';
import type { JobQueue } from '../../jobs/queue.ts';
import { AppError, errors } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import type { AnalyticsRepository } from './analytics.repository.ts';
import type { ParsedTopAttributesRequest } from './top-attributes.ts';

/** A job finishing within this time is answered as done at its first poll. */
const FAST_JOB_MS = 3000;
/** Results of the latest jobs kept in memory (a result of every fragrance holds tens of thousands of rows). */
const RECENT_RESULTS = 20;
/**
 * At most this many characters of result text kept in memory together (each also kept parsed, about
 * as large again): a search of every fragrance at library scale is 6-12 MB of text, so eight clients
 * searching the whole library keep the few latest, not twenty (over half a gigabyte). An older
 * result is read back from its row when it is asked for again.
 */
const RECENT_RESULT_CHARS = 40_000_000;
/** Key of a job row whose result is the same as an earlier job's (a cache hit). */
export const SAME_AS = 'same_as_job';

/**
 * A job's result as the JSON text its row stores and its polls are sent; the content is parsed only
 * where it is read again (a spreadsheet, a comparison), and then kept.
 */
export interface StoredResult {
  readonly text: string;
  parsed?: unknown;
}

/** A result computed now, kept parsed as well. */
export const storedResult = (value: unknown): StoredResult => ({
  text: JSON.stringify(value),
  parsed: value,
});
/** The content of a result (parsed once, then kept). */
export const contentOf = <T>(stored: StoredResult): T => (stored.parsed ??= JSON.parse(stored.text)) as T;

/** The earlier job a cache hit's row points to ({"same_as_job": id}), or null for a whole result. */
function pointerIn(text: string): string | null {
  if (text.length > 200 || !text.startsWith(`{"${SAME_AS}":`)) return null;
  const pointer = (JSON.parse(text) as Record<string, unknown>)[SAME_AS];
  return typeof pointer === 'string' ? pointer : null;
}

/** The kinds of analytics job (the job rows' kind). */
export const JOB_KINDS = {
  search: 'analytics-fragrances',
  significance: 'analytics-significance',
  attributes: 'analytics-top-attributes',
} as const;

/** One of JOB_KINDS. */
export type JobKind = (typeof JOB_KINDS)[keyof typeof JOB_KINDS];

/** The pg-boss queue of the analytics jobs (every kind). */
export const ANALYTICS_QUEUE = 'analytics';

/** What the analytics worker needs to run a job (the pg-boss job's data). */
export type AnalyticsJob =
  | { jobId: string; user: AuthUser; kind: typeof JOB_KINDS.attributes; request: ParsedTopAttributesRequest }
  | {
      jobId: string;
      user: AuthUser;
      kind: typeof JOB_KINDS.search;
      request: ParsedMetricSearchRequest;
      noCache: boolean;
    }
  | {
      jobId: string;
      user: AuthUser;
      kind: typeof JOB_KINDS.significance;
      request: ParsedSignificanceRequest;
      noCache: boolean;
    };

/**
 * An analytics job as queued: the request travels as JSON text, because the queue stores job data as
 * jsonb, which does not keep the order of object keys.
 */
export interface AnalyticsJobData {
  jobId: string;
  user: AuthUser;
  kind: JobKind;
  request: string;
  noCache?: boolean;
}

/** Distributes an analytics job over its own type without naming the id and the caller twice. */
type JobOrder = AnalyticsJob extends infer J
  ? J extends AnalyticsJob
    ? Omit<J, 'jobId' | 'user'>
    : never
  : never;

/** Thrown by a job's progress step once the job was cancelled: its work stops there. */
export class JobCancelledError extends Error {
  readonly jobId: string;
  constructor(jobId: string) {
    super(`job ${jobId} was cancelled`);
    this.name = 'JobCancelledError';
    this.jobId = jobId;
  }
}

/**
 * Records how far a job's work is (a share of its steps, 0-100) and throws JobCancelledError when
 * the job was cancelled meanwhile.
 */
export type JobStep = (progress: number) => Promise<void>;

/** The work of a job: its result and, for a cache hit, the earlier job holding the same result. */
export type PerformJob = (
  job: AnalyticsJob,
  step: JobStep,
) => Promise<{ result: StoredResult; sameAs?: string }>;

/** The job protocol over the job rows and the queue, running `perform` as the work of each job. */
export function createJobRunner(deps: {
  analytics: AnalyticsRepository;
  jobs: JobQueue;
  perform: PerformJob;
}) {
  const { analytics, jobs, perform } = deps;
  /**
   * Results of the latest jobs finished in this process, kept after they are written to their job
   * row: the first poll is answered at once (other processes wait for the row), and later polls
   * (e.g. a comparison waiting for its searches) need not read and parse a large result again.
   */
  const recentResults = new Map<string, StoredResult>();
  /** Requests waiting for their job in this process, woken as soon as its result is known. */
  const resultKnown = new Map<string, () => void>();
  let recentChars = 0;
  const remember = (id: string, result: StoredResult) => {
    const earlier = recentResults.get(id);
    if (earlier) recentChars -= earlier.text.length;
    recentResults.delete(id);
    recentResults.set(id, result);
    recentChars += result.text.length;
    // The oldest go first; the newest stays even when it alone is over the budget.
    while (
      recentResults.size > RECENT_RESULTS ||
      (recentResults.size > 1 && recentChars > RECENT_RESULT_CHARS)
    ) {
      const [oldest, kept] = recentResults.entries().next().value!;
      recentChars -= kept.text.length;
      recentResults.delete(oldest);
    }
    resultKnown.get(id)?.();
  };

  /**
   * Records the job row, queues the job and waits for it up to FAST_JOB_MS, so a fast job is done at
   * its first poll (a result known in memory answers at once, a failure once it is recorded).
   */
  async function runJob(user: AuthUser, order: JobOrder): Promise<string> {
    const id = randomUUID();
    await analytics.createJob(id, user.id, order.kind, JSON.stringify(order.request));
    try {
      const data: AnalyticsJobData = {
        jobId: id,
        user,
        kind: order.kind,
        request: JSON.stringify(order.request),
        ...('noCache' in order ? { noCache: order.noCache } : {}),
      };
      await jobs.enqueue(ANALYTICS_QUEUE, id, data);
    } catch (error) {
      await analytics.finishJob(id, { error: ANALYTICS_MESSAGES.jobFailed }).catch(() => undefined);
      throw error;
    }
    const known = new Promise<void>((resolve) => resultKnown.set(id, resolve));
    await jobs.settled(id, FAST_JOB_MS, {
      until: known,
      check: async () => (await analytics.jobState(id, user.id, order.kind))?.status !== 'STARTED',
    });
    resultKnown.delete(id);
    return id;
  }

  /**
   * The analytics worker: runs the job and ends its row. The work answers the result and, when it
   * is the same as an earlier job's (a cache hit), that job's id: the row then points to it instead
   * of holding a second copy. A refusal (4xx) keeps its message; anything else is logged and
   * reported as a failed analysis.
   */
  async function processJob(data: AnalyticsJobData): Promise<void> {
    const { jobId: id, kind } = data;
    let done: { result: StoredResult; sameAs?: string };
    try {
      const job = {
        ...data,
        request: JSON.parse(data.request) as unknown,
        noCache: data.noCache ?? false,
      } as AnalyticsJob;
      done = await perform(job, async (progress) => {
        if (!(await analytics.setJobProgress(id, progress))) throw new JobCancelledError(id);
      });
    } catch (error) {
      // Cancelled: its row says so already, and nothing is kept.
      if (error instanceof JobCancelledError) return;
      const refused = error instanceof AppError && error.statusCode < 500;
      if (!refused) console.error(`${kind} job ${id} failed: ${(error as Error).message}`);
      await analytics.finishJob(id, { error: refused ? error.message : ANALYTICS_MESSAGES.jobFailed });
      return;
    }
    remember(id, done.result);
    try {
      await (done.sameAs && done.sameAs !== id
        ? analytics.finishJob(id, { result: { [SAME_AS]: done.sameAs } })
        : analytics.finishJob(id, { text: done.result.text }));
    } catch (error) {
      console.error(`${kind} job ${id} could not be recorded: ${(error as Error).message}`);
      throw error;
    }
  }

  /** A job of the caller: its state and, once done, its result (following a pointer to an earlier job). */
  async function jobStatus(
    user: AuthUser,
    kind: JobKind,
    jobId: string,
  ): Promise<{ status: string; progress: number; result: StoredResult | null; error: string | null }> {
    const kept = recentResults.get(jobId);
    if (kept !== undefined) {
      // Known here: the row only tells whether the job is the caller's (its result is not read).
      const state = await analytics.jobState(jobId, user.id, kind);
      if (!state) throw errors.notFound(ANALYTICS_MESSAGES.noSuchJob);
      if (state.status === 'STARTED' || state.status === 'SUCCESS')
        return { status: 'SUCCESS', progress: 100, result: kept, error: null };
      return { ...state, result: null };
    }
    const job = await analytics.findJobText(jobId, user.id, kind);
    if (!job) throw errors.notFound(ANALYTICS_MESSAGES.noSuchJob);
    const { text, ...state } = job;
    if (state.status !== 'SUCCESS' || text === null) return { ...state, result: null };
    const pointer = pointerIn(text);
    if (pointer === null) return { ...state, result: { text } };
    // The earlier result as kept here (parsed already), else its text from its row.
    const keptEarlier = recentResults.get(pointer);
    if (keptEarlier) return { ...state, result: keptEarlier };
    const earlier = await analytics.jobResultText(pointer);
    // The earlier job is still writing its row, or its row was removed (JOB_RESULT_TTL_MS).
    if (earlier === null) return { ...state, status: 'STARTED', progress: 50, result: null };
    if (earlier === undefined)
      return { ...state, status: 'FAILURE', result: null, error: ANALYTICS_MESSAGES.jobExpired };
    return { ...state, result: { text: earlier } };
  }

  /**
   * Cancels a job of the caller that has not ended: its row becomes REVOKED at once, so its polls
   * end; its work stops at its next step and its result is never recorded. A job already ended keeps
   * its state.
   */
  async function cancelJob(
    user: AuthUser,
    kind: JobKind,
    jobId: string,
  ): Promise<{ status: string; progress: number }> {
    const state = await analytics.cancelJob(jobId, user.id, kind, ANALYTICS_MESSAGES.jobCancelled);
    if (!state) throw errors.notFound(ANALYTICS_MESSAGES.noSuchJob);
    // A POST still waiting for it answers at once (a result kept here is no longer answered: see jobStatus).
    if (state.status === 'REVOKED') resultKnown.get(jobId)?.();
    return state;
  }

  return { runJob, processJob, jobStatus, cancelJob };
}
