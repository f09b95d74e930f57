/**
 * Category Profile top fragrances and Group Comparison (document 3 sections 2.5, 2.6, 4.4, 4.5), for
 * every signed-in user. Both run on the metric search of the analytics module: the POST queues the
 * metric search(es) through the analytics service (which refuses bad input with 400 and admin-only
 * filters with 403 before anything is queued), records its own job row and queues a job on the
 * comparisons queue that waits for the searches and shapes the answer: the five best fragrances of a
 * family by top 2 box liking, or both groups with the significance of their differences per metric
 * (METRICS.md section 2b: the product is the unit, a Welch t-test on the groups' product scores,
 * two-sided at 99, 95 and 90 %, with the products and the respondents behind them as the two
 * bases). When both searches are done within their POST (summed in memory), the comparison is
 * worked out there too, from the searches' columns in the result store, and its row written as
 * finished: its first poll is SUCCESS without a queue round trip. Otherwise the POST waits up to
 * FAST_JOB_MS, so a fast comparison is done at its first poll; a slow one shows progress to the
 * poller (every 3 s in the browser). The status answer is written as text from the searches' own
 * answer texts: the two whole searches (megabytes at library scale) are neither parsed nor written
 * again per poll.
 */
import { randomUUID } from 'node:crypto';
import {
  GROUP_COMPARISON_METRICS,
  MetricSearchRequest,
  TOP_FRAGRANCES_PER_FAMILY,
  type GroupComparisonResult,
  type GroupComparisonStatus,
  type GroupDifference,
  type ParsedGroupComparisonRequest,
  type ParsedMetricSearchRequest,
  type ParsedTopFamilyFragrancesRequest,
  type TopFamilyFragrance,
  type TopFamilyFragrancesStatus,
  ANALYTICS_MESSAGES,
} from '@accord/contracts';
import { compareSelectionVsRest } from '@accord/stats';
import { AppError, errors } from '../../lib/errors.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { compressAnswer } from '../../plugins/compress-answers.ts';
import type { AnalyticsRepository } from '../analytics/analytics.repository.ts';
import type { AnalyticsService } from '../analytics/analytics.service.ts';
import { resultRow, rowIds, valueAt, type StoredSearch } from '../analytics/result-store.ts';

/** A comparison finishing within this time is answered as done at its first poll. */
const FAST_JOB_MS = 3000;
/** How often the worker looks at the metric searches it waits for. */
const SEARCH_POLL_MS = 50;
/** A metric search not done after this long fails the comparison. */
const SEARCH_TIMEOUT_MS = 10 * 60_000;
/**
 * Comparison results kept in memory after they are written: the searches' columns (held by the
 * result store too) and the small parts, bases and differences.
 */
const RECENT_RESULTS = 20;
/**
 * Status answers of finished group comparisons kept as bytes (several megabytes each at library
 * scale): the latest few, shared by every job of the same comparison.
 */
const STATUS_ANSWERS = 4;
/** The key of a stored group comparison naming its two metric searches (see processJob). */
const GROUP_SEARCHES = 'group_searches';

export const COMPARISONS_QUEUE = 'comparisons';
export const COMPARISON_KINDS = {
  group: 'group-comparison',
  family: 'category-profile-top',
} as const;
type ComparisonKind = (typeof COMPARISON_KINDS)[keyof typeof COMPARISON_KINDS];

/** A comparison job as queued: the metric search jobs it waits for, started by the POST. */
export interface ComparisonJobData {
  jobId: string;
  user: AuthUser;
  kind: ComparisonKind;
  searches: string[];
  family?: string;
  /** Group comparisons: each group's respondent filters, for its respondent base. */
  demographics?: ParsedGroupComparisonRequest['group1']['demographics'][];
}

/** The metric search of one comparison group: the compared metrics over its studies and respondents. */
export function groupSearchRequest(group: ParsedGroupComparisonRequest['group1']): ParsedMetricSearchRequest {
  return MetricSearchRequest.parse({
    q: {
      essentials: group.essentials,
      fragranceDetails: group.fragranceDetails,
      demographics: group.demographics,
      metrics: {
        rdfType: 'rdf',
        metricsList: GROUP_COMPARISON_METRICS.flatMap((entry) =>
          entry.aggregations.map((aggregation) => ({
            metricType: 'Performance',
            metric: entry.metric,
            aggregation,
          })),
        ),
      },
    },
    type: 'fragrances',
    fragrances: group.products ?? null,
  });
}

