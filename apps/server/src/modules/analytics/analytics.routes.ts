import {
  ANALYTICS_MESSAGES,
  AnalyticsDropdownRequest,
  CancelledJob,
  AnalyticsDropdownResponse,
  AnalyticsOptionsResponse,
  ErrorResponse,
  JobIdParam,
  MetricSearchRequest,
  MetricSearchStatus,
  NoCacheQuery,
  FRAGRANCE_PROFILE_FILE_NAME,
  ProfileDemographicOptions,
  ProfileParams,
  ProfileRequest,
  ProfileResponse,
  ATTRIBUTES_FILE_NAME,
  TopAttributesRequest,
  TopAttributesStatus,
  DEFAULT_XLSX_FILTERS,
  METRICS_FILE_NAME,
  PERFORMANCE_FILE_NAME,
  PerformanceXlsxQuery,
  XLSX_FILTERS,
  XlsxFiltersResponse,
  QueuedJob,
  TENDENCIES_FILE_NAME,
  TendenciesRequest,
  TendenciesResponse,
  XLSX_CONTENT_TYPE,
  QueuedSignificanceJob,
  SignificanceRequest,
  SignificanceStatus,
  type MetricSearchResult,
  type ParsedMetricSearchRequest,
  type ParsedStudySearchQuery,
  MetricPageQuery,
  MetricSearchPageStatus,
  MetricSearchProducts,
  MetricSelection,
  MetricSelectionRequest,
  MetricSelectionState,
  MetricsXlsxQuery,
} from '@accord/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errors } from '../../lib/errors.ts';
import { currentUser, requirePermission, requireUser, type AuthUser } from '../../plugins/auth.ts';
import {
  SIGNIFICANCE_EXPORT_MESSAGES,
  checkSameList,
  markTable,
  type MarkTable,
} from '../exports/significance-marks.ts';
import type { ReportHeader, ReportTable } from '../../lib/report-workbook.ts';
import { reportStreamOffThread } from '../../workers/pool.ts';
import {
  attributesReport,
  metricsReport,
  performanceReport,
  profileReport,
  tendenciesReport,
  type Requester,
} from './analytics-exports.ts';
import type { Db } from '../../db/client.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { systemClock } from '../../lib/clock.ts';
import { createFieldsRepository } from '../fields/fields.repository.ts';
import { createSearchRepository } from '../search/search.repository.ts';
import { createSearchService, type SearchService } from '../search/search.service.ts';
import { createAnalyticsRepository } from './analytics.repository.ts';
import { sendEncodedJson, sendJsonText } from '../../lib/json-text.ts';
import { chooseEncoding } from '../../plugins/compress-answers.ts';
import { createAnalyticsService, type AnalyticsService } from './analytics.service.ts';
import { createProfileService, type ProfileService } from './analytics-profile.ts';

/** A report workbook as a download. */
async function sendReport(
  reply: FastifyReply,
  fileName: string,
  sheetName: string,
  report: { header: ReportHeader; table: ReportTable },
) {
  // Streamed from a worker thread: a large spreadsheet would hold every other request up.
  return reply
    .type(XLSX_CONTENT_TYPE)
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .send(reportStreamOffThread(sheetName, report.header, report.table, true));
}

/**
 * The marks of the significance job a metrics download names: the caller's (404 otherwise), finished,
 * and calculated on the very list of the search (400 otherwise).
 */
async function significanceMarks(
  analytics: AnalyticsService,
  user: AuthUser,
  jobId: string,
  search: ParsedMetricSearchRequest | null,
  result: MetricSearchResult,
): Promise<MarkTable> {
  const status = await analytics.significanceStatus(user, jobId);
  const asked = await analytics.significanceRequest(user, jobId);
  const refuse = (message: string) => errors.badRequest(message, [{ path: 'significance', message }]);
  if (status.status === 'FAILURE' || status.status === 'REVOKED')
    throw refuse(SIGNIFICANCE_EXPORT_MESSAGES.failed);
  if (!status.result) throw refuse(SIGNIFICANCE_EXPORT_MESSAGES.notFinished);
  if (!asked || !search) throw refuse(SIGNIFICANCE_EXPORT_MESSAGES.notKept);
  checkSameList(search, result, asked);
  return markTable(status.result);
}

/** The header's who and when. */
function requester(request: FastifyRequest): Requester {
  return { author: currentUser(request).email, date: new Date() };
}

