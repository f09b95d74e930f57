/**
 * Advanced analytics, as the routes and the other modules call it: the metric search, significance,
 * top attributes (each run as a job, analytics-job-runner.ts), tendencies and the options. Each job
 * lives in a file of its own (metric-search.ts, significance.ts, top-attributes.ts, tendencies.ts,
 * analytics-options.ts) over the pieces they share (analytics-context.ts); this file wires them
 * together. A metric search's answer lives in the result store (result-store.ts) as columns; its
 * job row keeps the request and the fingerprint. A search summed in memory is answered within its
 * POST (its first poll is SUCCESS), one that asks the database for its respondents runs as a job
 * (progress, cancel). The request is checked (400, 403) before anything is computed or queued; a
 * queued job runs with the caller's rights as they were at the POST.
 */
import { randomUUID } from 'node:crypto';
import {
  AGGREGATIONS_BY_METRIC_KIND,
  ANALYTICS_AGE_RANGE,
  GROUP_COMPARISON_METRICS,
  ANALYTICS_MESSAGES,
  MetricSearchRequest,
  isClientScopedRole,
  permissionsForRole,
  type Aggregation,
  type AnalyticsOptionsResponse,
  type MetricSearchResult,
  type MetricSearchStatus,
  type ParsedMetricSearchRequest,
  type ParsedSignificanceRequest,
  type ParsedStudySearchQuery,
  type SignificanceStatus,
  type TendenciesResponse,
  type TopAttributesStatus,
} from '@accord/contracts';
import { inBackground, requestsQuietFor } from '../../db/background-queries.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { AppError, errors } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import type { FieldsRepository } from '../fields/fields.repository.ts';
import { createAnswerCache } from '../search/answer-cache.ts';
import { aggregate } from './analytics-metrics.ts';
import {
  DEMOGRAPHIC_TABLES,
  RESPONDENT_INDEXES,
  createAnalyticsContext,
  studyFiltersOf,
  sumsOf,
} from './analytics-context.ts';
import {
  ANALYTICS_QUEUE,
  JOB_KINDS,
  contentOf,
  type JobKind,
  createJobRunner,
  storedResult,
  JobCancelledError,
  type AnalyticsJob,
  type AnalyticsJobData,
  type JobStep,
  type StoredResult,
} from './analytics-job-runner.ts';
import {
  createResultStore,
  resultBytesOf,
  searchFingerprint,
  SUCCESS_HEAD,
  type StoredSearch,
} from './result-store.ts';
import { computeOptions, metricOptionsFor } from './analytics-options.ts';
import type { MetricRecord } from './analytics-types.ts';
import { respondentConditions, type AnalyticsRepository } from './analytics.repository.ts';
import { createMetricPages } from './metric-pages.ts';
import { computeMetricSearch } from './metric-search.ts';
import { createSignificanceAnswers } from './significance-answers.ts';
import { tendencies, type ParsedTendenciesRequest } from './tendencies.ts';
import {
  attributesInMemory,
  computeTopAttributes,
  type AttributesResult,
  type ParsedTopAttributesRequest,
} from './top-attributes.ts';

// The job protocol's names, where the app and the tests have always imported them from.
export {
  ANALYTICS_QUEUE,
  JOB_KINDS,
  type AnalyticsJob,
  type AnalyticsJobData,
} from './analytics-job-runner.ts';

/**
 * Bytes of search columns kept in memory: a search of every fragrance at 3,000 studies (21,000
 * products, five metrics) holds about 1 MB, so dozens of recent searches stay.
 */
export const RESULT_STORE_BYTES = 64 * 1024 * 1024;
/** Requests of recent search jobs kept in memory (a row's request never changes). */
const JOB_REQUESTS = 500;
/**
 * Full answers kept parsed (for the callers that read a whole result: comparisons, decks,
 * downloads): a search of every fragrance is 5-7 MB of JSON, tens of megabytes as objects.
 */
const PARSED_RESULTS = 2;
/** Key of a search job row's result: the fingerprint of its request (the answer is in the store). */
const SEARCH_FINGERPRINT = 'search_fingerprint';
/** How long the requests leave the database quiet before the warm-up reads another demographic table. */
const WARM_UP_QUIET_MS = 1000;
/** The longest the start waits for the warm-up's search job. */
const WARM_UP_JOB_MS = 10_000;

