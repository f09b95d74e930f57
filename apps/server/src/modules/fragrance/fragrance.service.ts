/**
 * One fragrance across all its tests: the tests of a 6-digit code in the studies the caller may see
 * (client and sales users: their clients' verified studies, as a study read by id), scored as the
 * metric search scores products (the analytics repository's sufficient statistics over the in-scale
 * answers, aggregated by its rules), pooled across studies (METRICS.md section 5).
 */
import {
  FRAGRANCE_MESSAGES,
  FRAGRANCE_TEST_METRICS,
  type FragranceQuery,
  type FragranceResponse,
  type FragrancePoolingGroup,
} from '@accord/contracts';
import { studyByIdScope } from '../../lib/client-scope.ts';
import { errors } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import type { AnalyticsRepository, MetricRecord } from '../analytics/analytics.repository.ts';
import { s } from '../search/search-filters.ts';
import {
  fragranceResponse,
  poolingGroupsOf,
  type ScoredTest,
  type SumsByMetric,
} from './fragrance.presenter.ts';
import type { FragranceRepository } from './fragrance.repository.ts';

type MainMetric = MetricRecord & { name: (typeof FRAGRANCE_TEST_METRICS)[number] };

export function createFragranceService(deps: {
  fragrances: FragranceRepository;
  analytics: Pick<AnalyticsRepository, 'metrics' | 'answerSums'>;
}) {
  const { fragrances, analytics } = deps;
  let catalogue: Promise<MainMetric[]> | null = null;
  /** The catalogue records of the main metrics, read once (a failed read is tried again). */
  const mainMetrics = () =>
    (catalogue ??= analytics
      .metrics()
      .then((list) =>
        FRAGRANCE_TEST_METRICS.flatMap((name) =>
          list.filter((metric): metric is MainMetric => metric.name === name),
        ),
      )
      .catch((error: unknown) => {
        catalogue = null;
        throw error;
      }));

  return {
    /**
     * Every test of the code the user may see, pooled within one category and methodology (the
     * query's, or the one with the most verified studies), or, as the analyst widens the pool, every
     * methodology of its category or every verified test; 404 when there is no test, 400 when the
     * query names a group without a verified test.
     */
    async acrossTests(user: AuthUser, code: string, query: FragranceQuery = {}): Promise<FragranceResponse> {
      const tests = await fragrances.tests(code, studyByIdScope(user, s));
      if (tests.length === 0) throw errors.notFound(FRAGRANCE_MESSAGES.notFound);
      const metrics = await mainMetrics();
      const byId = new Map(metrics.map((metric) => [metric.id, metric.name]));
      const rows = await analytics.answerSums(
        tests.map((test) => test.productId),
        metrics.map((metric) => metric.id),
        [],
        [],
      );
      const sums = new Map<number, SumsByMetric>();
      for (const row of rows) {
        const name = byId.get(row.metricId);
        if (!name) continue;
        const entry = sums.get(row.productId) ?? {};
        entry[name] = row;
        sums.set(row.productId, entry);
      }
      const scored: ScoredTest[] = tests.map((record) => ({
        record,
        sums: sums.get(record.productId) ?? {},
      }));
      const pool = query.pool ?? 'group';
      const groups = poolingGroupsOf(scored);
      let chosen: FragrancePoolingGroup | null = null;
      if (pool === 'category' && query.category !== undefined && query.methodology === undefined) {
        // Every methodology of a category: the category alone names it (its largest group first).
        chosen = groups.find((group) => group.category === query.category) ?? null;
        if (!chosen) throw errors.badRequest(FRAGRANCE_MESSAGES.unknownGroup);
      } else if (query.category !== undefined || query.methodology !== undefined) {
        chosen =
          groups.find(
            (group) =>
              group.category === (query.category ?? null) &&
              group.methodology === (query.methodology ?? null),
          ) ?? null;
        if (!chosen) throw errors.badRequest(FRAGRANCE_MESSAGES.unknownGroup);
      }
      return fragranceResponse(code, scored, metrics, chosen, pool);
    },
  };
}

export type FragranceService = ReturnType<typeof createFragranceService>;
