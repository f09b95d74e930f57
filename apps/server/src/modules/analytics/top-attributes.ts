/**
 * The top attributes: each attribute's answers pooled over the fragrances the filters select (or the
 * chosen ones) and the respondents the demographic filters keep, ranked best or worst.
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
import { poolSums, sumsOf, type AnalyticsContext, type SumsTable } from './analytics-context.ts';
import { EMPTY_SUMS, aggregate, type Sums } from './analytics-metrics.ts';
import type { MetricRecord } from './analytics-types.ts';
import { respondentConditions } from './analytics.repository.ts';

/** A top attributes request as its schema parses it. */
export type ParsedTopAttributesRequest = z.output<typeof TopAttributesRequest>;
/** The answer of a top attributes job. */
export type AttributesResult = NonNullable<TopAttributesStatus['result']>['json'];

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
  const outOfScale = await outOfScaleAnswers(productIds, attributes, fingerprintNow);
  const respondentFilter = respondentConditions(request.q.demographics ?? {}, request.demographics);
  // Without respondent filters pooled from the statistics kept in memory (out-of-scale answers
  // dropped where there are some); with them in the database, per product only where there are
  // out-of-scale answers to drop.
  let pooledOf: (metric: MetricRecord) => Sums;
  let productSums: SumsTable | null = null;
  if (respondentFilter.length === 0 || outOfScale.length > 0) {
    const sums = await loadSums(
      productIds,
      attributes,
      respondentFilter,
      new Set(outOfScale.map((row) => row.productId)),
      fingerprintNow,
    );
    productSums = sums;
    pooledOf = (metric) => poolSums(sums, productIds, metric.id);
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
  const sums = productSums;
  const fragrances = sums
    ? productIds.filter((id) => listedIds.some((metricId) => sumsOf(sums, id, metricId).n > 0)).length
    : await analytics.productsWithAnswers(productIds, listedIds, respondentFilter);
  return { attributes: rows, fragrances };
}
