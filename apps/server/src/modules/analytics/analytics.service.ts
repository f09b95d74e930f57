/**
 * Advanced analytics: the metric search (per fragrance or concept, the chosen metrics' aggregations
 * with their bases, thresholds and diagnostics), significance, and the demographic options. Searches
 * run as jobs on the queue (jobs/queue.ts) under the spec's protocol: the POST records the job row,
 * queues the job and waits for it up to FAST_JOB_MS, so a fast job is done at its first poll;
 * otherwise the worker goes on and the polls see it finish. The request is checked (400, 403) before
 * anything is queued; the worker runs with the caller's rights as they were at the POST.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { TendenciesRequest, TopAttributesRequest, TopAttributesStatus } from '@accord/contracts';
import {
  AGGREGATION_LABELS,
  AGGREGATIONS_BY_METRIC_KIND,
  AGGREGATIONS,
  ANALYTICS_AGE_RANGE,
  ANALYTICS_MESSAGES,
  LOW_BASE,
  MetricSearchRequest,
  isClientScopedRole,
  permissionsForRole,
  type Aggregation,
  type AnalyticsOptionsResponse,
  type Diagnostics,
  type PerformanceBreakdown,
  type MetricSearchResult,
  type MetricSearchStatus,
  type ParsedAnalyticsQuery,
  type ParsedMetricSearchRequest,
  type ParsedSignificanceRequest,
  StudySearchQuery,
  type ParsedStudySearchQuery,
  type SignificanceStatus,
  type TendenciesResponse,
  NO_TAG,
  type Threshold,
} from '@accord/contracts';
import {
  ANALYTICS_LEVELS,
  compareMeanVsAverageFromSummary,
  compareMeanVsRestFromSummaries,
  compareSelectionVsAverage,
  compareSelectionVsRest,
  subtractSums,
  summaryFromSums,
  type SelectionComparison,
} from '@accord/stats';
import { studyScope } from '../../lib/client-scope.ts';
import { AppError, errors } from '../../lib/errors.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { mergeOptions } from '../fields/fields.presenter.ts';
import type { FieldsRepository } from '../fields/fields.repository.ts';
import { createAnswerCache } from '../search/answer-cache.ts';
import { createFingerprintCache } from './analytics-cache.ts';
import { compileFilters, s, type CompiledFilters } from '../search/search-filters.ts';
import {
  EMPTY_SUMS,
  addSums,
  addSumsInto,
  aggregate,
  applyThreshold,
  rankJointly,
  boxCount,
  isShare,
  summarise,
  type Sums,
} from './analytics-metrics.ts';
import {
  respondentConditions,
  type AnalyticsRepository,
  type MetricRecord,
  type MetricSums,
  type OutOfScaleRow,
  type ProductRecord,
  type ProductSelection,
} from './analytics.repository.ts';
import { demographicTableBuilder, sumDemographics, type DemographicTable } from './demographic-table.ts';
import { metricSearchJson, type ComputedRows } from './metric-search.presenter.ts';

/** A job finishing within this time is answered as done at its first poll. */
const FAST_JOB_MS = 3000;
/** A result of every fragrance holds tens of thousands of rows: keep only a few in memory. */
const RESULT_CACHE_ENTRIES = 20;
const RECENT_RESULTS = 20;
/** Product lists kept (one per distinct selection of filters, scope and study kind). */
const PRODUCT_LISTS = 50;
/** Metrics whose stored statistics are kept in memory (about 2 MB each at 24,000 products). */
const STORED_SUMS_METRICS = 40;
/**
 * Metrics whose demographic statistics are kept in memory for gender and age filters (about 50 MB
 * each at 21,600 products: 1.1 million rows, one per product, gender and year of age).
 */
const DEMOGRAPHIC_TABLES = 4;
/** How long a filtered search waits for a demographic table being read before it asks the database. */
const DEMOGRAPHIC_LOAD_WAIT_MS = 100;
/** Key of a job row whose result is the same as an earlier job's (a cache hit). */
const SAME_AS = 'same_as_job';
/**
 * The oldest job a cache hit's row may point to; an older answer is stored again under the new job
 * (rows are removed JOB_RESULT_TTL_MS after they were written, the older one first).
 */
const POINTER_MAX_AGE_MS = 60 * 60_000;

/**
 * The part of the data's fingerprint ("table:version|...") the answers and their statistics follow:
 * they are written with their products and moved between metrics with their questions.
 */
const answersPart = (fingerprint: string) =>
  fingerprint
    .split('|')
    .filter((part) => part.startsWith('products:') || part.startsWith('questions:'))
    .join('|');

/**
 * A job's result as the JSON text its row stores and its polls are sent; the content is parsed only
 * where it is read again (a spreadsheet, a comparison), and then kept.
 */
interface StoredResult {
  readonly text: string;
  parsed?: unknown;
}
const storedResult = (value: unknown): StoredResult => ({ text: JSON.stringify(value), parsed: value });
const contentOf = <T>(stored: StoredResult): T => (stored.parsed ??= JSON.parse(stored.text)) as T;

/** The earlier job a cache hit's row points to ({"same_as_job": id}), or null for a whole result. */
function pointerIn(text: string): string | null {
  if (text.length > 200 || !text.startsWith(`{"${SAME_AS}":`)) return null;
  const pointer = (JSON.parse(text) as Record<string, unknown>)[SAME_AS];
  return typeof pointer === 'string' ? pointer : null;
}

export const JOB_KINDS = {
  search: 'analytics-fragrances',
  significance: 'analytics-significance',
  attributes: 'analytics-top-attributes',
} as const;

type JobKind = (typeof JOB_KINDS)[keyof typeof JOB_KINDS];

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

/** The study filters of an analytics query, as the study search compiles them. */
type ParsedTendenciesRequest = z.output<typeof TendenciesRequest>;
type ParsedTopAttributesRequest = z.output<typeof TopAttributesRequest>;
type AttributesResult = NonNullable<TopAttributesStatus['result']>['json'];

function studyFiltersOf(query: ParsedAnalyticsQuery): ParsedStudySearchQuery {
  const { essentials, fragranceDetails, conceptDetails, methodology } = query;
  return { essentials, fragranceDetails, conceptDetails, methodology };
}

/** One number per product and metric (metric ids are smallints): cheaper map keys than texts. */
const sumsKey = (productId: number, metricId: number) => productId * 65536 + metricId;

/** Statistics per sumsKey: a map, or a view over the stored statistics kept per metric. */
type SumsTable = Pick<Map<number, Sums>, 'get'>;

function sumsOf(map: SumsTable, productId: number, metricId: number): Sums {
  return map.get(sumsKey(productId, metricId)) ?? EMPTY_SUMS;
}

