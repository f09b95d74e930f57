/**
 * Norms (METRICS.md section 5): the distribution of product scores over a base of library products,
 * and a product's percentile rank within it.
 *
 * - A product's score is the metric search's own number (AnalyticsService.productScores: stored
 *   statistics, out-of-scale answers dropped), one per product; products without a score are not in
 *   the norm. Percentiles are numpy's linear method (`percentiles` of @accord/stats).
 * - A norm is an anonymous aggregate of the whole library's verified studies, read by every signed-in
 *   user whatever their client scope; it is shown only when the products with a score come from at
 *   least NORM_RULE.studies studies of at least NORM_RULE.clients clients. Otherwise it is withheld
 *   (200 with the reason; its counts only for staff, who see every study anyway). No answer ever names
 *   a product, study or client of the base: only counts, percentiles and bins leave.
 * - Norms are kept in memory per base, metric and aggregation while the data's change counters
 *   (data_versions) are unchanged, so a lookup from a profile reads one fingerprint and no other row.
 */
import {
  AGGREGATION_NAMES,
  AGGREGATIONS_BY_METRIC_KIND,
  OFFERED_AGGREGATIONS_BY_METRIC_KIND,
  ANALYTICS_MESSAGES,
  NORM_MESSAGES,
  NORM_RULE,
  isClientScopedRole,
  type Aggregation,
  type NormBin,
  type NormOptionsResponse,
  type NormRankResponse,
  type NormResponse,
  type ParsedNormQuery,
  type ParsedNormRankQuery,
  yesNoAggregationLabel,
} from '@accord/contracts';
import { mean, percentileRank, percentiles } from '@accord/stats';
import { studyByIdScope } from '../../lib/client-scope.ts';
import { errors } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { createFingerprintCache } from '../analytics/analytics-cache.ts';
import { isShare } from '../analytics/analytics-metrics.ts';
import type { MetricRecord } from '../analytics/analytics.repository.ts';
import type { AnalyticsService } from '../analytics/analytics.service.ts';
import { s } from '../search/search-filters.ts';
import { describeBase, histogram, normLines, percentileRecord } from './norm-shape.ts';
import type { BaseFilters, NormsRepository } from './norms.repository.ts';

/** Norms kept in memory (one per base, metric and aggregation looked up). */
const NORM_CACHE_ENTRIES = 500;

/** A norm as computed, before it is shaped for a caller. */
export interface ComputedNorm {
  /** Score per product id of the base (products with a score only). */
  scores: Map<number, number>;
  /** Answers behind each score, per product id. */
  bases: Map<number, number>;
  /** The scores as a list (percentile ranks are read from it). */
  values: number[];
  /** The histogram's bins (kept: a lookup from a profile need not bin the base again). */
  histogram: NormBin[];
  products: number;
  studies: number;
  clients: number;
  /** The years the scored products' studies cover (null without any). */
  years: { from: number; to: number } | null;
  mean: number | null;
  percentiles: number[] | null;
}

/** The base of a query (undefined filters: not narrowed). */
export function baseOf(query: {
  category: string;
  region?: string | undefined;
  product_type?: string | undefined;
  methodology?: string | undefined;
  year_from?: number | undefined;
  year_to?: number | undefined;
  kind: 'fragrance' | 'concept';
}): BaseFilters {
  return {
    category: query.category,
    region: query.region ?? null,
    productType: query.product_type ?? null,
    methodology: query.methodology ?? null,
    yearFrom: query.year_from ?? null,
    yearTo: query.year_to ?? null,
    kind: query.kind,
  };
}

/** Whether a computed norm meets the privacy rule. */
export const meetsRule = (norm: Pick<ComputedNorm, 'studies' | 'clients'>) =>
  norm.studies >= NORM_RULE.studies && norm.clients >= NORM_RULE.clients;

