/**
 * "Download slides" of the analytics tabs: each deck is written from the answer its tab shows (the
 * metrics page, the performance rows, the top attributes job, the tendencies table), never computed
 * again another way, with the same roles as the tab's spreadsheet; the pptx is written in a worker
 * thread.
 */
import {
  ANALYTICS_MESSAGES,
  ATTRIBUTES_DECK_FILE_NAME,
  ErrorResponse,
  JobIdParam,
  METRIC_PAGE_MAX,
  METRICS_DECK_FILE_NAME,
  MetricsDeckQuery,
  PERFORMANCE_DECK_FILE_NAME,
  PPTX_CONTENT_TYPE,
  PerformanceXlsxQuery,
  TENDENCIES_DECK_FILE_NAME,
  TendenciesRequest,
} from '@accord/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errors } from '../../lib/errors.ts';
import { currentUser, requirePermission } from '../../plugins/auth.ts';
import { deckBytesOffThread } from '../../workers/pool.ts';
import type { Requester } from '../analytics/analytics-exports.ts';
import type { AnalyticsService } from '../analytics/analytics.service.ts';
import { SIGNIFICANCE_EXPORT_MESSAGES, markTable, type MarkTable } from '../exports/significance-marks.ts';
import {
  attributesDeck,
  metricsDeck,
  orderInWords,
  performanceDeck,
  tendenciesDeck,
} from './analytics-decks.ts';
import type { DeckSpec } from './deck-writer.ts';

/** What the metrics deck says when asked for the selection of a list with none selected. */
export const DECK_MESSAGES = {
  noneSelected: 'No row is selected: select rows, or download the slides of the page shown.',
} as const;

export async function sendDeck(reply: FastifyReply, fileName: string, spec: DeckSpec) {
  const bytes = await deckBytesOffThread(spec);
  return reply
    .type(PPTX_CONTENT_TYPE)
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .send(bytes);
}

function requester(request: FastifyRequest): Requester {
  return { author: currentUser(request).email, date: new Date() };
}

const statusErrors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse };

export const decksRoutes: FastifyPluginAsyncZod<{ analytics: AnalyticsService }> = async (
  app,
  { analytics },
) => {
  const tags = ['analytics'];
  const guard = requirePermission('canAccessAnalytics');

  app.get(
    '/analytics/fragrances/pptx/:jobId',
    {
      preHandler: guard,
      schema: {
        tags,
        summary: `A finished metric search (yours) as ${METRICS_DECK_FILE_NAME}: a title slide with the search's filters in words, then per metric a native bar chart of the rows the table shows (its search text, mark filter, sort and page as GET .../page takes them; ?selected=true: the selected rows in that order), values as the table writes them, each bar named with its mark (?significance=, a finished significance job of yours) and base n, low bases marked`,
        params: JobIdParam,
        querystring: MetricsDeckQuery,
        response: statusErrors,
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { selected, ...query } = request.query;
      let marks: MarkTable | null = null;
      if (query.significance) {
        const status = await analytics.significanceStatus(user, query.significance);
        const refuse = (message: string) => errors.badRequest(message, [{ path: 'significance', message }]);
        if (status.status === 'FAILURE' || status.status === 'REVOKED')
          throw refuse(SIGNIFICANCE_EXPORT_MESSAGES.failed);
        if (!status.result) throw refuse(SIGNIFICANCE_EXPORT_MESSAGES.notFinished);
        marks = markTable(status.result);
      }
      const answer = await analytics.metricSearchPage(
        user,
        request.params.jobId,
        selected ? { ...query, offset: 0, limit: METRIC_PAGE_MAX } : query,
      );
      if (!answer.result) throw errors.notFound(ANALYTICS_MESSAGES.noSuchJob);
      const page = answer.result;
      const rows = selected ? page.rows.filter((row) => row.selected) : page.rows;
      if (selected && rows.length === 0)
        throw errors.badRequest(DECK_MESSAGES.noneSelected, [
          { path: 'selected', message: DECK_MESSAGES.noneSelected },
        ]);
      const kind = page.type === 'concepts' ? 'concepts' : 'fragrances';
      const narrowed = [
        ...(query.search.trim() ? [`named like "${query.search.trim()}"`] : []),
        ...(query.mark !== 'all' ? ['of the significance tag chosen'] : []),
      ].join(' ');
      const which = selected
        ? `the ${rows.length} selected ${kind}`
        : rows.length < page.matching
          ? `${kind} ${page.offset + 1}-${page.offset + rows.length} of ${page.matching}`
          : `all ${rows.length} ${kind}`;
      const spec = metricsDeck({
        page: { ...page, rows },
        request: await analytics.metricSearchRequest(user, request.params.jobId),
        marks,
        order: orderInWords(page.columns, query.sort, query.desc),
        rows: narrowed ? `${which} ${narrowed}` : which,
        who: requester(request),
      });
      return sendDeck(reply, METRICS_DECK_FILE_NAME, spec);
    },
  );

  app.get(
    '/analytics/performance/pptx/:jobId',
    {
      preHandler: guard,
      schema: {
        tags,
        summary: `A finished performance search (yours) as ${PERFORMANCE_DECK_FILE_NAME}: per metric a native bar chart of its value per value of the breakdown field, in the order of ?sort= and ?desc= (as the tab's table), each bar with its base n`,
        params: JobIdParam,
        querystring: PerformanceXlsxQuery,
        response: statusErrors,
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const status = await analytics.metricSearchStatus(user, request.params.jobId);
      const result = status.result?.json;
      if (!result?.performance) throw errors.notFound(ANALYTICS_MESSAGES.noSuchJob);
      const search = await analytics.metricSearchRequest(user, request.params.jobId);
      const field = search?.data?.field ?? result.performance[0]?.category.name ?? '';
      const sort = { key: request.query.sort, desc: request.query.desc };
      return sendDeck(
        reply,
        PERFORMANCE_DECK_FILE_NAME,
        performanceDeck(result, field, sort, requester(request), search),
      );
    },
  );

  app.get(
    '/analytics/top-attributes/pptx/:jobId',
    {
      preHandler: guard,
      schema: {
        tags,
        summary: `A finished top attributes job (yours) as ${ATTRIBUTES_DECK_FILE_NAME}: a native bar chart of the attributes by the aggregation they were ranked by, in their rank, each with its base n (404 until it has succeeded)`,
        params: JobIdParam,
        response: statusErrors,
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const status = await analytics.topAttributesStatus(user, request.params.jobId);
      if (!status.result) throw errors.notFound(ANALYTICS_MESSAGES.noSuchJob);
      const asked = await analytics.topAttributesRequest(user, request.params.jobId);
      return sendDeck(
        reply,
        ATTRIBUTES_DECK_FILE_NAME,
        attributesDeck(status.result.json, requester(request), asked),
      );
    },
  );

  app.post(
    '/analytics/tendencies/pptx',
    {
      preHandler: requirePermission('allowDownload'),
      schema: {
        tags,
        summary: `The tendencies as ${TENDENCIES_DECK_FILE_NAME} (users who may download): a native bar chart of the share of the fragrances counted carrying each value, most frequent first, as the tab's table`,
        body: TendenciesRequest,
        response: { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse },
      },
    },
    async (request, reply) => {
      const found = await analytics.tendencies(currentUser(request), request.body);
      return sendDeck(
        reply,
        TENDENCIES_DECK_FILE_NAME,
        tendenciesDeck(
          found,
          request.body.data.groupby,
          request.body.q,
          request.body.frags ? request.body.frags.length : null,
          requester(request),
        ),
      );
    },
  );
};