/** The metric search of a family's top fragrances: top 2 box liking, the best five kept. */
export function familySearchRequest(request: ParsedTopFamilyFragrancesRequest): ParsedMetricSearchRequest {
  return MetricSearchRequest.parse({
    q: {
      essentials: request.essentials,
      fragranceDetails: { family: [request.family] },
      metrics: {
        rdfType: 'rdf',
        threshold: {
          applyThreshold: true,
          amount: TOP_FRAGRANCES_PER_FAMILY,
          desc: true,
          type: 'fragrances',
        },
        metricsList: [{ metricType: 'Performance', metric: 'liking', aggregation: 'top_2_box' }],
      },
    },
    type: 'fragrances',
  });
}

/** Respondent bases of a group: per metric name, and for any compared metric (key null). */
export type RespondentBases = ReadonlyMap<string | null, number>;

/** The metrics a group comparison reads. */
const COMPARED_METRICS = GROUP_COMPARISON_METRICS.map((entry) => entry.metric);

/**
 * The product base of a group (METRICS.md section 2b): its products with at least one answer to a
 * compared metric under the group's respondent filter, the n of its tests. A product the search lists
 * but no filtered respondent rated has no score and is not counted.
 */
export function testedProducts(group: StoredSearch): number {
  const keys = GROUP_COMPARISON_METRICS.flatMap((entry) =>
    entry.aggregations.map((aggregation) => `${entry.metric}.${aggregation}`),
  ).filter((key) => group.keyColumn.has(key));
  let tested = 0;
  for (let row = 0; row < group.total; row++)
    if (keys.some((key) => valueAt(group, key, row) !== null)) tested++;
  return tested;
}

/** The scores of a column key over a group's rows, in the answer's order (rows without one left out). */
function scoresOf(group: StoredSearch, key: string): number[] {
  const scores: number[] = [];
  if (!group.keyColumn.has(key)) return scores;
  for (let row = 0; row < group.total; row++) {
    const value = valueAt(group, key, row);
    if (value !== null) scores.push(value);
  }
  return scores;
}

/**
 * Group 1 against group 2 on each compared metric aggregation (METRICS.md section 2b): the product is
 * the unit, so each fragrance's score (its mean or box share over its respondents) is one observation
 * and the two groups' scores are compared with a Welch t-test (n = products with a score). Answers of
 * one respondent to several products are not independent, so pooled answers are never tested. The
 * respondents behind the scores are the second base.
 */
export function groupDifferences(
  group1: StoredSearch,
  group2: StoredSearch,
  respondents1: RespondentBases = new Map(),
  respondents2: RespondentBases = new Map(),
): GroupDifference[] {
  const labels = new Map(
    [...group1.columns, ...group2.columns].map((column) => [column.metric, column.label]),
  );
  const mean = (values: number[]): number | null =>
    values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
  const differences: GroupDifference[] = [];
  for (const entry of GROUP_COMPARISON_METRICS) {
    for (const aggregation of entry.aggregations) {
      const key = `${entry.metric}.${aggregation}`;
      const one = scoresOf(group1, key);
      const two = scoresOf(group2, key);
      const comparison = compareSelectionVsRest({ kind: 'mean', selection: one, rest: two });
      differences.push({
        metric: entry.metric,
        label: labels.get(entry.metric) ?? entry.metric,
        aggregation,
        key,
        group1: mean(one),
        group2: mean(two),
        n1: one.length,
        n2: two.length,
        respondents1: respondents1.get(entry.metric) ?? 0,
        respondents2: respondents2.get(entry.metric) ?? 0,
        test: 'welch-t',
        p_value: comparison.pValue,
        level: comparison.level,
        table: comparison.direction,
      });
    }
  }
  return differences;
}

/** The five best fragrances of a finished family search, best first. */
function topFragrances(result: StoredSearch): TopFamilyFragrance[] {
  const key = 'liking.top_2_box';
  const rows: number[] = [];
  if (result.keyColumn.has(key))
    for (let row = 0; row < result.total && rows.length < TOP_FRAGRANCES_PER_FAMILY; row++)
      if (valueAt(result, key, row) !== null) rows.push(row);
  return rows
    .map((row) => resultRow(result, row))
    .map((row) => ({
      id: row.id,
      study_id: row.study_id,
      c_mi_number: row.c_mi_number,
      name: row.name,
      prod: row.prod,
      top_2_box: row.values['liking.top_2_box'] ?? null,
      n: row.bases['liking.top_2_box'] ?? 0,
    }));
}