export function createAnalyticsService(deps: {
  analytics: AnalyticsRepository;
  fields: FieldsRepository;
  jobs: JobQueue;
}) {
  const { analytics, jobs } = deps;
  const context = createAnalyticsContext(deps);
  const { compileFor, resolveMetrics, metricCatalogue, fingerprint, scopeKey } = context;
  const store = createResultStore({ maxBytes: RESULT_STORE_BYTES });
  const significance = createSignificanceAnswers({ context, analytics });
  /**
   * The fingerprints of parsed search requests, by the rights they were read with: a search's POST
   * asks for its key twice and each poll of its job once more, with the same parsed request (held by
   * the job's row cache), which is never changed once parsed; hashing it once is enough.
   */
  const searchKeys = new WeakMap<ParsedMetricSearchRequest, Map<string, string>>();
  /** The fingerprint of a search as the caller's rights read it. */
  const searchKey = (user: AuthUser, request: ParsedMetricSearchRequest) => {
    const clients = JSON.stringify(scopeKey(user));
    const admin = user.permissions.isAdmin;
    const rights = `${admin ? 'admin' : 'user'}:${clients}`;
    let keys = searchKeys.get(request);
    if (!keys) searchKeys.set(request, (keys = new Map()));
    let key = keys.get(rights);
    if (key === undefined) {
      key = searchFingerprint({ clients, admin }, request);
      keys.set(rights, key);
    }
    return key;
  };
  /** What a search job's row keeps as its result. */
  const fingerprintText = (key: string) => JSON.stringify({ [SEARCH_FINGERPRINT]: key });
  /** The search's columns under the data's version `now`: held here, else computed (and kept). */
  const columnsOf = (
    user: AuthUser,
    request: ParsedMetricSearchRequest,
    now: string,
    options: { fresh?: boolean; step?: JobStep } = {},
  ) =>
    store.get(
      searchKey(user, request),
      now,
      () => computeMetricSearch(context, user, request, now, options.step),
      options.fresh,
    );

  /** The work of a job: its result and, for a cache hit, the earlier job holding the same result. */
  async function perform(
    job: AnalyticsJob,
    step: JobStep,
  ): Promise<{ result: StoredResult; sameAs?: string }> {
    // One read of the data's fingerprint serves every cache the job looks up.
    const now = await fingerprint();
    switch (job.kind) {
      case JOB_KINDS.attributes:
        return { result: storedResult(await computeTopAttributes(context, job.user, job.request, now)) };
      case JOB_KINDS.significance: {
        const done = await significance.answer(job.user, job.request, now, job.jobId, {
          fresh: job.noCache,
        });
        return { result: done.result, sameAs: done.jobId };
      }
      case JOB_KINDS.search: {
        const compute = (fresh: boolean) => columnsOf(job.user, job.request, now, { fresh, step });
        try {
          await compute(job.noCache);
        } catch (error) {
          // The same search of another job, cancelled while this one waited for it: run it again,
          // unless this job was cancelled too (its own step says so).
          if (!(error instanceof JobCancelledError) || error.jobId === job.jobId) throw error;
          await step(0);
          await compute(false);
        }
        return { result: { text: fingerprintText(searchKey(job.user, job.request)) } };
      }
    }
  }

  const { runJob, processJob, jobStatus, cancelJob } = createJobRunner({ analytics, jobs, perform });

  /** Requests of recent search jobs by id (read from their rows once). */
  const jobRequests = new Map<string, ParsedMetricSearchRequest | null>();
  const rememberRequest = (jobId: string, request: ParsedMetricSearchRequest | null) => {
    jobRequests.set(jobId, request);
    if (jobRequests.size > JOB_REQUESTS) jobRequests.delete(jobRequests.keys().next().value!);
  };

  /**
   * A search job of the caller: its state and, once it succeeded, its columns, from the store or
   * computed again from the request its row keeps (another process ran it, or the data changed
   * since: the answer then follows the data).
   */
  async function searchOf(
    user: AuthUser,
    jobId: string,
  ): Promise<{ status: string; progress: number; error: string | null; search: StoredSearch | null }> {
    const { result, ...state } = await jobStatus(user, JOB_KINDS.search, jobId);
    if (!result) return { ...state, search: null };
    let request = jobRequests.get(jobId);
    if (request === undefined) {
      request = await jobRequestOf<ParsedMetricSearchRequest>(user, JOB_KINDS.search, jobId);
      rememberRequest(jobId, request);
    }
    // A row of an older version without its request cannot be computed again.
    if (request === null)
      return { ...state, status: 'FAILURE', search: null, error: ANALYTICS_MESSAGES.jobExpired };
    return { ...state, search: await columnsOf(user, request, await fingerprint()) };
  }

  /** Full answers parsed lately, by the search they were written from. */
  const parsedResults = new Map<StoredSearch, MetricSearchResult>();
  const parsedResult = (search: StoredSearch) => {
    let parsed = parsedResults.get(search);
    if (parsed === undefined) {
      parsed = JSON.parse(resultBytesOf(store.statusBytes(search)).toString('utf8')) as MetricSearchResult;
      parsedResults.set(search, parsed);
      if (parsedResults.size > PARSED_RESULTS) parsedResults.delete(parsedResults.keys().next().value!);
    }
    return parsed;
  };

  async function metricSearchStatus(user: AuthUser, jobId: string): Promise<MetricSearchStatus> {
    const { search, ...state } = await searchOf(user, jobId);
    return {
      status: state.status as MetricSearchStatus['status'],
      progress: state.progress,
      result: search ? { json: parsedResult(search) } : null,
      error: state.error,
    };
  }

  /**
   * Answers a search summed in memory within its request: its row is written once, as ended, so its
   * first poll is SUCCESS (a refusal or a failure is recorded on the row as a queued job's would be).
   * The request is remembered here, so this process's polls read only the row's state.
   */
  async function answerInline(
    user: AuthUser,
    request: ParsedMetricSearchRequest,
    noCache: boolean,
  ): Promise<string> {
    const id = randomUUID();
    const text = JSON.stringify(request);
    const record = (outcome: { text: string } | { error: string }) =>
      analytics.createEndedJob(id, user.id, JOB_KINDS.search, text, outcome);
    try {
      await columnsOf(user, request, await fingerprint(), { fresh: noCache });
    } catch (error) {
      const refused = error instanceof AppError && error.statusCode < 500;
      if (!refused) console.error(`${JOB_KINDS.search} job ${id} failed: ${(error as Error).message}`);
      await record({ error: refused ? error.message : ANALYTICS_MESSAGES.jobFailed });
      return id;
    }
    await record({ text: fingerprintText(searchKey(user, request)) });
    rememberRequest(id, request);
    return id;
  }

  /**
   * Answers top attributes pooled in memory within their request, as answerInline a search: the row
   * is written finished (or with the refusal or failure), so the first poll is SUCCESS.
   */
  async function attributesInline(user: AuthUser, request: ParsedTopAttributesRequest): Promise<string> {
    const id = randomUUID();
    const now = await fingerprint();
    await analytics.createJob(id, user.id, JOB_KINDS.attributes, JSON.stringify(request));
    try {
      const text = JSON.stringify(await computeTopAttributes(context, user, request, now));
      await analytics.finishJob(id, { text });
    } catch (error) {
      const refused = error instanceof AppError && error.statusCode < 500;
      if (!refused) console.error(`${JOB_KINDS.attributes} job ${id} failed: ${(error as Error).message}`);
      await analytics.finishJob(id, { error: refused ? error.message : ANALYTICS_MESSAGES.jobFailed });
    }
    return id;
  }

  /**
   * Whether a search is summed in memory: without respondent filters (the stored statistics), with
   * gender and age alone over the metrics the demographic tables keep, or with other respondent
   * filters (ethnicity, social class, BUMO) over the metrics the respondent indexes keep, summed
   * over the respondents the in-memory traits let through (context.loadSums). More metrics ask the
   * database for the respondents' answers, which may take seconds: such a search is queued.
   */
  function summedInMemory(request: ParsedMetricSearchRequest): boolean {
    const conditions = respondentConditions(request.q.demographics, request.demographics_fragrances);
    if (conditions.length === 0) return true;
    const metrics = new Set(request.q.metrics.metricsList.map((entry) => entry.metric));
    return conditions.match ? metrics.size <= DEMOGRAPHIC_TABLES : metrics.size <= RESPONDENT_INDEXES;
  }

  async function significanceStatus(user: AuthUser, jobId: string): Promise<SignificanceStatus> {
    const job =
      significance.heldStatus(user, jobId) ?? (await jobStatus(user, JOB_KINDS.significance, jobId));
    return {
      status: job.status as SignificanceStatus['status'],
      progress: job.progress,
      result: job.result ? contentOf<SignificanceStatus['result']>(job.result) : null,
      error: job.error,
    };
  }

  const pages = createMetricPages({
    analytics,
    searchOf,
    significanceResult: significanceStatus,
  });

  const optionsCache = createAnswerCache<AnalyticsOptionsResponse>({
    maxEntries: 50,
    fingerprint,
  });

  /** The request recorded with a job of the caller: 404 when not theirs, null when none was kept. */
  async function jobRequestOf<T>(user: AuthUser, kind: JobKind, jobId: string): Promise<T | null> {
    const text = await analytics.jobRequest(jobId, user.id, kind);
    if (text === null) throw errors.notFound(ANALYTICS_MESSAGES.noSuchJob);
    return text === undefined ? null : (JSON.parse(text) as T);
  }

  /**
   * Fills the caches a first search would otherwise fill (runtime warm-up), the pieces a search
   * waits for first. First (app.ts runs it after the start as background work, so a first search
   * finds them warm or meets their loading under way): the stored statistics of every metric; for the metrics measured on the most products (as
   * many as the demographic tables kept), one search of every fragrance each (product list,
   * out-of-scale answers, mappings); the demographic table of the first, and a search of it among
   * women of every age run as a job through the queue (the queue's statements and the in-memory
   * summing a filtered first search runs); the out-of-scale answers and mappings of the other
   * metrics. Then in the background, its queries giving way to the requests'
   * (db/background-queries.ts) and each only once the requests have left the database quiet for
   * WARM_UP_QUIET_MS (its single reads take longer than a search, whose queries would otherwise
   * meet one under way): the demographic tables of the other top metrics. Resolves when the first
   * part is done; the rest logs its end (or its failure) to `log`.
   */
  async function warmUp(log: (line: string) => void): Promise<void> {
    const started = performance.now();
    const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
    const now = await fingerprint();
    const metricList = await metricCatalogue();
    const products = new Map<number, number>();
    for (const metric of metricList)
      products.set(metric.id, (await context.storedSumsOf(metric.id, now)).size);
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
    const searchOf = (metric: MetricRecord, demographics?: object) =>
      MetricSearchRequest.parse({
        q: {
          ...(demographics ? { demographics } : {}),
          metrics: {
            rdfType: 'all',
            metricsList: [{ metric: metric.name, aggregation: AGGREGATIONS_BY_METRIC_KIND[metric.kind][0]! }],
          },
        },
      });
    const search = (metric: MetricRecord) => computeMetricSearch(context, staff, searchOf(metric), now);
    const tableOf = async (metric: MetricRecord) => {
      const since = performance.now();
      const table = await context.demographicTableOf(metric.id, metric.kind === 'eeg', now);
      log(
        `Warm-up: ${metric.label}: demographic table of ${table.rows.toLocaleString('en-GB')} rows (${seconds(since)})`,
      );
    };
    for (const metric of top) await search(metric);
    log(`Warm-up: a search of every fragrance for ${top.length} metrics (${seconds(started)})`);
    const [first, ...others] = top;
    if (first) {
      await tableOf(first);
      // As a job through the queue, as a user's search runs: the first one then finds the queue's
      // statements and the filtered search's code warm (no job row: nobody polls it).
      const jobId = randomUUID();
      const job: AnalyticsJobData = {
        jobId,
        user: staff,
        kind: JOB_KINDS.search,
        request: JSON.stringify(
          searchOf(first, {
            gender: ['Female'],
            startAge: ANALYTICS_AGE_RANGE.min,
            endAge: ANALYTICS_AGE_RANGE.max,
          }),
        ),
        noCache: true,
      };
      await jobs.enqueue(ANALYTICS_QUEUE, jobId, job);
      await jobs.settled(jobId, WARM_UP_JOB_MS);
    }
    // The other metrics' out-of-scale answers and mappings: short reads a search of several metrics
    // would otherwise make, one after the other.
    const rest = metricList.filter((metric) => (products.get(metric.id) ?? 0) > 0 && !top.includes(metric));
    for (const metric of rest) {
      await context.outOfScaleAnswers([], [metric], now);
      await context.mappedPairs([metric], now);
    }
    log(`Warm-up: out-of-scale answers and mappings of ${rest.length} more metrics (${seconds(started)})`);
    log(`Warm-up: ready for the first search in ${seconds(started)}`);
    void inBackground(async () => {
      for (const metric of others) {
        await requestsQuietFor(WARM_UP_QUIET_MS);
        await tableOf(metric);
      }
      // The respondents behind the group comparison's metrics, which it counts for its bases, and
      // their answers, which Calculate sums per respondent for its clustered tests.
      await requestsQuietFor(WARM_UP_QUIET_MS);
      const since = performance.now();
      const compared = new Set<string>(GROUP_COMPARISON_METRICS.map((entry) => entry.metric));
      const bytes = await context.loadRespondents(
        metricList.filter((metric) => compared.has(metric.name)),
        now,
      );
      log(
        `Warm-up: respondents and answers of the group comparison's metrics, for its bases and Calculate (${(bytes / 1e6).toFixed(1)} MB, ${seconds(since)})`,
      );
      log(`Warm-up done in ${seconds(started)}`);
    }).catch((error: unknown) => {
      log(`Warm-up stopped: ${(error as Error).message}`);
    });
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
      const outOfScale = await context.outOfScaleAnswers(ids, [metric!], now);
      const sums = await context.loadSums(
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

    /** Queues a top attributes search; the answer carries its job id. */
    async queueTopAttributes(
      user: AuthUser,
      request: ParsedTopAttributesRequest,
    ): Promise<{ jobid: string }> {
      compileFor(user, request.q as ParsedStudySearchQuery);
      if (attributesInMemory(request)) return { jobid: await attributesInline(user, request) };
      const jobid = await runJob(user, { kind: JOB_KINDS.attributes, request });
      return { jobid };
    },

    /** Cancels a metric or performance search of the caller that has not ended (see cancelJob). */
    cancelMetricSearch(user: AuthUser, jobId: string): Promise<{ status: string; progress: number }> {
      return cancelJob(user, JOB_KINDS.search, jobId);
    },

    /** Cancels a top attributes job of the caller that has not ended. */
    cancelTopAttributes(user: AuthUser, jobId: string): Promise<{ status: string; progress: number }> {
      return cancelJob(user, JOB_KINDS.attributes, jobId);
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
      if (summedInMemory(request)) return { jobid: await answerInline(user, request, noCache) };
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
      const counts = await context.respondentCounts(
        productIds,
        chosen,
        respondentConditions(demographics, []),
        await fingerprint(),
      );
      const byName = new Map<string | null, number>([[null, counts.get(null) ?? 0]]);
      for (const metric of chosen) byName.set(metric.name, counts.get(metric.id) ?? 0);
      return byName;
    },

    metricSearchStatus,

    /**
     * A search job of the caller: its state and, once it succeeded, its columns as the result store
     * keeps them (computed again from its request when this process lacks them): what a comparison
     * reads its groups from without parsing their whole answers.
     */
    metricSearchColumns: searchOf,

    /**
     * The whole answer of a stored search as the UTF-8 bytes of MetricSearchResult's JSON: a view of
     * the status bytes the result store keeps with the search (written once, shared by every caller).
     */
    metricSearchJsonBytes: (search: StoredSearch): Buffer => resultBytesOf(store.statusBytes(search)),

    /**
     * A page of a search of the caller (rows sorted and filtered here, with their selection and
     * marks) and its summary, diagnostics and chart bins; the job's state until it succeeded.
     */
    metricSearchPage: pages.page,

    /** The same as metricSearchPage, as the JSON text the route sends (pages.pageText). */
    metricSearchPageText: pages.pageText,

    /** Selects or deselects rows of a finished search of the caller, by id or every matching row. */
    changeMetricSelection: pages.changeSelection,

    /** The selected rows of a finished search of the caller. */
    metricSelection: pages.selection,

    /** Every row of a finished search of the caller: the products of its attributes and tendencies. */
    metricSearchProducts: pages.products,

    /**
     * The same as metricSearchStatus, as the bytes of its JSON sent: a succeeded search's are written
     * once from its columns and kept in the result store, and every caller is sent the same bytes (a
     * search of every fragrance is megabytes: nothing is parsed, checked or written again), compressed
     * in `encoding` once per stored search (result-store.ts statusCompressed). Encoding null, or an
     * answer of another state: the bytes as they are, compressed on their way as any answer.
     */
    async metricSearchStatusAnswer(
      user: AuthUser,
      jobId: string,
      encoding: 'br' | 'gzip' | null,
    ): Promise<{ body: string | Buffer; encoding: 'br' | 'gzip' | null }> {
      const { search, ...state } = await searchOf(user, jobId);
      if (!search) return { body: JSON.stringify({ ...state, result: null }), encoding: null };
      const head = JSON.stringify({ status: state.status, progress: state.progress, error: state.error });
      const before = `${head.slice(0, -1)},"result":{"json":`;
      const bytes = store.statusBytes(search);
      // As the answers' compression does, an answer under 1 kB goes as it is.
      if (before === SUCCESS_HEAD && encoding && bytes.byteLength >= 1024)
        return { body: await store.statusCompressed(search, encoding), encoding };
      if (before === SUCCESS_HEAD) return { body: bytes, encoding: null };
      return {
        body: Buffer.concat([Buffer.from(before), resultBytesOf(bytes), Buffer.from('}}')]),
        encoding: null,
      };
    },

    /**
     * The same as significanceStatus, as its JSON text: the stored text of the result is sent as it
     * is, not parsed, checked and written again (thousands of products × metrics of objects).
     */
    async significanceStatusText(user: AuthUser, jobId: string): Promise<string> {
      const { result, ...state } =
        significance.heldStatus(user, jobId) ?? (await jobStatus(user, JOB_KINDS.significance, jobId));
      const head = JSON.stringify({ status: state.status, progress: state.progress });
      return `${head.slice(0, -1)},"result":${result ? result.text : 'null'},"error":${JSON.stringify(state.error)}}`;
    },

    /**
     * Queues a Calculate, or answers it within the request when its respondent sums are in memory
     * (significance-answers.ts); `noCache`: computed afresh (for measuring).
     */
    async queueSignificance(
      user: AuthUser,
      request: ParsedSignificanceRequest,
      noCache = false,
    ): Promise<{ job_id: string }> {
      // Over a search: its selection (every row when none) as it is now, checked before queuing.
      if (request.search_job !== undefined) {
        const { search_job: searchJob, ...rest } = request;
        request = { ...rest, data: await pages.significanceProducts(user, searchJob) };
      }
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
      if (significance.inMemory(request))
        return { job_id: await significance.answerInline(user, request, noCache) };
      const job_id = await runJob(user, { kind: JOB_KINDS.significance, request, noCache });
      return { job_id };
    },

    significanceStatus,

    /** Demographic options with respondent counts, metrics with their aggregations, age and year ranges. */
    async options(user: AuthUser): Promise<AnalyticsOptionsResponse> {
      const key = isClientScopedRole(user.roleId) ? [...user.clients].sort().join('\u0000') : '*';
      return optionsCache.get(key, () => computeOptions(context, user));
    },

    /**
     * How many fragrances carry each value of a fragrance field, among the fragrances the filters
     * select (or the chosen ones), most frequent first; fragrances without a value count as 'No tag'.
     */
    tendencies(user: AuthUser, request: ParsedTendenciesRequest): Promise<TendenciesResponse> {
      return tendencies(context, user, request);
    },

    /** Metric options with the studies counted under the filters and study kind. */
    metricOptionsFor(
      user: AuthUser,
      query: ParsedStudySearchQuery,
      rdfType: 'all' | 'rdf' | 'eeg' | 'irt',
      implicitOnly: boolean,
    ) {
      return metricOptionsFor(context, user, query, rdfType, implicitOnly);
    },
  };
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
