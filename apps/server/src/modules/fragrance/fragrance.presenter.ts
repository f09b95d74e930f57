/**
 * What leaves the server about a fragrance across its tests: each test's scores (the aggregations of
 * the metric search over the same sufficient statistics), the DerSimonian-Laird pooling of the study
 * means per metric, and the answers summed by market and by year.
 */
import {
  FRAGRANCE_MESSAGES,
  FRAGRANCE_POOL_CAUTIONS,
  FRAGRANCE_POOL_LABELS,
  type FragrancePoolScope,
  FRAGRANCE_POOLED_METRICS,
  FRAGRANCE_TEST_METRICS,
  type FragranceGroup,
  type FragrancePooledMetric,
  type FragrancePoolingGroup,
  type FragrancePooled,
  type FragranceResponse,
  type FragranceScores,
  type FragranceTest,
  type FragranceTestMetric,
  type FragranceTestScore,
} from '@accord/contracts';
import { metaHksj } from '@accord/stats';
import { addSums, aggregate, EMPTY_SUMS, type Sums } from '../analytics/analytics-metrics.ts';
import type { MetricRecord } from '../analytics/analytics.repository.ts';
import type { FragranceTestRecord } from './fragrance.repository.ts';

/** A metric's sufficient statistics per metric name (metrics without answers absent). */
export type SumsByMetric = Partial<Record<FragranceTestMetric, Sums>>;

/** A test with the summed answers of its product per metric. */
export interface ScoredTest {
  record: FragranceTestRecord;
  sums: SumsByMetric;
}

const finiteOrNull = (value: number | null) => (value !== null && Number.isFinite(value) ? value : null);

/** One metric's score from its sums: the mean, sd, top 2 box and just right share, and the base. */
export function scoreOf(sums: Sums, kind: MetricRecord['kind']): FragranceTestScore {
  const variance = aggregate(sums, 'variance', kind);
  return {
    mean: aggregate(sums, 'mean', kind),
    sd: variance === null ? null : Math.sqrt(variance),
    top_2_box: aggregate(sums, 'top_2_box', kind),
    just_right: aggregate(sums, 'just_right', kind),
    bottom_2_box: aggregate(sums, 'bottom_2_box', kind),
    n: sums.n,
  };
}

/** The scores of every metric with answers. */
export function scoresOf(sums: SumsByMetric, kinds: Map<FragranceTestMetric, MetricRecord>): FragranceScores {
  const scores: FragranceScores = {};
  for (const metric of FRAGRANCE_TEST_METRICS) {
    const found = sums[metric];
    const record = kinds.get(metric);
    if (found && found.n > 0 && record) scores[metric] = scoreOf(found, record.kind);
  }
  return scores;
}

/** Sums of several parts per metric (a study's products, a market's tests). */
export function addByMetric(parts: readonly SumsByMetric[]): SumsByMetric {
  const total: SumsByMetric = {};
  for (const part of parts)
    for (const metric of FRAGRANCE_TEST_METRICS) {
      const found = part[metric];
      if (found) total[metric] = addSums(total[metric] ?? { ...EMPTY_SUMS }, found);
    }
  return total;
}

/**
 * The random-effects pooling of one metric over the studies: each study's mean with variance sd²/n
 * (a study testing the code twice counts once, with the answers of both products), the DerSimonian-
 * Laird estimate with its Hartung-Knapp-Sidik-Jonkman interval and, from three studies, the prediction
 * interval for a new test. With fewer than two studies there is nothing to pool: k and nulls.
 */
export function pooledOf(
  metric: MetricRecord & { name: FragrancePooledMetric },
  studies: readonly SumsByMetric[],
): FragrancePooled {
  const summaries = studies.flatMap((study) => {
    const sums = study[metric.name];
    if (!sums || sums.n < 2) return [];
    const variance = aggregate(sums, 'variance', metric.kind);
    return [{ mean: sums.sum / sums.n, sd: Math.sqrt(variance ?? Number.NaN), n: sums.n }];
  });
  const result = metaHksj(summaries);
  const none = result.k < 2;
  const value = (number: number) => (none ? null : finiteOrNull(number));
  return {
    metric: metric.name,
    label: metric.label,
    k: result.k,
    estimate: value(result.estimate),
    std_error: value(result.stdError),
    ci_low: value(result.ciLow),
    ci_high: value(result.ciHigh),
    hk_std_error: value(result.hkStdError),
    hk_ci_low: value(result.hkCiLow),
    hk_ci_high: value(result.hkCiHigh),
    pi_low: value(result.piLow),
    pi_high: value(result.piHigh),
    tau2: value(result.tau2),
    q: value(result.q),
    i2: value(result.i2),
  };
}

/** A test's category and methodology as one key. */
const groupKey = (record: Pick<FragranceTestRecord, 'category' | 'methodology'>) =>
  JSON.stringify([record.category, record.methodology]);