/** A finished comparison as this process keeps it: its searches' columns and its own small answer. */
interface FinishedComparison {
  searches: StoredSearch[];
  /** A group comparison's bases and differences, or a family's answer. */
  result: Pick<GroupComparisonResult, 'bases' | 'differences'> | TopFamilyResult;
}
type TopFamilyResult = { family: string; fragrances: TopFamilyFragrance[] };
type GroupParts = Pick<GroupComparisonResult, 'bases' | 'differences'>;

/** An answer's encoding as the client accepts it (chooseEncoding), or null for none. */
type AnswerEncoding = 'br' | 'gzip' | null;
/** A status answer as sent: its bytes or text, and their encoding (null: as they are). */
export interface StatusAnswer {
  body: string | Buffer;
  encoding: AnswerEncoding;
}
/** A kept status answer: its bytes, and each compressed copy once a client asked for it. */
interface KeptAnswer {
  plain: Buffer;
  br?: Promise<Buffer>;
  gzip?: Promise<Buffer>;
}

/**
 * The status answer of a finished group comparison as JSON text: each group's search as the text of
 * its whole answer (written once per stored search and kept), with the comparison's bases and
 * differences; the same text as the status object written through JSON.stringify.
 */
function groupStatusBytes(group1: Buffer, group2: Buffer, parts: GroupParts): Buffer {
  return Buffer.concat([
    Buffer.from('{"status":"SUCCESS","progress":100,"result":{"json":{"group1":'),
    group1,
    Buffer.from(',"group2":'),
    group2,
    Buffer.from(
      `,"bases":${JSON.stringify(parts.bases)},"differences":${JSON.stringify(parts.differences)}}},"error":null}`,
    ),
  ]);
}

