/**
 * Rankings (document 3 sections 2.3, 2.4, 4.2, 4.3): the Best/Worst Testers and Fragrance Attributes
 * searches for every signed-in user, whether or not they may open Advanced Analytics. The wizard's
 * choices become the metric search of sections 4.2 and 4.3 (`rankingQuery`, shared with the web),
 * queued and read through the analytics service: its job protocol (a fast search is done at the
 * first poll), its result cache, its refusals (400 for bad input, 403 for admin-only filters) and its
 * client scoping (client and sales users rank only their clients' products). A ranking job is that
 * metric search job, read back as the ranked list.
 */
import {
  MetricSearchRequest,
  rankingQuery,
  type MetricSearchResult,
  type ParsedRankingRequest,
  type RankingResult,
  type RankingStatus,
} from '@accord/contracts';
import type { AuthUser } from '../../plugins/auth.ts';
import type { AnalyticsService } from '../analytics/analytics.service.ts';

/** The ranked list of a finished metric search: its rows are already in threshold order. */
export function rankingOf(result: MetricSearchResult): RankingResult {
  return {
    type: result.type,
    columns: result.columns.map((column) => ({
      key: column.key,
      label: column.label,
      aggregation: column.aggregation,
      aggregation_label: column.aggregation_label,
    })),
    rows: result.results.map((row, index) => ({
      rank: index + 1,
      id: row.id,
      study_id: row.study_id,
      c_mi_number: row.c_mi_number,
      name: row.name,
      prod: row.prod,
      kind: row.kind,
      values: row.values,
      bases: row.bases,
    })),
  };
}

export function createRankingsService(deps: {
  analytics: Pick<AnalyticsService, 'queueMetricSearch' | 'metricSearchStatus'>;
}) {
  const { analytics } = deps;
  return {
    /** Queues the ranking's metric search; the answer carries its job id. */
    async queue(user: AuthUser, request: ParsedRankingRequest): Promise<{ jobid: string }> {
      return analytics.queueMetricSearch(user, MetricSearchRequest.parse(rankingQuery(request)), false);
    },

    /** A ranking job of the caller (404 otherwise): progress, the refusal, or the ranked list. */
    async status(user: AuthUser, jobId: string): Promise<RankingStatus> {
      const status = await analytics.metricSearchStatus(user, jobId);
      return {
        status: status.status,
        progress: status.progress,
        result: status.status === 'SUCCESS' && status.result ? { json: rankingOf(status.result.json) } : null,
        error: status.error,
      };
    },
  };
}

export type RankingsService = ReturnType<typeof createRankingsService>;