export function createNormsService(deps: { norms: NormsRepository; analytics: AnalyticsService }) {
  const { norms, analytics } = deps;
  const cache = createFingerprintCache<ComputedNorm>(NORM_CACHE_ENTRIES);

  /** The catalogue metric, refusing unknown metrics and aggregations it does not offer (400). */
  async function metricOf(name: string, aggregation: Aggregation): Promise<MetricRecord> {
    const metric = (await analytics.metricCatalogue()).find((candidate) => candidate.name === name);
    if (!metric) {
      const message = ANALYTICS_MESSAGES.unknownMetric(name);
      throw errors.badRequest(message, [{ path: 'metric', message }]);
    }
    // A yes/no metric's norm is a share (selected or not), never a mean of its 1 and 5 (METRICS.md 3).
    const offered =
      AGGREGATIONS_BY_METRIC_KIND[metric.kind].includes(aggregation) &&
      (metric.kind !== 'binary' || isShare(aggregation));
    if (!offered) {
      const message = ANALYTICS_MESSAGES.aggregationNotOffered(aggregation, name);
      throw errors.badRequest(message, [{ path: 'aggregation', message }]);
    }
    return metric;
  }

  async function compute(base: BaseFilters, metric: MetricRecord, aggregation: Aggregation) {
    const found = await norms.baseProducts(base);
    const { values, bases: answers } = await analytics.productScores(found.ids, metric.name, aggregation);
    const scores = new Map<number, number>();
    const bases = new Map<number, number>();
    const studies = new Set<number>();
    const clients = new Set<number>();
    let from = Infinity;
    let to = -Infinity;
    found.ids.forEach((id, position) => {
      const score = values[position]!;
      if (!Number.isFinite(score)) return;
      scores.set(id, score);
      bases.set(id, answers[position]!);
      studies.add(found.studyIds[position]!);
      clients.add(found.clientIndex[position]!);
      from = Math.min(from, found.years[position]!);
      to = Math.max(to, found.years[position]!);
    });
    const list = [...scores.values()];
    return {
      scores,
      bases,
      values: list,
      histogram: histogram(list, isShare(aggregation)),
      products: list.length,
      studies: studies.size,
      clients: clients.size,
      years: list.length > 0 ? { from, to } : null,
      mean: list.length > 0 ? mean(list) : null,
      percentiles: list.length > 0 ? percentiles(list) : null,
    } satisfies ComputedNorm;
  }

  /** The norm of a base, from memory while the data is unchanged. */
  async function computed(base: BaseFilters, metric: MetricRecord, aggregation: Aggregation) {
    const fingerprint = await norms.fingerprint();
    const key = JSON.stringify([base, metric.name, aggregation]);
    return cache.get(key, fingerprint, () => compute(base, metric, aggregation));
  }

  /** The norm as a caller may read it: numbers when the rule is met, else the reason only. */
  function present(
    user: AuthUser,
    base: BaseFilters,
    metric: MetricRecord,
    aggregation: Aggregation,
    norm: ComputedNorm,
  ): NormResponse {
    const staff = !isClientScopedRole(user.roleId);
    const share = isShare(aggregation);
    const chosenYears = { from: base.yearFrom, to: base.yearTo };
    const head = {
      metric: { name: metric.name, label: metric.label, kind: metric.kind },
      aggregation: { value: aggregation, label: AGGREGATION_NAMES[aggregation], share },
    };
    const baseAnswer = (description: string): NormResponse['base'] => ({
      category: base.category,
      region: base.region,
      product_type: base.productType,
      methodology: base.methodology,
      year_from: base.yearFrom,
      year_to: base.yearTo,
      kind: base.kind,
      description,
    });
    const nothing = { mean: null, percentiles: null, histogram: [], lines: [] };
    if (norm.products === 0) {
      return {
        status: 'empty',
        reason: `No ${base.kind} of this base has a score on ${metric.label} (${AGGREGATION_NAMES[aggregation]}).`,
        base: baseAnswer(describeBase(base, chosenYears, null)),
        ...head,
        products: 0,
        studies: 0,
        clients: 0,
        ...nothing,
      };
    }
    if (!meetsRule(norm)) {
      // Only the years the caller chose: the years the base covers could date a single study.
      return {
        status: 'withheld',
        reason: NORM_MESSAGES.withheld,
        base: baseAnswer(describeBase(base, chosenYears, null)),
        ...head,
        products: staff ? norm.products : null,
        studies: staff ? norm.studies : null,
        clients: staff ? norm.clients : null,
        ...nothing,
      };
    }
    const years = {
      from: base.yearFrom ?? norm.years!.from,
      to: base.yearTo ?? norm.years!.to,
    };
    const record = percentileRecord(norm.percentiles!);
    return {
      status: 'available',
      reason: null,
      base: baseAnswer(describeBase(base, years, norm)),
      ...head,
      products: norm.products,
      studies: norm.studies,
      clients: norm.clients,
      mean: norm.mean,
      percentiles: record,
      histogram: norm.histogram,
      lines: normLines(record, aggregation),
    };
  }

  return {
    /** A norm for any signed-in user (withheld when its base is too small). */
    async norm(user: AuthUser, query: ParsedNormQuery): Promise<NormResponse> {
      const metric = await metricOf(query.metric, query.aggregation);
      const base = baseOf(query);
      return present(user, base, metric, query.aggregation, await computed(base, metric, query.aggregation));
    },

    /** A product of the caller's scope within a base (by default its own category norm). */
    async rank(user: AuthUser, query: ParsedNormRankQuery): Promise<NormRankResponse> {
      const metric = await metricOf(query.metric, query.aggregation);
      const which =
        query.product_id !== undefined
          ? { id: query.product_id }
          : { studyId: query.study_id!, code: query.code!, kind: query.kind ?? ('fragrance' as const) };
      const product = await norms.product(which, studyByIdScope(user, s));
      if (!product) throw errors.notFound(NORM_MESSAGES.noSuchProduct);
      const category = query.category ?? product.category;
      if (category === null) {
        throw errors.badRequest(NORM_MESSAGES.noCategory, [
          { path: 'category', message: NORM_MESSAGES.noCategory },
        ]);
      }
      const base = baseOf({ ...query, category, kind: query.kind ?? product.kind });
      const norm = await computed(base, metric, query.aggregation);
      // The product's own number, whether or not it lies in the base (the same computation either way).
      let score = norm.scores.get(product.id) ?? null;
      let n = norm.bases.get(product.id) ?? 0;
      if (score === null) {
        const own = await analytics.productScores([product.id], metric.name, query.aggregation);
        score = Number.isFinite(own.values[0]) ? own.values[0]! : null;
        n = own.bases[0]!;
      }
      const answer = present(user, base, metric, query.aggregation, norm);
      return {
        product: { id: product.id, code: product.code, name: product.name, kind: product.kind, score, n },
        rank: answer.status === 'available' && score !== null ? percentileRank(norm.values, score) : null,
        norm: answer,
      };
    },

    /** The metrics with their aggregations, and the values the base's filters offer. */
    async options(): Promise<NormOptionsResponse> {
      const [catalogue, found] = await Promise.all([analytics.metricCatalogue(), norms.options()]);
      return {
        metrics: catalogue.map((metric) => ({
          name: metric.name,
          label: metric.label,
          type: metric.metricType,
          kind: metric.kind,
          aggregations: OFFERED_AGGREGATIONS_BY_METRIC_KIND[metric.kind].map((value) => ({
            value,
            label:
              (metric.kind === 'binary' ? yesNoAggregationLabel(value) : null) ?? AGGREGATION_NAMES[value],
          })),
        })),
        categories: found.categories,
        regions: found.regions,
        product_types: found.productTypes,
        methodologies: found.methodologies,
        years: found.years,
      };
    },
  };
}

export type NormsService = ReturnType<typeof createNormsService>;