/** The categories and methodologies of the verified tests, most verified studies first. */
export function poolingGroupsOf(tests: readonly ScoredTest[]): FragrancePoolingGroup[] {
  const groups = new Map<string, { group: FragrancePoolingGroup; studies: Set<number> }>();
  for (const { record } of tests) {
    if (!record.verified) continue;
    const key = groupKey(record);
    const entry = groups.get(key) ?? {
      group: { category: record.category, methodology: record.methodology, studies: 0 },
      studies: new Set<number>(),
    };
    entry.studies.add(record.studyId);
    groups.set(key, entry);
  }
  // Ties keep the order of the tests (latest first): the group of the latest test wins.
  return [...groups.values()]
    .map(({ group, studies }) => ({ ...group, studies: studies.size }))
    .sort((left, right) => right.studies - left.studies);
}

/** Tests summed per key, in the order given by `order`. */
function groupsOf(
  tests: readonly ScoredTest[],
  keyOf: (test: FragranceTestRecord) => string | null,
  kinds: Map<FragranceTestMetric, MetricRecord>,
  order: (left: FragranceGroup, right: FragranceGroup) => number,
): FragranceGroup[] {
  const groups = new Map<string, ScoredTest[]>();
  for (const test of tests) {
    const key = keyOf(test.record);
    if (key === null) continue;
    const list = groups.get(key);
    if (list) list.push(test);
    else groups.set(key, [test]);
  }
  return [...groups]
    .map(([key, list]) => ({
      key,
      tests: new Set(list.map((test) => test.record.studyId)).size,
      scores: scoresOf(addByMetric(list.map((test) => test.sums)), kinds),
    }))
    .sort(order);
}

/**
 * The page's answer from the scored tests (latest first) and the catalogue's main metrics, pooling the
 * verified tests of one category and methodology (`chosen`, or the group with the most studies), or
 * as the pool is widened every methodology of its category (`category`) or every verified test
 * (`all`), with the caution a widened pool carries.
 */
export function fragranceResponse(
  code: string,
  tests: readonly ScoredTest[],
  metrics: readonly (MetricRecord & { name: FragranceTestMetric })[],
  chosen: FragrancePoolingGroup | null = null,
  pool: FragrancePoolScope = 'group',
): FragranceResponse {
  const kinds = new Map(metrics.map((metric) => [metric.name, metric]));
  const latest = tests[0]!.record;
  const groups = poolingGroupsOf(tests);
  const group = chosen ?? groups[0] ?? null;
  const inGroup = (record: FragranceTestRecord) =>
    record.verified &&
    group !== null &&
    (pool === 'all' ||
      (pool === 'category' ? record.category === group.category : groupKey(record) === groupKey(group)));
  // The pooled estimates count verified studies of the group, as the analytics do; one entry per study.
  const pooledTests = tests.filter((test) => inGroup(test.record));
  const byStudy = new Map<number, SumsByMetric[]>();
  for (const test of pooledTests) {
    const list = byStudy.get(test.record.studyId);
    if (list) list.push(test.sums);
    else byStudy.set(test.record.studyId, [test.sums]);
  }
  const studySums = [...byStudy.values()].map(addByMetric);
  const pooledMetrics = FRAGRANCE_POOLED_METRICS.flatMap((name) =>
    metrics.filter(
      (metric): metric is MetricRecord & { name: FragrancePooledMetric } => metric.name === name,
    ),
  );
  return {
    code,
    name: latest.name,
    family: latest.family,
    subfamily: latest.subfamily,
    perfumer_name: latest.perfumerName,
    tests: tests.map(({ record, sums }): FragranceTest => {
      const scores = scoresOf(sums, kinds);
      const pooled = inGroup(record);
      return {
        study_id: record.studyId,
        c_mi_number: record.cMiNumber,
        project_name: record.projectName,
        client: record.client,
        year: record.year,
        region: record.region,
        market: record.market,
        methodology: record.methodology,
        category: record.category,
        product_type: record.productType,
        prod: record.prod,
        name: record.name,
        verified: record.verified,
        pooled,
        not_pooled_reason: pooled
          ? null
          : record.verified
            ? pool === 'category'
              ? FRAGRANCE_MESSAGES.otherCategory
              : FRAGRANCE_MESSAGES.otherGroup
            : FRAGRANCE_MESSAGES.notPooled,
        base: Math.max(0, ...Object.values(scores).map((score) => score.n)),
        scores,
      };
    }),
    pooling_group: group,
    pooling_groups: groups,
    pool,
    pool_label: FRAGRANCE_POOL_LABELS[pool],
    pool_caution: FRAGRANCE_POOL_CAUTIONS[pool],
    pooled: pooledMetrics.map((metric) => pooledOf(metric, studySums)),
    by_market: groupsOf(
      pooledTests,
      (record) => record.market,
      kinds,
      (left, right) => right.tests - left.tests || left.key.localeCompare(right.key),
    ),
    by_year: groupsOf(
      pooledTests,
      (record) => String(record.year),
      kinds,
      (left, right) => Number(left.key) - Number(right.key),
    ),
  };
}