const errorResponses = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse };
const statusErrors = { 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };
const JOB_PROTOCOL =
  ' Answers a job id; GET the status with it: SUCCESS carries the result, FAILURE the error, anything else is progress. A job finishing within a few seconds is done at its first poll.';

/** Advanced analytics (document 3 section 7): admins and users with analytics access. */
export const analyticsRoutes: FastifyPluginAsyncZod<{
  analytics: AnalyticsService;
  search: SearchService;
  profiles: ProfileService;
}> = async (app, { analytics, search, profiles }) => {
  const tags = ['analytics'];
  const guard = requirePermission('canAccessAnalytics');

  app.get(
    '/analytics/options',
    {
      preHandler: guard,
      schema: {
        tags,
        summary:
          'Demographic options (respondents per value), metrics with their aggregations and study counts, the age and year ranges',
        response: { 200: AnalyticsOptionsResponse, 401: ErrorResponse, 403: ErrorResponse },
      },
    },
    async (request) => analytics.options(currentUser(request)),
  );

  app.post(
    '/smartsearch/dropdown_options_analytics',
    {
      preHandler: guard,
      schema: {
        tags,
        summary:
          'Option lists of the analytics filters under the current filters (as /smartsearch/dropdown_options), plus the metrics with answers in the studies of the chosen kind (rdf_type; irt_implict: implicit metrics only)',
        body: AnalyticsDropdownRequest,
        response: { 200: AnalyticsDropdownResponse, ...errorResponses },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { demographics: _demographics, metrics: _metrics, ...filters } = request.body.query;
      const query = filters as ParsedStudySearchQuery;
      const [options, metrics] = await Promise.all([
        search.dropdownOptions(user, query),
        analytics.metricOptionsFor(user, query, request.body.rdf_type, request.body.irt_implict),
      ]);
      return {
        data: { fields: { ...options.data.fields, metrics }, dependencies: options.data.dependencies },
      };
    },
  );

  app.post(
    '/analytics/fragrances',
    {
      preHandler: guard,
      schema: {
        tags,
        summary:
          'Queue a metric search: per fragrance (type concepts: per concept) the chosen aggregations with their bases, under the study, demographic and results-table filters, with thresholds and diagnostics. Results are cached per query while the data is unchanged; ?no_cache=true computes afresh.' +
          JOB_PROTOCOL,
        body: MetricSearchRequest,
        querystring: NoCacheQuery,
        response: { 200: QueuedJob, ...errorResponses },
      },
    },
    async (request) =>
      analytics.queueMetricSearch(currentUser(request), request.body, request.query.no_cache),
  );

  app.get(
    '/analytics/fragrances/:jobId',
    {
      preHandler: guard,
      schema: {
        tags,
        summary: 'Status of a metric search job (yours only); on SUCCESS the result is in result.json',
        params: JobIdParam,
        response: { 200: MetricSearchStatus, ...statusErrors, 400: ErrorResponse },
      },
    },
    // The result store's bytes of the answer, the same for every caller: megabytes are not parsed,
    // checked and written again (result-store.api.test.ts and analytics.api.test.ts check the shape).
    // Compressed once per stored search for a client that accepts it (brotli or gzip of megabytes),
    // which the answers' compression then leaves as it is.
    async (request, reply) => {
      const answer = await analytics.metricSearchStatusAnswer(
        currentUser(request),
        request.params.jobId,
        chooseEncoding(request.headers['accept-encoding']),
      );
      return sendEncodedJson(reply, answer);
    },
  );

  app.delete(
    '/analytics/fragrances/:jobId',
    {
      preHandler: guard,
      schema: {
        tags,
        summary:
          'Cancel a metric or performance search of yours that has not ended: it becomes REVOKED at once (its polls end with that state), its work stops at its next step and no result is kept. A search already ended keeps its state; the answer is the state after the call.',
        params: JobIdParam,
        response: { 200: CancelledJob, ...statusErrors, 400: ErrorResponse },
      },
    },
    async (request) => {
      const state = await analytics.cancelMetricSearch(currentUser(request), request.params.jobId);
      return CancelledJob.parse(state);
    },
  );

  app.get(
    '/analytics/fragrances/:jobId/page',
    {
      preHandler: guard,
      schema: {
        tags,
        summary:
          "A page of a metric search (yours): its rows matching the search text and significance tag, sorted by a column, name or CMI # (rows without a value last), each with whether it is selected and its marks; with the summary, diagnostics, chart bins, counts and the selection's size. Until the job succeeded, its state alone (poll it as the job's status).",
        params: JobIdParam,
        querystring: MetricPageQuery,
        response: { 200: MetricSearchPageStatus, ...statusErrors, 400: ErrorResponse },
      },
    },
    // Written as the response schema would write it, its shared parts once per stored search
    // (metric-pages.ts pageText; result-store.api.test.ts and metric-pages.api.test.ts check it).
    async (request, reply) =>
      sendJsonText(
        reply,
        await analytics.metricSearchPageText(currentUser(request), request.params.jobId, request.query),
      ),
  );

  app.post(
    '/analytics/fragrances/:jobId/selection',
    {
      preHandler: guard,
      schema: {
        tags,
        summary:
          'Select or deselect rows of a finished metric search (yours), by id or every row matching a filter ("Select all"), or clear the selection; the selection is kept with the search and feeds significance (search_job), the results filter and the download (?selected=true)',
        params: JobIdParam,
        body: MetricSelectionRequest,
        response: { 200: MetricSelectionState, ...statusErrors, 400: ErrorResponse },
      },
    },
    async (request) =>
      analytics.changeMetricSelection(currentUser(request), request.params.jobId, request.body),
  );

  app.get(
    '/analytics/fragrances/:jobId/selection',
    {
      preHandler: guard,
      schema: {
        tags,
        summary: 'The selected rows of a finished metric search (yours), in its order',
        params: JobIdParam,
        response: { 200: MetricSelection, ...statusErrors, 400: ErrorResponse },
      },
    },
    async (request) => analytics.metricSelection(currentUser(request), request.params.jobId),
  );

  app.get(
    '/analytics/fragrances/:jobId/products',
    {
      preHandler: guard,
      schema: {
        tags,
        summary:
          'Every row of a finished metric search (yours), in its order: the products (frags) its top attributes and tendencies compute on',
        params: JobIdParam,
        response: { 200: MetricSearchProducts, ...statusErrors, 400: ErrorResponse },
      },
    },
    async (request) => analytics.metricSearchProducts(currentUser(request), request.params.jobId),
  );

  app.get(
    '/analytics/fragrances/xlsxfilters',
    {
      preHandler: guard,
      schema: {
        tags,
        summary: 'The spreadsheet filters of the metrics download and the ones chosen by default',
        response: { 200: XlsxFiltersResponse, 401: ErrorResponse, 403: ErrorResponse },
      },
    },
    async () => ({
      xlsxFilters: XLSX_FILTERS.map((filter) => ({ ...filter })),
      chosenXlsxFilters: [...DEFAULT_XLSX_FILTERS],
    }),
  );

  app.get(
    '/analytics/fragrances/xlsx/:jobId',
    {
      preHandler: guard,
      schema: {
        tags,
        summary: `A finished metric search (yours) as ${METRICS_FILE_NAME}: the search's filters in words, one row per fragrance or concept (?selected=true: the selected ones), means (2 decimals) and box shares (% format) each with its base n, low bases marked, under the spreadsheet filters (?filters=bases,hide_low_base,hide_empty); ?significance= names a finished significance job of yours on the same list (400 otherwise) whose marks go beside the numbers, with a legend`,
        params: JobIdParam,
        querystring: MetricsXlsxQuery,
        response: { ...statusErrors, 400: ErrorResponse },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const status = await analytics.metricSearchStatus(user, request.params.jobId);
      if (!status.result) throw errors.notFound(ANALYTICS_MESSAGES.noSuchJob);
      let result = status.result.json;
      if (request.query.selected) {
        const chosen = new Set(
          (await analytics.metricSelection(user, request.params.jobId)).products.map((row) => row.id),
        );
        result = { ...result, results: result.results.filter((row) => chosen.has(row.id)) };
      }
      const search = await analytics.metricSearchRequest(user, request.params.jobId);
      const marks = request.query.significance
        ? await significanceMarks(analytics, user, request.query.significance, search, result)
        : null;
      const report = metricsReport(result, new Set(request.query.filters), requester(request), search, marks);
      return sendReport(reply, METRICS_FILE_NAME, 'Metrics', report);
    },
  );

  app.get(
    '/analytics/performance/xlsx/:jobId',
    {
      preHandler: guard,
      schema: {
        tags,
        summary: `A finished performance search (yours) as ${PERFORMANCE_FILE_NAME}: per value of the breakdown field, each metric with its base n, in the order of ?sort= (category, fragrances or a metric key) and ?desc=`,
        params: JobIdParam,
        querystring: PerformanceXlsxQuery,
        response: { ...statusErrors, 400: ErrorResponse },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const status = await analytics.metricSearchStatus(user, request.params.jobId);
      const result = status.result?.json;
      if (!result?.performance) throw errors.notFound(ANALYTICS_MESSAGES.noSuchJob);
      const search = await analytics.metricSearchRequest(user, request.params.jobId);
      // The field as asked; a search without rows still names it (the rows' own name otherwise).
      const field = search?.data?.field ?? result.performance[0]?.category.name ?? '';
      const sort = { key: request.query.sort, desc: request.query.desc };
      return sendReport(
        reply,
        PERFORMANCE_FILE_NAME,
        'Performance',
        performanceReport(result, field, sort, requester(request), search),
      );
    },
  );

  app.post(
    '/analytics/significance',
    {
      preHandler: guard,
      schema: {
        tags,
        summary:
          'Queue significance of each product against the list average (avg) or the rest of the list (rest) for the metrics with confidence on: respondent-clustered tests of the means and box shares, two-sided, Benjamini-Hochberg across the call unless the correction is none, at 99, 95 and 90 %; no test under 30 answers. Answers are kept per request and caller scope while the data is unchanged (the same Calculate asked again is read, the same one under way is shared); ?no_cache=true computes afresh.' +
          JOB_PROTOCOL,
        body: SignificanceRequest,
        querystring: NoCacheQuery,
        response: { 200: QueuedSignificanceJob, ...errorResponses },
      },
    },
    async (request) =>
      analytics.queueSignificance(currentUser(request), request.body, request.query.no_cache),
  );

  app.get(
    '/analytics/significance/:jobId',
    {
      preHandler: guard,
      schema: {
        tags,
        summary:
          'Status of a significance job (yours only); on SUCCESS result.results holds per product its id and, per "metric.aggregation.confidence", level, table (mt higher, let lower), test, p_value and n',
        params: JobIdParam,
        response: { 200: SignificanceStatus, ...statusErrors, 400: ErrorResponse },
      },
    },
    // The stored result is spliced into the status text: thousands of rows are not parsed and written again.
    async (request, reply) =>
      sendJsonText(reply, await analytics.significanceStatusText(currentUser(request), request.params.jobId)),
  );

  app.post(
    '/analytics/top-attributes',
    {
      preHandler: guard,
      schema: {
        tags,
        summary:
          'Queue the top attributes: each attribute pooled over the fragrances the filters select (or frags) and the respondents the demographic filters keep, ranked best or worst by the aggregation, the first data.count kept.' +
          JOB_PROTOCOL,
        body: TopAttributesRequest,
        response: { 200: QueuedJob, ...errorResponses },
      },
    },
    async (request) => analytics.queueTopAttributes(currentUser(request), request.body),
  );

  app.get(
    '/analytics/top-attributes/:jobId',
    {
      preHandler: guard,
      schema: {
        tags,
        summary:
          'Status of a top attributes job (yours only); on SUCCESS the rows are in result.json.attributes',
        params: JobIdParam,
        response: { 200: TopAttributesStatus, ...statusErrors, 400: ErrorResponse },
      },
    },
    async (request) => analytics.topAttributesStatus(currentUser(request), request.params.jobId),
  );

  app.delete(
    '/analytics/top-attributes/:jobId',
    {
      preHandler: guard,
      schema: {
        tags,
        summary:
          'Cancel a top attributes job of yours that has not ended (REVOKED at once, no result kept); a job already ended keeps its state; the answer is the state after the call.',
        params: JobIdParam,
        response: { 200: CancelledJob, ...statusErrors, 400: ErrorResponse },
      },
    },
    async (request) => {
      const state = await analytics.cancelTopAttributes(currentUser(request), request.params.jobId);
      return CancelledJob.parse(state);
    },
  );

  app.get(
    '/analytics/top-attributes/xlsx/:jobId',
    {
      preHandler: guard,
      schema: {
        tags,
        summary: `A finished top attributes job as ${ATTRIBUTES_FILE_NAME} (404 until it has succeeded)`,
        params: JobIdParam,
        response: { ...statusErrors, 400: ErrorResponse },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const status = await analytics.topAttributesStatus(user, request.params.jobId);
      if (!status.result) throw errors.notFound(ANALYTICS_MESSAGES.noSuchJob);
      const asked = await analytics.topAttributesRequest(user, request.params.jobId);
      return sendReport(
        reply,
        ATTRIBUTES_FILE_NAME,
        'Top attributes',
        attributesReport(status.result.json, requester(request), asked),
      );
    },
  );

  app.post(
    '/analytics/tendencies',
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary:
          'Creative and olfactive tendencies: how many fragrances (of the studies you may see, under the filters, or the chosen frags) carry each value of a fragrance field (data.groupby), most frequent first; chart data in percent or counts (data.return). Answered directly.',
        body: TendenciesRequest,
        response: { 200: TendenciesResponse, ...errorResponses },
      },
    },
    async (request) => analytics.tendencies(currentUser(request), request.body),
  );

  app.post(
    '/analytics/tendencies/xlsx',
    {
      preHandler: requirePermission('allowDownload'),
      schema: {
        tags,
        summary: `The tendencies table as ${TENDENCIES_FILE_NAME} (users who may download)`,
        body: TendenciesRequest,
        response: errorResponses,
      },
    },
    async (request, reply) => {
      const found = await analytics.tendencies(currentUser(request), request.body);
      return sendReport(
        reply,
        TENDENCIES_FILE_NAME,
        'Tendencies',
        tendenciesReport(
          found,
          request.body.data.groupby,
          request.body.q,
          request.body.frags ? request.body.frags.length : null,
          requester(request),
        ),
      );
    },
  );

  const profileTags = ['profiles'];
  for (const kind of ['fragrance', 'concept'] as const) {
    app.post(
      `/study/:id/${kind}/:code`,
      {
        preHandler: requireUser,
        schema: {
          tags: profileTags,
          summary: `Profile of a ${kind} (by product code) of a study you may see: per metric mean and boxes over the respondents meeting every demographic condition, N/A rows for missing liking, strength and purchase_intention`,
          params: ProfileParams,
          body: ProfileRequest,
          response: { 200: ProfileResponse, ...errorResponses, 404: ErrorResponse },
        },
      },
      async (request) =>
        profiles.profile(
          currentUser(request),
          request.params.id,
          kind,
          request.params.code,
          request.body.demographics,
        ),
    );
  }

  app.get(
    '/study/:id/demographic-options',
    {
      preHandler: requireUser,
      schema: {
        tags: profileTags,
        summary:
          "The profile filter's values for a study you may see: those of its own respondents, with their counts, and their age range",
        params: ProfileParams.pick({ id: true }),
        response: { 200: ProfileDemographicOptions, ...errorResponses, 404: ErrorResponse },
      },
    },
    async (request) => profiles.demographicOptions(currentUser(request), request.params.id),
  );

  app.post(
    '/study/:id/fragrance/:code/xlsx',
    {
      preHandler: requirePermission('allowDownload'),
      schema: {
        tags: profileTags,
        summary: `The fragrance profile table as ${FRAGRANCE_PROFILE_FILE_NAME} (users who may download)`,
        params: ProfileParams,
        body: ProfileRequest,
        response: { ...errorResponses, 404: ErrorResponse },
      },
    },
    async (request, reply) => {
      const profile = await profiles.profile(
        currentUser(request),
        request.params.id,
        'fragrance',
        request.params.code,
        request.body.demographics,
      );
      return sendReport(
        reply,
        FRAGRANCE_PROFILE_FILE_NAME,
        'Fragrance profile',
        profileReport(profile, request.body.demographics, requester(request)),
      );
    },
  );
};

/** The services of the analytics routes on the application database. */
export function analyticsDeps(
  db: Db,
  jobs: JobQueue,
): {
  analytics: AnalyticsService;
  search: SearchService;
  profiles: ProfileService;
} {
  const fields = createFieldsRepository(db);
  const repository = createAnalyticsRepository(db);
  return {
    analytics: createAnalyticsService({ analytics: repository, fields, jobs }),
    profiles: createProfileService({ db, analytics: repository, fields }),
    search: createSearchService({ search: createSearchRepository(db), fields, clock: systemClock }),
  };
}
