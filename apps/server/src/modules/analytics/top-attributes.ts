/**
 * The top attributes: each attribute's answers pooled over the fragrances the filters select (or the
 * chosen ones) and the respondents the demographic filters keep, ranked best or worst.
 *
 * Without respondent filters the pooled statistics of every attribute are kept with the product
 * list they were pooled over (the list the context keeps per selection, client scope and data
 * version, so a new version or another scope brings another list): the order, aggregation, type and
 * count of a call then only rank what is kept, instead of adding up every product's statistics of
 * every attribute again (tens of milliseconds at library scale, at each call).
 */
import {
  ANALYTICS_MESSAGES,
  type ParsedStudySearchQuery,
  type TopAttributesRequest,
  type TopAttributesStatus,
} from '@accord/contracts';
import type { z } from 'zod';
import { errors } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { sumsOf, type AnalyticsContext, type SumsTable } from './analytics-context.ts';
import { EMPTY_SUMS, addSumsInto, aggregate, type Sums } from './analytics-metrics.ts';
import type { MetricRecord, ProductRecord } from './analytics-types.ts';
import { respondentConditions } from './analytics.repository.ts';

/** A top attributes request as its schema parses it. */
export type ParsedTopAttributesRequest = z.output<typeof TopAttributesRequest>;
/** The answer of a top attributes job. */
export type AttributesResult = NonNullable<TopAttributesStatus['result']>['json'];

/** An attribute pooled over a product list: its statistics, and which products of the list answered it. */
interface PooledAttribute {
  sums: Sums;
  /** 1 at the position of each product of the list with an answer (in scale) to the attribute. */
  answered: Uint8Array;
}

/**
 * The attributes of a type pooled over a product list without respondent filters, by metric id: kept
 * while the list is (a list belongs to one selection, scope and data version).
 */
const pooledByList = new WeakMap<
  readonly ProductRecord[],
  Map<ParsedTopAttributesRequest['data']['attribute_type'], Promise<Map<number, PooledAttribute>>>
>();

/** Each attribute's statistics added up over the products, in the list's order, and who answered. */
function poolAttributes(
  sums: SumsTable,
  productIds: readonly number[],
  attributes: readonly MetricRecord[],
): Map<number, PooledAttribute> {
  const pooled = new Map<number, PooledAttribute>();
  for (const metric of attributes) {
    const total: Sums = { ...EMPTY_SUMS };
    const answered = new Uint8Array(productIds.length);
    productIds.forEach((productId, position) => {
      const part = sumsOf(sums, productId, metric.id);
      addSumsInto(total, part);
      if (part.n > 0) answered[position] = 1;
    });
    pooled.set(metric.id, { sums: total, answered });
  }
  return pooled;
}

/** How many products of a list of `length` answered any of the metrics (of the pooled ones). */
function answeringIn(
  pooled: Map<number, PooledAttribute>,
  metricIds: readonly number[],
  length: number,
): number {
  const marks = new Uint8Array(length);
  for (const metricId of metricIds) {
    const answered = pooled.get(metricId)?.answered;
    if (answered)
      for (let position = 0; position < length; position++) marks[position]! |= answered[position]!;
  }
  let count = 0;
  for (const mark of marks) count += mark;
  return count;
}

/**
 * Whether a call is pooled from the statistics in memory (no respondent filter): answered within its
 * POST, like a metric search summed in memory.
 */
export const attributesInMemory = (request: ParsedTopAttributesRequest): boolean =>
  respondentConditions(request.q.demographics ?? {}, request.demographics).length === 0;

/**
 * The attributes of the fragrances the filters select (or the chosen ones): each attribute's answers
 * pooled over the fragrances and respondents kept, ranked by the aggregation, best or worst first;
 * scale attributes first, then the yes/no ones ranked apart by their share selected (each list up to
 * `count`).
 */