export function createComparisonsService(deps: {
  analytics: AnalyticsService;
  jobsRepository: Pick<AnalyticsRepository, 'createJob' | 'finishJob' | 'findJob' | 'jobState'>;
  jobs: JobQueue;
}) {
  const { analytics, jobsRepository, jobs } = deps;

  /**
   * The latest comparisons finished in this process: the POST answers as soon as the result is
   * known, and polls here need not wait for (or read back) the job row; polls in other processes
   * read the row once it is written.
   */
  const recentResults = new Map<string, FinishedComparison>();
  /** Requests waiting for their comparison in this process, woken as soon as its result is known. */
  const resultKnown = new Map<string, () => void>();
  /**
   * The bases and differences of the group comparisons made, by their two searches as the result
   * store holds them (one object per request, client scope and data version: a change of the data or
   * another scope brings other objects, and the answer is worked out again) and the groups'
   * respondent filters. The same comparison asked again, or by several callers at once, shares one
   * count of the respondents and one set of tests; an entry goes with its searches.
   */
  const comparedPairs = new WeakMap<StoredSearch, WeakMap<StoredSearch, Map<string, Promise<GroupParts>>>>();
  /**
   * The status answers of the latest comparisons as the bytes sent, by their bases and differences
   * (one object per comparison, see comparedPairs): polls of the same comparison, by one caller or
   * several, send them as they are instead of writing and encoding megabytes of text each time.
   */
  const statusAnswers = new Map<FinishedComparison['result'], KeptAnswer>();
  const statusAnswerOf = async (
    finished: FinishedComparison,
    encoding: AnswerEncoding,
  ): Promise<StatusAnswer> => {
    let answer = statusAnswers.get(finished.result);
    if (answer) statusAnswers.delete(finished.result);
    else {
      const [group1, group2] = finished.searches.map((search) => analytics.metricSearchJsonBytes(search));
      answer = { plain: groupStatusBytes(group1!, group2!, finished.result as GroupParts) };
    }
    statusAnswers.set(finished.result, answer);
    if (statusAnswers.size > STATUS_ANSWERS) statusAnswers.delete(statusAnswers.keys().next().value!);
    if (!encoding) return { body: answer.plain, encoding: null };
    // Compressed once per comparison (brotli of megabytes takes tens of milliseconds), not per poll.
    const compressed = (answer[encoding] ??= compressAnswer(answer.plain, encoding));
    return { body: await compressed, encoding };
  };
  const remember = (id: string, finished: FinishedComparison) => {
    recentResults.set(id, finished);
    if (recentResults.size > RECENT_RESULTS) recentResults.delete(recentResults.keys().next().value!);
    resultKnown.get(id)?.();
  };

  /** Waits for a metric search of the caller to end; its columns, or the refusal it ended with. */
  async function searchColumns(user: AuthUser, jobId: string): Promise<StoredSearch> {
    const deadline = Date.now() + SEARCH_TIMEOUT_MS;
    for (;;) {
      const state = await analytics.metricSearchColumns(user, jobId);
      if (state.status === 'SUCCESS' && state.search) return state.search;
      if (state.status === 'FAILURE' || state.status === 'REVOKED')
        throw errors.badRequest(state.error ?? ANALYTICS_MESSAGES.jobFailed);
      if (Date.now() > deadline) throw new Error(`metric search ${jobId} did not end in time`);
      await new Promise((resolve) => setTimeout(resolve, SEARCH_POLL_MS));
    }
  }

  /** The searches of a comparison when every one has succeeded already, else null. */
  async function searchesDone(user: AuthUser, jobIds: string[]): Promise<StoredSearch[] | null> {
    const states = await Promise.all(jobIds.map((id) => analytics.metricSearchColumns(user, id)));
    const searches = states.map((state) => (state.status === 'SUCCESS' ? state.search : null));
    return searches.every((search) => search !== null) ? (searches as StoredSearch[]) : null;
  }

  async function perform(data: ComparisonJobData, ready: StoredSearch[] | null): Promise<FinishedComparison> {
    const searches = ready ?? (await Promise.all(data.searches.map((id) => searchColumns(data.user, id))));
    if (data.kind === COMPARISON_KINDS.family)
      return { searches, result: { family: data.family ?? '', fragrances: topFragrances(searches[0]!) } };
    const [group1, group2] = searches as [StoredSearch, StoredSearch];
    const demographics = data.demographics ?? [];
    const filters = JSON.stringify(demographics);
    const byGroup2 =
      comparedPairs.get(group1) ?? new WeakMap<StoredSearch, Map<string, Promise<GroupParts>>>();
    comparedPairs.set(group1, byGroup2);
    const byFilters = byGroup2.get(group2) ?? new Map<string, Promise<GroupParts>>();
    byGroup2.set(group2, byFilters);
    let parts = byFilters.get(filters);
    if (!parts) {
      parts = compare(group1, group2, demographics);
      byFilters.set(filters, parts);
      // A failed count is tried again by the next comparison.
      const failed = parts;
      failed.catch(() => byFilters.get(filters) === failed && byFilters.delete(filters));
    }
    return { searches, result: await parts };
  }

  /** The bases of both groups and the test of each compared metric aggregation. */
  async function compare(
    group1: StoredSearch,
    group2: StoredSearch,
    demographics: NonNullable<ComparisonJobData['demographics']>,
  ): Promise<GroupParts> {
    const [respondents1, respondents2] = await Promise.all(
      [group1, group2].map((group, index) =>
        analytics.respondentBases(rowIds(group), COMPARED_METRICS, demographics[index] ?? {}),
      ),
    );
    return {
      bases: {
        group1: { products: testedProducts(group1), respondents: respondents1!.get(null) ?? 0 },
        group2: { products: testedProducts(group2), respondents: respondents2!.get(null) ?? 0 },
      },
      differences: groupDifferences(group1, group2, respondents1, respondents2),
    };
  }

  /**
   * Works out a comparison (waiting for its searches unless they are `ready`) and ends its job row
   * with the answer or the refusal: the comparisons worker, or the POST when the searches are done.
   */
  async function processJob(data: ComparisonJobData, ready: StoredSearch[] | null = null): Promise<void> {
    let finished: FinishedComparison;
    try {
      finished = await perform(data, ready);
    } catch (error) {
      const refused = error instanceof AppError && error.statusCode < 500;
      if (!refused) console.error(`${data.kind} job ${data.jobId} failed: ${(error as Error).message}`);
      await jobsRepository.finishJob(data.jobId, {
        error: refused ? error.message : ANALYTICS_MESSAGES.jobFailed,
      });
      return;
    }
    remember(data.jobId, finished);
    // A group comparison's row names the two searches instead of copying their answers (megabytes
    // each): the status reads them from those jobs.
    const stored: unknown =
      data.kind === COMPARISON_KINDS.group
        ? { [GROUP_SEARCHES]: data.searches, ...finished.result }
        : finished.result;
    await jobsRepository.finishJob(data.jobId, { result: stored });
  }

  /**
   * Records the job row; works the comparison out at once when its searches are done (summed in
   * memory within their POST), else queues the job and waits for it up to FAST_JOB_MS.
   */
  async function runJob(
    user: AuthUser,
    kind: ComparisonKind,
    searches: string[],
    extra: Pick<ComparisonJobData, 'family' | 'demographics'> = {},
  ) {
    const id = randomUUID();
    await jobsRepository.createJob(id, user.id, kind);
    const data: ComparisonJobData = { jobId: id, user, kind, searches, ...extra };
    const ready = await searchesDone(user, searches).catch(() => null);
    if (ready) {
      await processJob(data, ready);
      return id;
    }
    try {
      await jobs.enqueue(COMPARISONS_QUEUE, id, data);
    } catch (error) {
      await jobsRepository.finishJob(id, { error: ANALYTICS_MESSAGES.jobFailed }).catch(() => undefined);
      throw error;
    }
    const known = new Promise<void>((resolve) => resultKnown.set(id, resolve));
    await jobs.settled(id, FAST_JOB_MS, {
      until: known,
      check: async () => (await jobsRepository.jobState(id, user.id, kind))?.status !== 'STARTED',
    });
    resultKnown.delete(id);
    return id;
  }

  /** A finished comparison of the caller kept here, or null when the row must be read (or it failed). */
  async function keptFor(user: AuthUser, kind: ComparisonKind, jobId: string) {
    const kept = recentResults.get(jobId);
    if (kept === undefined) return null;
    // Known here: the row only tells whether the job is the caller's (its result is not read).
    const state = await jobsRepository.jobState(jobId, user.id, kind);
    if (!state) throw errors.notFound(ANALYTICS_MESSAGES.noSuchJob);
    return state.status === 'STARTED' || state.status === 'SUCCESS' ? kept : null;
  }

  /** The status of a top fragrances job of the caller. */
  async function familyStatus(user: AuthUser, jobId: string): Promise<TopFamilyFragrancesStatus> {
    const kind = COMPARISON_KINDS.family;
    const kept = await keptFor(user, kind, jobId);
    if (kept)
      return {
        status: 'SUCCESS',
        progress: 100,
        result: { json: kept.result as TopFamilyResult },
        error: null,
      };
    const job = await jobsRepository.findJob(jobId, user.id, kind);
    if (!job) throw errors.notFound(ANALYTICS_MESSAGES.noSuchJob);
    return {
      status: job.status as TopFamilyFragrancesStatus['status'],
      progress: job.progress,
      result: job.status === 'SUCCESS' ? { json: job.result as TopFamilyResult } : null,
      error: job.error,
    };
  }

  /**
   * The status of a group comparison of the caller as sent (see groupStatusBytes): a comparison kept
   * here as its kept bytes, compressed in `encoding`; any other as JSON text (compressed on its way).
   */
  async function groupStatus(user: AuthUser, jobId: string, encoding: AnswerEncoding): Promise<StatusAnswer> {
    const kind = COMPARISON_KINDS.group;
    const kept = await keptFor(user, kind, jobId);
    if (kept) return statusAnswerOf(kept, encoding);
    return { body: await storedGroupStatus(user, jobId), encoding: null };
  }

  /** The status of a group comparison of the caller read from its row, as JSON text. */
  async function storedGroupStatus(user: AuthUser, jobId: string): Promise<string | Buffer> {
    const kind = COMPARISON_KINDS.group;
    const job = await jobsRepository.findJob(jobId, user.id, kind);
    if (!job) throw errors.notFound(ANALYTICS_MESSAGES.noSuchJob);
    const searches = (job.result as Record<string, unknown> | null)?.[GROUP_SEARCHES];
    if (job.status === 'SUCCESS' && Array.isArray(searches)) {
      const states = await Promise.all(
        (searches as string[]).map((id) =>
          analytics.metricSearchColumns(user, id).catch((error: unknown) => {
            // The search's row was removed (JOB_RESULT_TTL_MS): the comparison is gone with it.
            if (error instanceof AppError && error.statusCode === 404)
              return {
                status: 'FAILURE',
                progress: 100,
                search: null,
                error: ANALYTICS_MESSAGES.jobExpired as string | null,
              };
            throw error;
          }),
        ),
      );
      const failed = states.find((state) => state.status !== 'SUCCESS' || !state.search);
      if (failed)
        return JSON.stringify(
          failed.status === 'FAILURE' || failed.status === 'REVOKED'
            ? { status: 'FAILURE', progress: 100, result: null, error: failed.error }
            : { status: 'STARTED', progress: 50, result: null, error: null },
        );
      const [group1, group2] = states.map((state) => analytics.metricSearchJsonBytes(state.search!));
      return groupStatusBytes(group1!, group2!, job.result as GroupParts);
    }
    return JSON.stringify({
      status: job.status,
      progress: job.progress,
      result: job.status === 'SUCCESS' ? { json: job.result } : null,
      error: job.error,
    });
  }

  return {
    processJob,

    /** Queues both groups' metric searches (refusing bad input at once) and the comparison. */
    async queueGroupComparison(
      user: AuthUser,
      request: ParsedGroupComparisonRequest,
    ): Promise<{ jobid: string }> {
      const searches = await Promise.all(
        [request.group1, request.group2].map(
          async (group) => (await analytics.queueMetricSearch(user, groupSearchRequest(group), false)).jobid,
        ),
      );
      return {
        jobid: await runJob(user, COMPARISON_KINDS.group, searches, {
          demographics: [request.group1.demographics, request.group2.demographics],
        }),
      };
    },

    /** The status of a group comparison of the caller (its text parsed: a deck reads it). */
    async groupComparisonStatus(user: AuthUser, jobId: string): Promise<GroupComparisonStatus> {
      return JSON.parse((await groupStatus(user, jobId, null)).body.toString()) as GroupComparisonStatus;
    },

    /**
     * The same as groupComparisonStatus as it is sent: its JSON text or bytes, compressed in the
     * encoding the client accepts when kept here. Two whole metric searches (megabytes at library
     * scale) are sent as their answers' texts, not parsed, checked and written again.
     */
    groupComparisonStatusAnswer: groupStatus,

    /**
     * The metric search requests of a finished group comparison of the caller (each group's filters,
     * respondent filters and chosen products), in group order; null for a group whose search no
     * longer holds its request, and null for both while the row does not name its searches yet.
     */
    async groupComparisonRequests(
      user: AuthUser,
      jobId: string,
    ): Promise<[ParsedMetricSearchRequest | null, ParsedMetricSearchRequest | null] | null> {
      const job = await jobsRepository.findJob(jobId, user.id, COMPARISON_KINDS.group);
      const searches = (job?.result as Record<string, unknown> | null | undefined)?.[GROUP_SEARCHES];
      if (!Array.isArray(searches) || searches.length !== 2) return null;
      const [one, two] = await Promise.all(
        (searches as string[]).map((id) => analytics.metricSearchRequest(user, id).catch(() => null)),
      );
      return [one ?? null, two ?? null];
    },

    /** Queues the search of a family's five best fragrances by top 2 box liking. */
    async queueTopFamily(
      user: AuthUser,
      request: ParsedTopFamilyFragrancesRequest,
    ): Promise<{ jobid: string }> {
      const search = await analytics.queueMetricSearch(user, familySearchRequest(request), false);
      return {
        jobid: await runJob(user, COMPARISON_KINDS.family, [search.jobid], { family: request.family }),
      };
    },

    topFamilyStatus: familyStatus,
  };
}

export type ComparisonsService = ReturnType<typeof createComparisonsService>;

/** Runs the comparisons worker of this process on the queue. */
export async function registerComparisonJobs(jobs: JobQueue, service: ComparisonsService): Promise<void> {
  await jobs.register<ComparisonJobData>(COMPARISONS_QUEUE, (job) => service.processJob(job), {
    concurrency: 3,
    pollingIntervalSeconds: 2,
    retryLimit: 1,
    expireInSeconds: 15 * 60,
  });
}