/** A metric's statistics pooled over products (added into one total: tens of thousands of products). */
function poolSums(map: SumsTable, productIds: Iterable<number>, metricId: number): Sums {
  const total: Sums = { ...EMPTY_SUMS };
  for (const productId of productIds) addSumsInto(total, sumsOf(map, productId, metricId));
  return total;
}

export function createAnalyticsService(deps: {
  analytics: AnalyticsRepository;
  fields: FieldsRepository;
  jobs: JobQueue;
}) {
  const { analytics, fields, jobs } = deps;
  let catalogue: Promise<MetricRecord[]> | null = null;
  const metricCatalogue = () => {
    catalogue ??= analytics.metrics().catch((error: unknown) => {
      catalogue = null;
      throw error;
    });
    return catalogue;
  };
  /**
   * The data's fingerprint for every cache of the service: lookups made while a read is under way
   * share it (as lookups of one cache always did), so a search reads it once, not once per cache.
   */
  let fingerprintRead: Promise<string> | null = null;
  const fingerprint = () =>
    (fingerprintRead ??= analytics.fingerprint().finally(() => {
      fingerprintRead = null;
    }));
  const resultCache = createFingerprintCache<{ result: StoredResult; jobId: string; storedAt: number }>(
    RESULT_CACHE_ENTRIES,
  );
  const scopeOf = (user: AuthUser) => studyScope(user, s.client);
  /** What limits a user's studies, as a cache key part (staff all see the same). */
  const scopeKey = (user: AuthUser) => (isClientScopedRole(user.roleId) ? [...user.clients].sort() : null);

  /**
   * The products a selection holds, kept per selection while the data is unchanged: the list (with
   * its study filters, client scope and study details) is read once, not at every search.
   */
  const productCache = createFingerprintCache<ProductRecord[]>(PRODUCT_LISTS);
  function productsOf(
    user: AuthUser,
    filters: unknown,
    selection: Omit<ProductSelection, 'scope'>,
    fingerprintNow: string,
  ): Promise<ProductRecord[]> {
    const key = JSON.stringify({
      filters,
      scope: scopeKey(user),
      kind: selection.kind,
      rdfType: selection.rdfType,
      productIds: selection.productIds ?? null,
    });
    return productCache.get(key, fingerprintNow, () =>
      analytics.products({ ...selection, scope: scopeOf(user) }),
    );
  }

  /** Compiles the study filters after checking the caller may use them (as the study search does). */
  function compileFor(user: AuthUser, query: ParsedStudySearchQuery): CompiledFilters {
    const compiled = compileFilters(query);
    if (!user.permissions.isAdmin) {
      if (compiled.concept.length > 0) throw errors.forbidden(ANALYTICS_MESSAGES.conceptFiltersAdminOnly);
      if (!query.essentials.verified) throw errors.forbidden(ANALYTICS_MESSAGES.notVerifiedAdminOnly);
    }
    return compiled;
  }

  /** The catalogue metric of each entry, refusing unknown metrics and aggregations they do not offer. */
  async function resolveMetrics(
    entries: readonly { metric: string; aggregation: Aggregation }[],
    path: string,
  ): Promise<MetricRecord[]> {
    const known = await metricCatalogue();
    return entries.map((entry, index) => {
      const metric = known.find((candidate) => candidate.name === entry.metric);
      if (!metric) {
        const message = ANALYTICS_MESSAGES.unknownMetric(entry.metric);
        throw errors.badRequest(message, [{ path: `${path}.${index}.metric`, message }]);
      }
      if (!AGGREGATIONS_BY_METRIC_KIND[metric.kind].includes(entry.aggregation)) {
        const message = ANALYTICS_MESSAGES.aggregationNotOffered(entry.aggregation, entry.metric);
        throw errors.badRequest(message, [{ path: `${path}.${index}.aggregation`, message }]);
      }
      return metric;
    });
  }

  /**
   * Results of the latest jobs finished in this process, kept after they are written to their job
   * row: the first poll is answered at once (other processes wait for the row), and later polls
   * (e.g. a comparison waiting for its searches) need not read and parse a large result again.
   */
  const recentResults = new Map<string, StoredResult>();
  /** Requests waiting for their job in this process, woken as soon as its result is known. */
  const resultKnown = new Map<string, () => void>();
  const remember = (id: string, result: StoredResult) => {
    recentResults.set(id, result);
    if (recentResults.size > RECENT_RESULTS) recentResults.delete(recentResults.keys().next().value!);
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

  /** The work of a job: its result and, for a cache hit, the earlier job holding the same result. */
  async function perform(job: AnalyticsJob): Promise<{ result: StoredResult; sameAs?: string }> {
    // One read of the data's fingerprint serves every cache the job looks up.
    const now = await fingerprint();
    switch (job.kind) {
      case JOB_KINDS.attributes:
        return { result: storedResult(await computeTopAttributes(job.user, job.request, now)) };
      case JOB_KINDS.significance:
        return { result: storedResult(await computeSignificance(job.user, job.request, now)) };
      case JOB_KINDS.search: {
        if (job.noCache) return { result: await computeMetricSearch(job.user, job.request, now) };
        const key = JSON.stringify({
          clients: scopeKey(job.user),
          admin: job.user.permissions.isAdmin,
          request: job.request,
        });
        const cached = await resultCache.get(key, now, async () => ({
          result: await computeMetricSearch(job.user, job.request, now),
          jobId: job.jobId,
          storedAt: Date.now(),
        }));
        // A row may point only to a recent job: rows are removed a day after they were written.
        if (Date.now() - cached.storedAt > POINTER_MAX_AGE_MS) {
          cached.jobId = job.jobId;
          cached.storedAt = Date.now();
        }
        return { result: cached.result, sameAs: cached.jobId };
      }
    }
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
      done = await perform(job);
    } catch (error) {
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
    const earlier = recentResults.get(pointer)?.text ?? (await analytics.jobResultText(pointer));
    // The earlier job is still writing its row, or its row was removed (JOB_RESULT_TTL_MS).
    if (earlier === null) return { ...state, status: 'STARTED', progress: 50, result: null };
    if (earlier === undefined)
      return { ...state, status: 'FAILURE', result: null, error: ANALYTICS_MESSAGES.jobExpired };
    return { ...state, result: { text: earlier } };
  }

  /** The request recorded with a job of the caller: 404 when not theirs, null when none was kept. */
  async function jobRequestOf<T>(user: AuthUser, kind: JobKind, jobId: string): Promise<T | null> {
    const text = await analytics.jobRequest(jobId, user.id, kind);
    if (text === null) throw errors.notFound(ANALYTICS_MESSAGES.noSuchJob);
    return text === undefined ? null : (JSON.parse(text) as T);
  }

  /**
   * Answers outside their question's scale for the metrics, of the given products. The scan reads
   * every answer of a metric, so its outcome is kept per metric while the data is unchanged.
   */
  const anomalyCache = createFingerprintCache<OutOfScaleRow[]>(200);
  async function outOfScaleAnswers(
    productIds: number[],
    metricList: MetricRecord[],
    fingerprintNow: string,
  ): Promise<OutOfScaleRow[]> {
    const wanted = new Set(productIds);
    const perMetric = await Promise.all(
      metricList
        .filter((metric) => metric.kind !== 'eeg')
        .map((metric) =>
          anomalyCache.get(String(metric.id), fingerprintNow, () => analytics.outOfScale(metric.id)),
        ),
    );
    return perMetric.flat().filter((row) => wanted.has(row.productId));
  }

  /** Studies with a question mapped to each metric, kept while the data is unchanged. */
  const mappingCache = createFingerprintCache<number[]>(200);
  async function mappedPairs(
    metricList: MetricRecord[],
    fingerprintNow: string,
  ): Promise<{ studyId: number; metricId: number }[]> {
    const perMetric = await Promise.all(
      metricList.map(async (metric) =>
        (
          await mappingCache.get(String(metric.id), fingerprintNow, () =>
            analytics.studiesMappedTo(metric.id),
          )
        ).map((studyId) => ({
          studyId,
          metricId: metric.id,
        })),
      ),
    );
    return perMetric.flat();
  }

  /**
   * The stored statistics of every product of a metric, by product id, kept while the data is
   * unchanged: a search of every fragrance then reads no statistics row at all.
   */
  const storedSumsCache = createFingerprintCache<Map<number, MetricSums>>(STORED_SUMS_METRICS);
  const storedSumsOf = (metricId: number, fingerprintNow: string) =>
    storedSumsCache.get(String(metricId), fingerprintNow, async () => {
      const byProduct = new Map<number, MetricSums>();
      for (const row of await analytics.metricStoredSums(metricId)) byProduct.set(row.productId, row);
      return byProduct;
    });

  /**
   * The demographic statistics of a metric, kept while the answers are unchanged: a gender and age
   * filter over every product is then summed in memory. The answers and their statistics change only
   * with products (uploads, replacements, removals) and questions (mappings), so edits of study
   * details keep the tables.
   */
  const demographicTables = createFingerprintCache<DemographicTable>(DEMOGRAPHIC_TABLES);
  const demographicTableOf = (metricId: number, eeg: boolean, fingerprintNow: string) =>
    demographicTables.get(`${metricId}:${eeg}`, answersPart(fingerprintNow), async () => {
      const builder = demographicTableBuilder(metricId);
      await analytics.demographicRows(metricId, eeg, (chunk) => builder.add(chunk));
      return builder.finish();
    });

  /**
   * The demographic tables of the metrics when they are loaded, else null. Reading a table takes
   * seconds at library scale (a million rows a metric) and happens after each change of products or
   * questions: a search does not wait for it beyond DEMOGRAPHIC_LOAD_WAIT_MS but is answered from the
   * database meanwhile, as before the tables, while the load goes on for the searches after it.
   */
  async function loadedDemographicTables(
    metricIds: readonly number[],
    eegIds: readonly number[],
    fingerprintNow: string,
  ): Promise<DemographicTable[] | null> {
    const loading = Promise.all(
      metricIds.map((metricId) => demographicTableOf(metricId, eegIds.includes(metricId), fingerprintNow)),
    ).catch((error: unknown) => {
      console.error(`Demographic statistics could not be loaded: ${(error as Error).message}`);
      return null;
    });
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<null>((resolve) => {
      timer = setTimeout(resolve, DEMOGRAPHIC_LOAD_WAIT_MS, null);
    });
    try {
      return await Promise.race([loading, waited]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Sufficient statistics per product and metric: stored ones, or computed under respondent filters. */
  async function loadSums(
    productIds: number[],
    metricList: MetricRecord[],
    respondentFilter: ReturnType<typeof respondentConditions>,
    outOfScaleProducts: Set<number>,
    fingerprintNow: string,
  ): Promise<SumsTable> {
    const metricIds = [...new Set(metricList.map((metric) => metric.id))];
    const eegIds = metricList.filter((metric) => metric.kind === 'eeg').map((metric) => metric.id);
    const map = new Map<number, Sums>();
    const put = (rows: MetricSums[]) => {
      for (const row of rows) map.set(sumsKey(row.productId, row.metricId), row);
    };
    if (respondentFilter.length > 0) {
      // Gender and age alone are summed from the demographic tables once they are loaded.
      const { match } = respondentFilter;
      const tables = match ? await loadedDemographicTables(metricIds, eegIds, fingerprintNow) : null;
      if (!match || !tables) {
        put(await analytics.answerSums(productIds, metricIds, eegIds, respondentFilter));
        return map;
      }
      const wanted = new Set(productIds);
      for (const table of tables) put(sumDemographics(table, match, wanted));
      return map;
    }
    const stored = await Promise.all(metricIds.map((metricId) => storedSumsOf(metricId, fingerprintNow)));
    const byMetric = new Map(metricIds.map((metricId, index) => [metricId, stored[index]!]));
    // The stored statistics count every answer; products with out-of-scale answers are recomputed
    // without them, as METRICS.md drops such answers (the map then holds those products' numbers).
    const recompute = productIds.filter((id) => outOfScaleProducts.has(id));
    if (recompute.length > 0) {
      for (const id of recompute)
        for (const metricId of metricIds) map.set(sumsKey(id, metricId), EMPTY_SUMS);
      put(await analytics.answerSums(recompute, metricIds, eegIds, []));
    }
    // A view, not a copy: callers only ask for the products of the list.
    return {
      get(key) {
        const recomputed = map.get(key);
        if (recomputed) return recomputed;
        const metricId = key % 65536;
        return byMetric.get(metricId)?.get((key - metricId) / 65536);
      },
    };
  }

  /** Whether a metric is expected in a study of the given kind (EEG in EEG studies, implicit in IRT). */
  const expectedIn = (metric: MetricRecord, rdfType: ProductRecord['rdfType']) =>
    metric.kind === 'eeg' ? rdfType === 'eeg' : metric.kind === 'implicit' ? rdfType === 'irt' : true;

  async function computeMetricSearch(
    user: AuthUser,
    request: ParsedMetricSearchRequest,
    fingerprintNow: string,
  ): Promise<StoredResult> {
    const query = request.q;
    const compiled = compileFor(user, studyFiltersOf(query));
    const entries = query.metrics.metricsList;
    const entryMetrics = await resolveMetrics(entries, 'q.metrics.metricsList');
    const distinctMetrics = [...new Map(entryMetrics.map((metric) => [metric.id, metric])).values()];
    const kind = request.type === 'concepts' ? 'concept' : 'fragrance';
    const chosenIds = request.fragrances ? [...new Set(request.fragrances.map((entry) => entry.id))] : null;

    const productList = await productsOf(
      user,
      studyFiltersOf(query),
      { compiled, kind, rdfType: query.metrics.rdfType, productIds: chosenIds },
      fingerprintNow,
    );
    if (chosenIds) {
      const found = new Set(productList.map((product) => product.id));
      const missing = chosenIds.filter((id) => !found.has(id));
      if (missing.length > 0) throw errors.badRequest(ANALYTICS_MESSAGES.missingProducts(missing));
    }
    const productIds = productList.map((product) => product.id);
    const respondentFilter = respondentConditions(query.demographics, request.demographics_fragrances);

    const [outOfScale, mapped] = await Promise.all([
      outOfScaleAnswers(productIds, distinctMetrics, fingerprintNow),
      mappedPairs(distinctMetrics, fingerprintNow),
    ]);
    const sums = await loadSums(
      productIds,
      distinctMetrics,
      respondentFilter,
      new Set(outOfScale.map((row) => row.productId)),
      fingerprintNow,
    );

    const columns = entries.map((entry, index) => {
      const metric = entryMetrics[index]!;
      return {
        metric: metric.name,
        label: metric.label,
        metric_type: metric.metricType,
        aggregation: entry.aggregation,
        aggregation_label: AGGREGATION_LABELS[entry.aggregation],
        confidence: entry.confidence,
        key: `${metric.name}.${entry.aggregation}`,
      };
    });

    // Values and bases in columns (NaN: no value), rows as positions in the product list.
    const computed: ComputedRows = {
      products: productList,
      values: columns.map(() => new Float64Array(productList.length)),
      bases: columns.map(() => new Int32Array(productList.length)),
      order: productList.map((_, position) => position),
    };
    columns.forEach((column, index) => {
      const metric = entryMetrics[index]!;
      const values = computed.values[index]!;
      const bases = computed.bases[index]!;
      for (let position = 0; position < productList.length; position++) {
        const productSums = sumsOf(sums, productList[position]!.id, metric.id);
        values[position] = aggregate(productSums, column.aggregation, metric.kind) ?? Number.NaN;
        bases[position] = productSums.n;
      }
    });
    const valueAt = (index: number, position: number) => {
      const value = computed.values[index]![position]!;
      return Number.isNaN(value) ? null : value;
    };

    // Thresholds: an entry's own threshold keeps the products ranking within it (those with a value
    // for it); the entries under the global threshold are ranked jointly (document 3 section 4.2,
    // source All: liking and EEG hedonic together), and the global threshold keeps the first products
    // of that joint ranking, in its order. Without a global threshold the first own one orders them.
    const global = query.metrics.threshold?.applyThreshold ? query.metrics.threshold : null;
    const own = entries
      .map((entry, index) => ({
        index,
        threshold: entry.applyThreshold && entry.threshold ? entry.threshold : null,
      }))
      .filter((item): item is { index: number; threshold: Threshold } => item.threshold !== null);
    const joint = global
      ? entries.map((_, index) => index).filter((index) => !own.some((item) => item.index === index))
      : [];
    const valuesOf = (index: number) =>
      computed.order.map((position) => ({
        id: productList[position]!.id,
        value: valueAt(index, position),
      }));
    if (own.length > 0) {
      const kept = own.map((item) => ({
        index: item.index,
        ids: applyThreshold(valuesOf(item.index), item.threshold),
      }));
      computed.order = computed.order.filter((position) => {
        const relevant = kept.filter((item) => valueAt(item.index, position) !== null);
        return relevant.length > 0 && relevant.every((item) => item.ids.has(productList[position]!.id));
      });
    }
    if (global && joint.length > 0) {
      const positionOf = new Map(computed.order.map((position) => [productList[position]!.id, position]));
      computed.order = rankJointly(
        joint.map((index) => valuesOf(index)),
        global,
      ).map((id) => positionOf.get(id)!);
    } else if (own.length > 0) {
      const primary = own[0]!;
      computed.order.sort((left, right) => {
        const a = valueAt(primary.index, left);
        const b = valueAt(primary.index, right);
        if (a === null || b === null) return a === null ? (b === null ? 0 : 1) : -1;
        if (a === b) return productList[left]!.id - productList[right]!.id;
        return primary.threshold.desc ? b - a : a - b;
      });
    }
    const keptIds = computed.order.map((position) => productList[position]!.id);

    const summary: MetricSearchResult['summary'] = {};
    for (const metric of distinctMetrics) {
      const pooled = poolSums(sums, keptIds, metric.id);
      summary[metric.name] = summarise(pooled, metric.kind);
    }

    const performance = request.data
      ? await breakdown(
          {
            compiled,
            scope: scopeOf(user),
            kind,
            rdfType: query.metrics.rdfType,
            productIds: keptIds,
          },
          request.data,
          columns,
          entryMetrics,
          sums,
        )
      : undefined;

    const text = metricSearchJson(
      {
        type: request.type,
        columns,
        summary,
        ...(performance ? { performance } : {}),
        diagnostics: diagnose(productList, new Set(keptIds), distinctMetrics, sums, mapped, outOfScale),
        filtered: respondentFilter.length > 0,
      },
      computed,
    );
    return { text };
  }

  /**
   * Performance rows: the result rows pooled per value of the breakdown field (a product with several
   * values counts in each; products without a value under 'No tag'), largest groups first.
   */
  async function breakdown(
    selection: Parameters<AnalyticsRepository['breakdownValues']>[0],
    by: PerformanceBreakdown,
    columns: { key: string; aggregation: Aggregation }[],
    entryMetrics: MetricRecord[],
    sums: SumsTable,
  ): Promise<NonNullable<MetricSearchResult['performance']>> {
    const values = await analytics.breakdownValues(selection, by.category, by.field);
    const groups = new Map<string, Set<number>>();
    const grouped = new Set<number>();
    for (const row of values) {
      if (!groups.has(row.value)) groups.set(row.value, new Set());
      groups.get(row.value)!.add(row.productId);
      grouped.add(row.productId);
    }
    const ungrouped = (selection.productIds ?? []).filter((id) => !grouped.has(id));
    if (ungrouped.length > 0) groups.set(NO_TAG, new Set(ungrouped));
    return [...groups.entries()]
      .map(([value, ids]) => {
        const n: Record<string, number> = {};
        const metrics = columns.map((column, index) => {
          const metric = entryMetrics[index]!;
          const pooled = poolSums(sums, ids, metric.id);
          n[column.key] = pooled.n;
          return { name: column.key, value: aggregate(pooled, column.aggregation, metric.kind) };
        });
        // The fragrances the values are pooled over: those with answers to a shown metric, not every
        // fragrance of the group.
        const metricIds = [...new Set(entryMetrics.map((metric) => metric.id))];
        let fragrances = 0;
        for (const id of ids)
          if (metricIds.some((metricId) => sumsOf(sums, id, metricId).n > 0)) fragrances++;
        return { category: { name: by.field, value }, metrics, fragrances, n };
      })
      .sort(
        (left, right) =>
          right.fragrances - left.fragrances || left.category.value.localeCompare(right.category.value),
      );
  }

  /**
   * Per study of the result: errors (answers outside the question's scale, left out of every number),
   * warnings (a chosen metric the study should have but no question is mapped to) and infos (low
   * bases, below 30 answers).
   */
  function diagnose(
    productList: ProductRecord[],
    keptIds: Set<number>,
    metricList: MetricRecord[],
    sums: SumsTable,
    mapped: { studyId: number; metricId: number }[],
    outOfScale: OutOfScaleRow[],
  ): Diagnostics {
    const kept = productList.filter((product) => keptIds.has(product.id));
    const studiesFound = new Map<number, { cMiNumber: string; rdfType: ProductRecord['rdfType'] }>();
    for (const product of kept)
      studiesFound.set(product.studyId, { cMiNumber: product.cMiNumber, rdfType: product.rdfType });
    // Pairs of study and metric as numbers (sumsKey), cheaper than text keys over every product.
    const mappedSet = new Set(mapped.map((row) => sumsKey(row.studyId, row.metricId)));
    const details = new Map<number, Diagnostics['studies'][number]['details']>();
    const note = (studyId: number, entry: Diagnostics['studies'][number]['details'][number]) => {
      if (!details.has(studyId)) details.set(studyId, []);
      details.get(studyId)!.push(entry);
    };
    const byQuestion = new Map<string, { studyId: number; qid: string; filename: string; count: number }>();
    for (const row of outOfScale) {
      if (!keptIds.has(row.productId)) continue;
      const key = `${row.studyId}|${row.filename}|${row.qid}`;
      const entry = byQuestion.get(key) ?? {
        studyId: row.studyId,
        qid: row.qid,
        filename: row.filename,
        count: 0,
      };
      entry.count += row.count;
      byQuestion.set(key, entry);
    }
    for (const entry of byQuestion.values())
      note(entry.studyId, {
        level: 'error',
        message: ANALYTICS_MESSAGES.outOfScale(entry.count, entry.qid),
        file: entry.filename,
      });
    for (const [studyId, study] of studiesFound) {
      for (const metric of metricList) {
        if (expectedIn(metric, study.rdfType) && !mappedSet.has(sumsKey(studyId, metric.id)))
          note(studyId, {
            level: 'warning',
            message: ANALYTICS_MESSAGES.missingMapping(metric.name),
            file: null,
          });
      }
    }
    const lowBases = new Map<number, { studyId: number; metric: string; bases: number[] }>();
    for (const product of kept) {
      for (const metric of metricList) {
        const n = sumsOf(sums, product.id, metric.id).n;
        if (n === 0 || n >= LOW_BASE) continue;
        const key = sumsKey(product.studyId, metric.id);
        const entry = lowBases.get(key) ?? { studyId: product.studyId, metric: metric.name, bases: [] };
        entry.bases.push(n);
        lowBases.set(key, entry);
      }
    }
    for (const entry of lowBases.values())
      note(entry.studyId, {
        level: 'info',
        message: ANALYTICS_MESSAGES.lowBase(
          entry.metric,
          entry.bases.length,
          Math.min(...entry.bases),
          Math.max(...entry.bases),
        ),
        file: null,
      });
    const studies = [...details.entries()]
      .map(([studyId, entries]) => ({
        study_id: studyId,
        c_mi_number: studiesFound.get(studyId)!.cMiNumber,
        errors: entries.filter((entry) => entry.level === 'error').length,
        warnings: entries.filter((entry) => entry.level === 'warning').length,
        infos: entries.filter((entry) => entry.level === 'info').length,
        details: entries,
      }))
      .sort((left, right) => left.c_mi_number.localeCompare(right.c_mi_number));
    return {
      studies_found: studiesFound.size,
      studies_with_anomalies: studies.filter((study) => study.errors + study.warnings > 0).length,
      studies,
    };
  }

  async function computeSignificance(
    user: AuthUser,
    request: ParsedSignificanceRequest,
    fingerprintNow: string,
  ): Promise<NonNullable<SignificanceStatus['result']>> {
    const chosen = request.metrics.filter((entry) => entry.confidence);
    const metricList = await resolveMetrics(
      chosen.map((entry) => ({ metric: entry.field, aggregation: entry.aggregation })),
      'metrics',
    );
    const productIds = [...new Set(request.data.map((row) => row.id))];
    const visible = await analytics.productsById(productIds, scopeOf(user));
    const missing = productIds.filter((id) => !visible.has(id));
    if (missing.length > 0) throw errors.badRequest(ANALYTICS_MESSAGES.missingProducts(missing));
    const distinct = [...new Map(metricList.map((metric) => [metric.id, metric])).values()];
    const outOfScale = await outOfScaleAnswers(productIds, distinct, fingerprintNow);
    const sums = await loadSums(
      productIds,
      distinct,
      respondentConditions(request.demographics, request.demographics_fragrances),
      new Set(outOfScale.map((row) => row.productId)),
      fingerprintNow,
    );

    const rows: Record<string, unknown>[] = productIds.map((id) => ({ id }));
    chosen.forEach((entry, index) => {
      const metric = metricList[index]!;
      const key = `${metric.name}.${entry.aggregation}.confidence`;
      const perProduct = productIds.map((id) => sumsOf(sums, id, metric.id));
      const withAnswers = perProduct.filter((productSums) => productSums.n > 0);
      const total = perProduct.reduce(addSums, EMPTY_SUMS as Sums);
      const share = isShare(entry.aggregation);
      const average =
        withAnswers.length === 0
          ? Number.NaN
          : withAnswers.reduce(
              (sum, productSums) =>
                sum + aggregate(productSums, share ? entry.aggregation : 'mean', metric.kind)!,
              0,
            ) / withAnswers.length;
      perProduct.forEach((productSums, at) => {
        let comparison: SelectionComparison;
        if (share) {
          const selection = { count: boxCount(productSums, entry.aggregation)!, n: productSums.n };
          comparison =
            request.calculation === 'rest'
              ? compareSelectionVsRest({
                  kind: 'box',
                  selection,
                  rest: {
                    count: boxCount(total, entry.aggregation)! - selection.count,
                    n: total.n - productSums.n,
                  },
                  levels: ANALYTICS_LEVELS,
                })
              : compareSelectionVsAverage({ kind: 'box', selection, average, levels: ANALYTICS_LEVELS });
        } else {
          const selection = summaryFromSums(productSums.n, productSums.sum, productSums.sumSq);
          comparison =
            request.calculation === 'rest'
              ? compareMeanVsRestFromSummaries(
                  selection,
                  subtractSums(
                    { n: total.n, sum: total.sum, sumOfSquares: total.sumSq },
                    { n: productSums.n, sum: productSums.sum, sumOfSquares: productSums.sumSq },
                  ),
                  ANALYTICS_LEVELS,
                )
              : compareMeanVsAverageFromSummary(selection, average, ANALYTICS_LEVELS);
        }
        rows[at]![key] = {
          level: comparison.level,
          table: comparison.direction,
          test: comparison.test,
          p_value: comparison.pValue,
          n: productSums.n,
        };
      });
    });
    return {
      calculation: request.calculation,
      results: rows as unknown as NonNullable<SignificanceStatus['result']>['results'],
    };
  }

  /** Demographic options with respondent counts, metrics with their aggregations, age and year ranges. */
  async function computeOptions(user: AuthUser): Promise<AnalyticsOptionsResponse> {
    const scope = scopeOf(user);
    const [definitions, counts, ranges, metricList, metricCounts] = await Promise.all([
      fields.definitions(),
      analytics.demographicCounts(scope),
      analytics.ageAndYearRange(scope),
      metricCatalogue(),
      analytics.metricStudyCounts(compileFilters(StudySearchQuery.parse({})), scope, 'all'),
    ]);
    const demographics = definitions
      .filter((def) => def.fieldGroup === 'demographics')
      .map((def) => ({
        field: def.field,
        label: def.label,
        type: def.type,
        multivalue: def.multivalue,
        editable: def.editable,
        tag_group: def.tagGroup,
        options: mergeOptions(def, counts.get(def.field)),
      }));
    return {
      data: {
        fields: {
          demographics,
          metrics: metricOptions(metricList, metricCounts),
          aggregation_metadata: aggregationGroups(),
          metrics_range: {
            age: {
              min: Math.max(ANALYTICS_AGE_RANGE.min, ranges.minAge ?? ANALYTICS_AGE_RANGE.min),
              max: Math.min(ANALYTICS_AGE_RANGE.max, ranges.maxAge ?? ANALYTICS_AGE_RANGE.max),
            },
          },
          metadata: {
            year: {
              min: ranges.minYear ?? new Date().getFullYear(),
              max: ranges.maxYear ?? new Date().getFullYear(),
            },
          },
        },
      },
    };
  }
  const optionsCache = createAnswerCache<AnalyticsOptionsResponse>({
    maxEntries: 50,
    fingerprint,
  });

  /**
   * The attributes of the fragrances the filters select (or the chosen ones): each attribute's answers
   * pooled over the fragrances and respondents kept, ranked by the aggregation, best or worst first.
   */
  async function computeTopAttributes(
    user: AuthUser,
    request: ParsedTopAttributesRequest,
    fingerprintNow: string,
  ): Promise<AttributesResult> {
    const compiled = compileFor(user, request.q as ParsedStudySearchQuery);
    const chosenIds = request.frags ? [...new Set(request.frags.map((entry) => entry.id))] : null;
    const productList = await analytics.products({
      compiled,
      scope: scopeOf(user),
      kind: 'fragrance',
      rdfType: request.q.metrics?.rdfType ?? 'all',
      productIds: chosenIds,
    });
    if (chosenIds) {
      const found = new Set(productList.map((product) => product.id));
      const missing = chosenIds.filter((id) => !found.has(id));
      if (missing.length > 0) throw errors.badRequest(ANALYTICS_MESSAGES.missingProducts(missing));
    }
    const { attribute_type: type, aggregation, order, count } = request.data;
    const attributes = (await metricCatalogue()).filter(
      (metric) => metric.metricType === 'Attribute' && (type === 'all' || metric.kind === type),
    );
    const productIds = productList.map((product) => product.id);
    const outOfScale = await outOfScaleAnswers(productIds, attributes, fingerprintNow);
    const respondentFilter = respondentConditions(request.q.demographics ?? {}, request.demographics);
    // Pooled in the database; per product (dropping out-of-scale answers) only where there are some.
    let pooledOf: (metric: MetricRecord) => Sums;
    if (outOfScale.length === 0) {
      const pooled = await analytics.pooledSums(
        {
          compiled,
          scope: scopeOf(user),
          kind: 'fragrance',
          rdfType: request.q.metrics?.rdfType ?? 'all',
          productIds: chosenIds,
        },
        attributes.map((metric) => metric.id),
        [],
        respondentFilter,
      );
      pooledOf = (metric) => pooled.get(metric.id) ?? EMPTY_SUMS;
    } else {
      const sums = await loadSums(
        productIds,
        attributes,
        respondentFilter,
        new Set(outOfScale.map((row) => row.productId)),
        fingerprintNow,
      );
      pooledOf = (metric) => poolSums(sums, productIds, metric.id);
    }
    const rows = attributes
      .map((metric) => {
        const pooled = pooledOf(metric);
        return {
          attribute: metric.label,
          field: metric.name,
          top_2_box: aggregate(pooled, 'top_2_box', metric.kind),
          bottom_2_box: aggregate(pooled, 'bottom_2_box', metric.kind),
          mean: aggregate(pooled, 'mean', metric.kind),
          top_box: aggregate(pooled, 'top_box', metric.kind),
          bottom_box: aggregate(pooled, 'bottom_box', metric.kind),
          is_binary_scale: metric.kind === 'binary',
          n: pooled.n,
        };
      })
      .filter((row) => row.n > 0)
      .sort((left, right) => {
        const a = left[aggregation]!;
        const b = right[aggregation]!;
        if (a === b) return left.field.localeCompare(right.field);
        return order === 'best' ? b - a : a - b;
      })
      .slice(0, count);
    // "Pooled over N fragrances": the fragrances with answers to a listed attribute under the
    // respondent filters, not every fragrance selected.
    const listed = new Set(rows.map((row) => row.field));
    const fragrances = await analytics.productsWithAnswers(
      productIds,
      attributes.filter((metric) => listed.has(metric.name)).map((metric) => metric.id),
      respondentFilter,
    );
    return { attributes: rows, fragrances };
  }

  /**
   * Fills the caches a first search would otherwise fill in the background at start (runtime
   * warm-up): the stored statistics of every metric, then, for the metrics measured on the most
   * products (as many as the demographic tables kept), their demographic table, out-of-scale answers
   * and mappings, and one search of every fragrance of each (which also reads the product list).
   * A search made meanwhile shares the loads under way. Progress lines go to `log`.
   */
  async function warmUp(log: (line: string) => void): Promise<void> {
    const started = performance.now();
    const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
    const now = await fingerprint();
    const metricList = await metricCatalogue();
    const products = new Map<number, number>();
    for (const metric of metricList) products.set(metric.id, (await storedSumsOf(metric.id, now)).size);
    log(`Warm-up: statistics of ${metricList.length} metrics read (${seconds(started)})`);
    const top = metricList
      .filter((metric) => (products.get(metric.id) ?? 0) > 0)
      .sort((a, b) => products.get(b.id)! - products.get(a.id)! || a.id - b.id)
      .slice(0, DEMOGRAPHIC_TABLES);
    // A staff caller: the product list of every fragrance it reads is the one staff searches use.
    const staff: AuthUser = {
      id: 0,
      email: 'warm-up',
      roleId: 1,
      clients: [],
      sessionId: 'warm-up',
      permissions: permissionsForRole(1),
    };
    for (const metric of top) {
      const since = performance.now();
      const table = await demographicTableOf(metric.id, metric.kind === 'eeg', now);
      const aggregation = AGGREGATIONS_BY_METRIC_KIND[metric.kind][0]!;
      await computeMetricSearch(
        staff,
        MetricSearchRequest.parse({
          q: { metrics: { rdfType: 'all', metricsList: [{ metric: metric.name, aggregation }] } },
        }),
        now,
      );
      log(
        `Warm-up: ${metric.label}: demographic table of ${table.rows.toLocaleString('en-GB')} rows and a search of every fragrance (${seconds(since)})`,
      );
    }
    log(`Warm-up done in ${seconds(started)}`);
  }

  return {
    processJob,
    warmUp,

    /** The metric catalogue (names, labels, kinds), read once per process. */
    metricCatalogue,

    /**
     * One metric's aggregation for each of the products (no respondent filter), computed exactly as
     * the metric search computes its cells: the stored statistics, recomputed without out-of-scale
     * answers where a product has some. NaN where a product has no value. Norms read their product
     * scores here so that a norm and the metric search never disagree on a product's number.
     */
    async productScores(
      productIds: readonly number[],
      metricName: string,
      aggregation: Aggregation,
    ): Promise<{ values: Float64Array; bases: Int32Array }> {
      const now = await fingerprint();
      const [metric] = await resolveMetrics([{ metric: metricName, aggregation }], 'metric');
      const ids = [...productIds];
      const outOfScale = await outOfScaleAnswers(ids, [metric!], now);
      const sums = await loadSums(
        ids,
        [metric!],
        respondentConditions({}, []),
        new Set(outOfScale.map((row) => row.productId)),
        now,
      );
      const values = new Float64Array(ids.length);
      const bases = new Int32Array(ids.length);
      ids.forEach((id, position) => {
        const productSums = sumsOf(sums, id, metric!.id);
        values[position] = aggregate(productSums, aggregation, metric!.kind) ?? Number.NaN;
        bases[position] = productSums.n;
      });
      return { values, bases };
    },

    /** Queues a top attributes search; the answer carries its job id. */
    async queueTopAttributes(
      user: AuthUser,
      request: ParsedTopAttributesRequest,
    ): Promise<{ jobid: string }> {
      compileFor(user, request.q as ParsedStudySearchQuery);
      const jobid = await runJob(user, { kind: JOB_KINDS.attributes, request });
      return { jobid };
    },

    async topAttributesStatus(user: AuthUser, jobId: string): Promise<TopAttributesStatus> {
      const job = await jobStatus(user, JOB_KINDS.attributes, jobId);
      return {
        status: job.status as TopAttributesStatus['status'],
        progress: job.progress,
        result: job.result ? { json: contentOf<AttributesResult>(job.result) } : null,
        error: job.error,
      };
    },

    /** Queues a metric search; the answer carries its job id. */
    async queueMetricSearch(
      user: AuthUser,
      request: ParsedMetricSearchRequest,
      noCache: boolean,
    ): Promise<{ jobid: string }> {
      // Refusals that need no data are answered at once: 403 for admin-only filters, 400 for metrics.
      compileFor(user, studyFiltersOf(request.q));
      await resolveMetrics(request.q.metrics.metricsList, 'q.metrics.metricsList');
      const jobid = await runJob(user, { kind: JOB_KINDS.search, request, noCache });
      return { jobid };
    },

    /**
     * Respondents behind products of a finished search (ids from the caller's own search, so already
     * within their scope) who meet the demographic filters, per metric name and for any of the
     * metrics (key null): the respondent base a group comparison shows beside its product base.
     */
    async respondentBases(
      productIds: readonly number[],
      metricNames: readonly string[],
      demographics: Parameters<typeof respondentConditions>[0],
    ): Promise<Map<string | null, number>> {
      const catalogue = await metricCatalogue();
      const chosen = catalogue.filter((metric) => metricNames.includes(metric.name));
      const counts = await analytics.respondentCounts(
        productIds,
        chosen.map((metric) => metric.id),
        chosen.filter((metric) => metric.kind === 'eeg').map((metric) => metric.id),
        respondentConditions(demographics, []),
      );
      const byName = new Map<string | null, number>([[null, counts.get(null) ?? 0]]);
      for (const metric of chosen) byName.set(metric.name, counts.get(metric.id) ?? 0);
      return byName;
    },

    async metricSearchStatus(user: AuthUser, jobId: string): Promise<MetricSearchStatus> {
      const job = await jobStatus(user, JOB_KINDS.search, jobId);
      return {
        status: job.status as MetricSearchStatus['status'],
        progress: job.progress,
        result: job.result ? { json: contentOf<MetricSearchResult>(job.result) } : null,
        error: job.error,
      };
    },

    /**
     * The same as metricSearchStatus, as its JSON text: the stored text of the result is sent as it
     * is, not parsed and written again (megabytes for a search of every fragrance).
     */
    async metricSearchStatusText(user: AuthUser, jobId: string): Promise<string> {
      const { result, ...state } = await jobStatus(user, JOB_KINDS.search, jobId);
      if (!result) return JSON.stringify({ ...state, result: null });
      const head = JSON.stringify({ status: state.status, progress: state.progress, error: state.error });
      return `${head.slice(0, -1)},"result":{"json":${result.text}}}`;
    },

    /**
     * The request a job of the caller answers (404 when it is not the caller's), as it was queued
     * (parsed, defaults filled); null for a row of an older version, which kept no request.
     */
    async metricSearchRequest(user: AuthUser, jobId: string): Promise<ParsedMetricSearchRequest | null> {
      return jobRequestOf<ParsedMetricSearchRequest>(user, JOB_KINDS.search, jobId);
    },

    /** The request of a top attributes job of the caller (as metricSearchRequest). */
    async topAttributesRequest(user: AuthUser, jobId: string): Promise<ParsedTopAttributesRequest | null> {
      return jobRequestOf<ParsedTopAttributesRequest>(user, JOB_KINDS.attributes, jobId);
    },

    /** The request of a significance job of the caller (as metricSearchRequest). */
    async significanceRequest(user: AuthUser, jobId: string): Promise<ParsedSignificanceRequest | null> {
      return jobRequestOf<ParsedSignificanceRequest>(user, JOB_KINDS.significance, jobId);
    },

    async queueSignificance(user: AuthUser, request: ParsedSignificanceRequest): Promise<{ job_id: string }> {
      const chosen = request.metrics.filter((entry) => entry.confidence);
      await resolveMetrics(
        chosen.map((entry) => ({ metric: entry.field, aggregation: entry.aggregation })),
        'metrics',
      );
      const variance = chosen.findIndex((entry) => entry.aggregation === 'variance');
      if (variance >= 0) {
        const message = ANALYTICS_MESSAGES.aggregationNotOffered('variance', chosen[variance]!.field);
        throw errors.badRequest(message, [{ path: 'metrics', message }]);
      }
      const job_id = await runJob(user, { kind: JOB_KINDS.significance, request });
      return { job_id };
    },

    async significanceStatus(user: AuthUser, jobId: string): Promise<SignificanceStatus> {
      const job = await jobStatus(user, JOB_KINDS.significance, jobId);
      return {
        status: job.status as SignificanceStatus['status'],
        progress: job.progress,
        result: job.result ? contentOf<SignificanceStatus['result']>(job.result) : null,
        error: job.error,
      };
    },

    /** Demographic options with respondent counts, metrics with their aggregations, age and year ranges. */
    async options(user: AuthUser): Promise<AnalyticsOptionsResponse> {
      const key = isClientScopedRole(user.roleId) ? [...user.clients].sort().join('\u0000') : '*';
      return optionsCache.get(key, () => computeOptions(user));
    },

    /**
     * How many fragrances carry each value of a fragrance field, among the fragrances the filters
     * select (or the chosen ones), most frequent first; fragrances without a value count as 'No tag'.
     */
    async tendencies(user: AuthUser, request: ParsedTendenciesRequest): Promise<TendenciesResponse> {
      const compiled = compileFor(user, request.q as ParsedStudySearchQuery);
      const field = request.data.groupby.slice('perfume_characteristics.'.length);
      const chosenIds = request.frags ? [...new Set(request.frags.map((entry) => entry.id))] : null;
      const perFragrance = await analytics.fragranceValues(
        {
          compiled,
          scope: scopeOf(user),
          kind: 'fragrance',
          rdfType: request.q.metrics?.rdfType ?? 'all',
          productIds: chosenIds,
        },
        field,
      );
      const counts = new Map<string, number>();
      for (const values of perFragrance)
        for (const value of values.length === 0 ? [NO_TAG] : values)
          counts.set(value, (counts.get(value) ?? 0) + 1);
      const total = perFragrance.length;
      let table = [...counts.entries()]
        .map(([name, count]) => ({ name, count, percentage: total === 0 ? 0 : (100 * count) / total }))
        .sort((left, right) => right.count - left.count || left.name.localeCompare(right.name));
      if (request.data.count) table = table.slice(0, request.data.count);
      return {
        table_data: table,
        chart_data: {
          labels: table.map((row) => row.name),
          data: table.map((row) => (request.data.return === 'percentage' ? row.percentage : row.count)),
        },
        total,
      };
    },

    /** Metric options with the studies counted under the filters and study kind. */
    async metricOptionsFor(
      user: AuthUser,
      query: ParsedStudySearchQuery,
      rdfType: 'all' | 'rdf' | 'eeg' | 'irt',
      implicitOnly: boolean,
    ) {
      const compiled = compileFor(user, query);
      const [metricList, counts] = await Promise.all([
        metricCatalogue(),
        analytics.metricStudyCounts(compiled, scopeOf(user), rdfType),
      ]);
      return metricOptions(
        metricList.filter((metric) => !implicitOnly || metric.kind === 'implicit'),
        counts,
      ).filter((option) => option.count > 0);
    },
  };
}

function metricOptions(metricList: MetricRecord[], counts: Map<number, number>) {
  return metricList.map((metric) => ({
    type: metric.metricType,
    name: metric.label,
    field: metric.name,
    kind: metric.kind,
    aggregations: [...AGGREGATIONS_BY_METRIC_KIND[metric.kind]],
    count: counts.get(metric.id) ?? 0,
  }));
}

/** The aggregations offered per metric type, labelled as the metrics table heads them. */
function aggregationGroups(): AnalyticsOptionsResponse['data']['fields']['aggregation_metadata'] {
  const groups: { category: string; label: string; kind: keyof typeof AGGREGATIONS_BY_METRIC_KIND }[] = [
    { category: 'Performance', label: 'Performance', kind: 'hedonic' },
    { category: 'Attribute', label: 'Attributes', kind: 'hedonic' },
    { category: 'EEG', label: 'EEG (Genisys)', kind: 'eeg' },
    { category: 'Implicit', label: 'Implicit (IRT)', kind: 'implicit' },
  ];
  return groups.map((group) => ({
    category: group.category,
    label: group.label,
    options: AGGREGATIONS.filter((aggregation) =>
      AGGREGATIONS_BY_METRIC_KIND[group.kind].includes(aggregation),
    ).map((aggregation) => ({ field: aggregation, label: AGGREGATION_LABELS[aggregation] })),
  }));
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;

/** Runs the analytics worker of this process on the queue. */
export async function registerAnalyticsJobs(jobs: JobQueue, service: AnalyticsService): Promise<void> {
  await jobs.register<AnalyticsJobData>(ANALYTICS_QUEUE, (job) => service.processJob(job), {
    concurrency: 3,
    pollingIntervalSeconds: 2,
    retryLimit: 1,
    expireInSeconds: 15 * 60,
  });
}
