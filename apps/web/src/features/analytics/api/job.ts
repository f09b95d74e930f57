/**
 * The job protocol of the analytics calls (document 3 section 4.1): the POST answers a job id, the
 * GET answers its state. SUCCESS gives the result, FAILURE (also 'failed') and REVOKED an error,
 * anything else is progress. A job finished within the POST's wait is done at its first poll, so
 * the first poll goes out at once; later polls every `intervalMs`. Aborting the signal (leaving the
 * screen) stops the polling.
 */
import { ANALYTICS_MESSAGES } from '@accord/contracts';

/** Polling interval of the analytics jobs (document 3 section 9, the table filter and default). */
export const POLL_INTERVAL_MS = 3000;

export class JobFailedError extends Error {
  constructor(message: string | null) {
    super(message || ANALYTICS_MESSAGES.jobFailed);
    this.name = 'JobFailedError';
  }
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('Aborted', 'AbortError'));
      return;
    }
    const timer = window.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      window.clearTimeout(timer);
      reject(new DOMException('Aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

interface JobState<Result> {
  status: string;
  /** The share of the job's work done (0-100), as the server knows it. */
  progress?: number;
  result: Result | null;
  error: string | null;
}

const FAILED = new Set(['FAILURE', 'REVOKED', 'failed']);

/**
 * Polls `poll` until the job ends; resolves its result or rejects with JobFailedError. `onState`
 * hears each state polled (its progress).
 */
export async function awaitJob<Result>(
  poll: (signal?: AbortSignal) => Promise<JobState<Result>>,
  signal?: AbortSignal,
  intervalMs = POLL_INTERVAL_MS,
  onState?: (state: JobState<Result>) => void,
): Promise<Result> {
  for (;;) {
    const state = await poll(signal);
    onState?.(state);
    if (state.status === 'SUCCESS' && state.result !== null) return state.result;
    if (FAILED.has(state.status)) throw new JobFailedError(state.error);
    await wait(intervalMs, signal);
  }
}
