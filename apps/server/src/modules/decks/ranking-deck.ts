/**
 * The ranked results of the Best/Worst Testers and Fragrance Attributes wizards as slides: the very
 * ranking the results table shows (GET /rankings/{jobId}), one native bar chart per metric column in
 * rank order, values as the table writes them (means to 2 decimals, shares as whole percents), each
 * bar with its base n and low bases marked, the filters and the ranking in words on every slide.
 * Users who may download, as the other decks; a job is only ever its owner's.
 */
import {
  ANALYTICS_MESSAGES,
  ErrorResponse,
  JobIdParam,
  LOW_BASE,
  RANKING_DECK_FILE_NAME,
  type MetricSearchResult,
  type ParsedMetricSearchRequest,
  type RankingResult,
} from '@accord/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errors } from '../../lib/errors.ts';
import { currentUser, requirePermission } from '../../plugins/auth.ts';
import { metricSearchLines, type Requester } from '../analytics/analytics-exports.ts';
import type { AnalyticsService } from '../analytics/analytics.service.ts';
import { rankingOf } from '../comparisons/rankings.service.ts';
import { sendDeck } from './decks.routes.ts';
import type { DeckLine, DeckSpec, DeckUnit } from './deck-writer.ts';

/** A ranking value as the results table writes it: a mean to 2 decimals, a share as a whole percent. */
export function rankingValue(aggregation: string, value: number | null | undefined): number | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  return aggregation === 'mean' ? Math.round(value * 100) / 100 : Math.round(value * 100);
}

const unitOf = (aggregation: string): DeckUnit => (aggregation === 'mean' ? 'mean' : 'percent');

/** ranking.pptx: per metric column, the ranked rows in rank order. */
export function rankingDeck(
  ranking: RankingResult,
  search: Pick<MetricSearchResult, 'type' | 'columns' | 'diagnostics'>,
  request: ParsedMetricSearchRequest | null,
  who: Requester,
): DeckSpec {
  const kind = ranking.type === 'concepts' ? 'concept' : 'fragrance';
  const words = metricSearchLines(search, request);
  const ranked = ranking.columns[0];
  const order: DeckLine = {
    label: 'Ranking',
    value: `${ranking.rows.length} ${ranking.rows.length === 1 ? kind : `${kind}s`} in rank order${ranked ? `, ranked by ${ranked.label} ${ranked.aggregation_label}` : ''}`,
  };
  const common = [
    ...words.filter((line) => ['Filters', 'Study type', 'Threshold'].includes(line.label)),
    order,
  ];
  return {
    title: `Ranking: ${ranking.rows.length} ${ranking.rows.length === 1 ? kind : `${kind}s`}`,
    subtitle: order.value.charAt(0).toUpperCase() + order.value.slice(1),
    author: who.author,
    date: who.date,
    lines: [...words, order],
    charts: ranking.columns.map((column) => ({
      title: `${column.label} ${column.aggregation_label}`,
      unit: unitOf(column.aggregation),
      lines: common,
      bars: ranking.rows.map((row) => {
        const n = row.bases[column.key] ?? 0;
        return {
          label: `${row.rank}. ${row.name ?? row.prod} (${row.c_mi_number})`,
          value: rankingValue(column.aggregation, row.values[column.key]),
          n,
          lowBase: n < LOW_BASE,
          mark: null,
        };
      }),
    })),
  };
}

export const rankingDeckRoutes: FastifyPluginAsyncZod<{ analytics: AnalyticsService }> = async (
  app,
  { analytics },
) => {
  app.get(
    '/rankings/pptx/:jobId',
    {
      preHandler: requirePermission('allowDownload'),
      schema: {
        tags: ['comparisons'],
        summary: `A finished ranking (yours; users who may download) as ${RANKING_DECK_FILE_NAME}: a title slide with the filters and the ranking in words, then per metric column a native bar chart of the ranked rows in rank order, values as the results table writes them, each bar with its base n, low bases marked (404 until it has succeeded)`,
        params: JobIdParam,
        response: { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const status = await analytics.metricSearchStatus(user, request.params.jobId);
      if (status.status !== 'SUCCESS' || !status.result) throw errors.notFound(ANALYTICS_MESSAGES.noSuchJob);
      const search = status.result.json;
      const spec = rankingDeck(
        rankingOf(search),
        search,
        await analytics.metricSearchRequest(user, request.params.jobId),
        { author: user.email, date: new Date() },
      );
      return sendDeck(reply, RANKING_DECK_FILE_NAME, spec);
    },
  );
};
