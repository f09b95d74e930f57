/**
 * How a Calculate is answered (significance.ts computes it): from the answers kept in memory
 * (significance-cache.ts) when the same request was answered under the same data, sharing the
 * computation of the same request under way, else computed. A request whose respondent sums come
 * from memory (no respondent filter, or gender and age) is answered within its POST, as a metric
 * search summed in memory is: its job row is written as finished, so its first poll is SUCCESS,
 * without a trip through the job queue; other filters read the answers from the database, which may
 * take seconds, and are queued.
 */
import { randomUUID } from 'node:crypto';
import { ANALYTICS_MESSAGES, type ParsedSignificanceRequest } from '@accord/contracts';
import { AppError } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { RESPONDENT_INDEXES, type AnalyticsContext } from './analytics-context.ts';
import { JOB_KINDS, SAME_AS, type StoredResult } from './analytics-job-runner.ts';
import { respondentConditions, type AnalyticsRepository } from './analytics.repository.ts';
import { computeSignificance } from './significance.ts';
import {
  createSignificanceCache,
  significanceFingerprint,
  type CachedSignificance,
} from './significance-cache.ts';

export function createSignificanceAnswers(deps: {
  context: AnalyticsContext;
  analytics: AnalyticsRepository;
}) {
  const { context, analytics } = deps;
  const cache = createSignificanceCache();

  /**
   * The answer of a Calculate for job `jobId` under the data's version `now`: kept, shared or
   * computed (`fresh`: computed whatever is kept; `inline`: a job answered within its request,
   * whose polls the answer kept here then serves).
   */
  function answer(
    user: AuthUser,
    request: ParsedSignificanceRequest,
    now: string,
    jobId: string,
    options: { fresh: boolean; inline?: boolean },
  ): Promise<CachedSignificance> {
    const key = significanceFingerprint(
      { clients: context.scopeKey(user), admin: user.permissions.isAdmin },
      request,
    );
    return cache.get(key, now, jobId, () => computeSignificance(context, user, request, now), {
      fresh: options.fresh,
      ...(options.inline ? { owner: user.id } : {}),
    });
  }

  /** Whether the request's respondent sums come from memory (no filter, or gender and age). */
  function inMemory(request: ParsedSignificanceRequest): boolean {
    const conditions = respondentConditions(request.demographics, request.demographics_fragrances);
    if (conditions.length === 0) return true;
    const metrics = new Set(request.metrics.filter((entry) => entry.confidence).map((entry) => entry.field));
    return Boolean(conditions.match) && metrics.size <= RESPONDENT_INDEXES;
  }

  /** The rows being written of jobs answered within their request that hold their answer. */
  const rowsWritten = new Map<string, Promise<void>>();

  /**
   * Answers a Calculate within its request: its row is written once, finished, with the answer's
   * text when computed for it, else pointing to the row that holds it (written first, so that
   * another process following the pointer finds it); a refusal or a failure is recorded on the row
   * as a queued job's would be.
   */
  async function answerInline(
    user: AuthUser,
    request: ParsedSignificanceRequest,
    fresh: boolean,
  ): Promise<string> {
    const id = randomUUID();
    const now = await context.fingerprint();
    const requestText = JSON.stringify(request);
    const record = (text: string) =>
      analytics.createEndedJob(id, user.id, JOB_KINDS.significance, requestText, { text });
    let done: CachedSignificance;
    try {
      done = await answer(user, request, now, id, { fresh, inline: true });
    } catch (error) {
      const refused = error instanceof AppError && error.statusCode < 500;
      if (!refused) console.error(`${JOB_KINDS.significance} job ${id} failed: ${(error as Error).message}`);
      await analytics.createJob(id, user.id, JOB_KINDS.significance, requestText);
      await analytics.finishJob(id, { error: refused ? error.message : ANALYTICS_MESSAGES.jobFailed });
      return id;
    }
    if (done.jobId === id) {
      const written = record(done.result.text);
      rowsWritten.set(id, written);
      try {
        await written;
      } finally {
        rowsWritten.delete(id);
      }
      return id;
    }
    await rowsWritten.get(done.jobId)?.catch(() => undefined);
    await record(JSON.stringify({ [SAME_AS]: done.jobId }));
    return id;
  }

  /**
   * The status of a job of the caller answered within its request (finished when its POST
   * answered) while its answer is held here, without a read of its row; null otherwise: the row
   * answers.
   */
  function heldStatus(
    user: AuthUser,
    jobId: string,
  ): { status: string; progress: number; error: string | null; result: StoredResult } | null {
    const held = cache.forJob(jobId, user.id);
    return held && { status: 'SUCCESS', progress: 100, error: null, result: held };
  }

  return { answer, inMemory, answerInline, heldStatus, size: cache.size };
}

export type SignificanceAnswers = ReturnType<typeof createSignificanceAnswers>;