export async function computeTopAttributes(
  context: AnalyticsContext,
  user: AuthUser,
  request: ParsedTopAttributesRequest,
  fingerprintNow: string,
): Promise<AttributesResult> {
  const { analytics, compileFor, scopeOf, productsOf, metricCatalogue, outOfScaleAnswers, loadSums } =
    context;
  const compiled = compileFor(user, request.q as ParsedStudySearchQuery);
  const chosenIds = request.frags ? [...new Set(request.frags.map((entry) => entry.id))] : null;
  // The product list is kept per selection while the data is unchanged (at library scale its query
  // costs more than the pooling after it), keyed by the study filters alone as the metric search
  // keys it, so the two share a list: the respondent filters do not change which products it holds.
  const { essentials, fragranceDetails, conceptDetails, methodology } = request.q;
  const productList = await productsOf(
    user,
    { essentials, fragranceDetails, conceptDetails, methodology },
    { compiled, kind: 'fragrance', rdfType: request.q.metrics?.rdfType ?? 'all', productIds: chosenIds },
    fingerprintNow,
  );
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
  const respondentFilter = respondentConditions(request.q.demographics ?? {}, request.demographics);
  // Without respondent filters pooled from the statistics kept in memory (out-of-scale answers
  // dropped where there are some), once per product list and attribute type; with them in the
  // database, per product only where there are out-of-scale answers to drop.
  let pooledOf: (metric: MetricRecord) => Sums;
  /** How many products answered any of the metrics (under the respondent filters). */
  let answeringProducts: (metricIds: number[]) => Promise<number>;
  if (respondentFilter.length === 0) {
    const byType = pooledByList.get(productList) ?? new Map();
    pooledByList.set(productList, byType);
    let pooling = byType.get(type);
    if (!pooling) {
      pooling = (async () => {
        const outOfScale = await outOfScaleAnswers(productIds, attributes, fingerprintNow);
        const sums = await loadSums(
          productIds,
          attributes,
          respondentFilter,
          new Set(outOfScale.map((row) => row.productId)),
          fingerprintNow,
        );
        return poolAttributes(sums, productIds, attributes);
      })();
      byType.set(type, pooling);
      // A failed read is tried again by the next call.
      pooling.catch(() => byType.delete(type));
    }
    const pooled = await pooling;
    pooledOf = (metric) => pooled.get(metric.id)?.sums ?? EMPTY_SUMS;
    answeringProducts = async (metricIds) => answeringIn(pooled, metricIds, productIds.length);
  } else {
    const outOfScale = await outOfScaleAnswers(productIds, attributes, fingerprintNow);
    if (outOfScale.length > 0) {
      const sums = await loadSums(
        productIds,
        attributes,
        respondentFilter,
        new Set(outOfScale.map((row) => row.productId)),
        fingerprintNow,
      );
      const pooled = poolAttributes(sums, productIds, attributes);
      pooledOf = (metric) => pooled.get(metric.id)?.sums ?? EMPTY_SUMS;
      answeringProducts = async (metricIds) => answeringIn(pooled, metricIds, productIds.length);
    } else {
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
      answeringProducts = (metricIds) =>
        analytics.productsWithAnswers(productIds, metricIds, respondentFilter);
    }
  }
  // Yes/no (CATA) attributes are shares "% selected", never means or boxes, and are ranked apart from
  // the scale attributes (METRICS.md section 3): a bottom aggregation ranks them by the share not
  // selecting them.
  const bottom = aggregation === 'bottom_2_box' || aggregation === 'bottom_box';
  const scored = attributes
    .map((metric) => {
      const pooled = pooledOf(metric);
      const binary = metric.kind === 'binary';
      const scale = (name: typeof aggregation) => (binary ? null : aggregate(pooled, name, metric.kind));
      const selected = binary ? aggregate(pooled, 'top_box', metric.kind) : null;
      return {
        attribute: metric.label,
        field: metric.name,
        top_2_box: scale('top_2_box'),
        bottom_2_box: scale('bottom_2_box'),
        mean: scale('mean'),
        top_box: scale('top_box'),
        bottom_box: scale('bottom_box'),
        selected,
        is_binary_scale: binary,
        n: pooled.n,
      };
    })
    .filter((row) => row.n > 0);
  const rankValue = (row: (typeof scored)[number]) =>
    row.is_binary_scale ? (bottom ? 1 - row.selected! : row.selected!) : row[aggregation]!;
  const ranked = (list: typeof scored) =>
    list
      .sort((left, right) => {
        const a = rankValue(left);
        const b = rankValue(right);
        if (a === b) return left.field.localeCompare(right.field);
        return order === 'best' ? b - a : a - b;
      })
      .slice(0, count);
  const rows = [
    ...ranked(scored.filter((row) => !row.is_binary_scale)),
    ...ranked(scored.filter((row) => row.is_binary_scale)),
  ];
  // "Pooled over N fragrances": the fragrances with answers to a listed attribute under the
  // respondent filters, not every fragrance selected.
  const listed = new Set(rows.map((row) => row.field));
  const listedIds = attributes.filter((metric) => listed.has(metric.name)).map((metric) => metric.id);
  return { attributes: rows, fragrances: await answeringProducts(listedIds) };
}
