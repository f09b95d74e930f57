/**
 * The statistics of the significance job (significance.ts), apart from the loading of its data: per
 * product and chosen metric, a respondent-clustered test against the rest of the list or its average
 * (METRICS.md section 2), then one multiplicity correction across every test of the Calculate. Pure,
 * so that it runs in a worker thread for long lists and on the request loop for short ones, with one
 * answer.
 */
import {
  CLUSTERED_SHARE_TESTS,
  CLUSTERED_TESTS,
  LOW_BASE,
  SIGNIFICANCE_NOT_TESTED,
  type Aggregation,
  type ParsedSignificanceRequest,
  type SignificanceCorrection,
  type SignificanceStatus,
} from '@accord/contracts';
import {
  ANALYTICS_LEVELS,
  benjaminiHochbergAdjust,
  classifySignificance,
  clusterAverageTestsOn,
  clusterLayout,
  clusterRestTestsOn,
  type ClusterLayout,
  type ClusterTestResult,
} from '@accord/stats';
import { isShare } from './analytics-metrics.ts';
import type { MetricRecord } from './analytics-types.ts';
import type { RespondentCells } from './respondent-cells.ts';
import { BOX_BITS, indexedSumsOf, type BoxColumn, type IndexedCells } from './respondent-sums.ts';

/** One column of the answer: a metric and aggregation with confidence on. */
export interface SignificanceTest {
  /** The answer's key, `metric.aggregation.confidence`. */
  key: string;
  metricId: number;
  kind: MetricRecord['kind'];
  aggregation: Aggregation;
}

/** What the tests need: the products (in answer order, distinct), the tests, each respondent's sums. */
export interface SignificanceInput {
  calculation: ParsedSignificanceRequest['calculation'];
  correction: SignificanceCorrection;
  productIds: ArrayLike<number>;
  tests: readonly SignificanceTest[];
  /** Per metric id: each respondent's sums per product of the list, under the respondent filters. */
  cells: ReadonlyMap<number, RespondentCells>;
  /**
   * Per metric id, instead: the listed cells of the metric's respondent index (respondent-sums.ts),
   * whose sums each test reads from the index itself (in a worker thread too: the index and the
   * cells made for a thread are on shared memory, so they cross without a copy).
   */
  indexed?: ReadonlyMap<number, IndexedCells>;
}

/** The job's result: the significance of every product for every test. */
export type SignificanceResult = NonNullable<SignificanceStatus['result']>;

/** The 0/1 indicator count of a box aggregation in the cells, at one cell. */
function boxColumn(aggregation: Aggregation): BoxColumn | null {
  switch (aggregation) {
    case 'top_box':
    case 'hi_yes':
      return 'nTopBox';
    case 'top_2_box':
    case 'irt_yes':
      return 'nTop2Box';
    case 'just_right':
      return 'nJustRight';
    case 'bottom_2_box':
    case 'irt_no':
      return 'nBottom2Box';
    case 'bottom_box':
    case 'hi_no':
      return 'nBottomBox';
    default:
      return null;
  }
}

/**
 * The 0/1 column a yes/no (CATA) test reads: selected (5 of 1 or 5) for the mean and the top boxes,
 * not selected for the bottom boxes, as the column's share (yesNoShare); null for the variance and
 * the neutral share, which a yes/no answer has not.
 */
function yesNoColumn(aggregation: Aggregation): BoxColumn | null {
  if (aggregation === 'mean' || aggregation === 'top_box' || aggregation === 'top_2_box') return 'nTopBox';
  if (aggregation === 'bottom_box' || aggregation === 'bottom_2_box') return 'nBottomBox';
  return null;
}

/**
 * The box column a test reads (its sum and sum of squares are the 0/1 counts), or null for the
 * answers themselves: for a yes/no metric the selection whatever the aggregation, for a share its
 * box, for a mean (and a variance, tested on its mean) none.
 */
function testBox(aggregation: Aggregation, kind: MetricRecord['kind']): BoxColumn | null {
  if (kind === 'binary') return yesNoColumn(aggregation);
  return isShare(aggregation) ? boxColumn(aggregation) : null;
}

/**
 * The cells of one metric that fall in the list: their product indexes, respondents and counts, laid
 * out once for every test of the metric.
 */
interface ListedCells {
  product: Int32Array;
  cluster: Int32Array;
  n: Int32Array;
  /** Positions of the listed cells in the metric's cells; null when every cell is listed. */
  kept: Int32Array | null;
  layout: ClusterLayout;
}

/**
 * The cells of a metric's products in the list, products as indexes into it; shared by every test
 * of the metric. Both reads give only listed products, so the columns are the cells' own.
 */
function listedCellsOf(
  cells: RespondentCells,
  indexOf: ReadonlyMap<number, number>,
): Omit<ListedCells, 'layout'> {
  const count = cells.product.length;
  const product = new Int32Array(count);
  const kept = new Int32Array(count);
  let listed = 0;
  // Cells come grouped by product (both reads): one lookup per run of a product.
  let runProduct = Number.NaN;
  let index: number | undefined;
  for (let at = 0; at < count; at++) {
    if (cells.product[at] !== runProduct) {
      runProduct = cells.product[at]!;
      index = indexOf.get(runProduct);
    }
    if (index === undefined) continue;
    product[listed] = index;
    kept[listed++] = at;
  }
  if (listed === count) return { product, cluster: cells.respondent, n: cells.n, kept: null };
  const pick = (column: Int32Array) => Int32Array.from(kept.subarray(0, listed), (at) => column[at]!);
  return {
    product: product.slice(0, listed),
    cluster: pick(cells.respondent),
    n: pick(cells.n),
    kept: kept.slice(0, listed),
  };
}

/**
 * The sums of one test per listed cell: harmonised answers for means (a variance column is tested on
 * its mean, as before), 0/1 box indicators for shares (sum = sum of squares = answers in the box),
 * and for a yes/no metric the 0/1 selection whatever the aggregation (its share is tested, never a
 * mean).
 */
function testSumsOf(
  cells: RespondentCells,
  listed: ListedCells,
  aggregation: Aggregation,
  kind: MetricRecord['kind'],
): { sum: Float64Array; sumSq: Float64Array } {
  const boxName = testBox(aggregation, kind);
  const box = boxName ? cells[boxName] : null;
  const { kept } = listed;
  const pick = (column: Int32Array | Float64Array): Float64Array =>
    kept
      ? Float64Array.from(kept, (at) => column[at]!)
      : column instanceof Float64Array
        ? column
        : Float64Array.from(column);
  const sum = pick(box ?? cells.sum);
  return { sum, sumSq: box ? sum : pick(cells.sumSq) };
}

const NO_SUMS = new Float64Array(0);

interface Mark {
  level: number | null;
  table: 'mt' | 'let' | null;
  test: string;
  p_value: number | null;
  n: number;
  adjusted_p_value: number | null;
  correction: SignificanceCorrection;
  not_tested: string | null;
}

/**
 * Tests every product against the rest (rest) or the average (avg) of the list, per test, clustered by
 * respondent; products under LOW_BASE answers are not tested. The levels read the p-values adjusted
 * across every test of the call (Benjamini-Hochberg) unless the correction is none.
 */
export function significanceOf(input: SignificanceInput): SignificanceResult {
  const { calculation, correction, tests } = input;
  const productIds = Array.from(input.productIds);
  const indexOf = new Map(productIds.map((id, index) => [id, index]));
  const rows: Record<string, unknown>[] = productIds.map((id) => ({ id }));
  // The family of the correction: every (product, test) with a p-value.
  const family: { mark: Mark; result: ClusterTestResult }[] = [];
  const listedByMetric = new Map<number, ListedCells>();
  const indexedLayouts = new Map<number, ClusterLayout>();
  for (const entry of tests) {
    const test = (entry.kind === 'binary' ? CLUSTERED_SHARE_TESTS : CLUSTERED_TESTS)[calculation];
    const indexed = input.indexed?.get(entry.metricId);
    let indexedLayout = indexed ? indexedLayouts.get(entry.metricId) : undefined;
    if (indexed && !indexedLayout) {
      indexedLayout = clusterLayout(
        { product: indexed.product, cluster: indexed.respondent, n: indexed.n },
        productIds.length,
      );
      indexedLayouts.set(entry.metricId, indexedLayout);
    }
    const metricCells = indexed ? undefined : input.cells.get(entry.metricId);
    let listed = metricCells ? listedByMetric.get(entry.metricId) : undefined;
    if (metricCells && !listed) {
      const cells = listedCellsOf(metricCells, indexOf);
      listed = { ...cells, layout: clusterLayout(cells, productIds.length) };
      listedByMetric.set(entry.metricId, listed);
    }
    const layout =
      indexedLayout ??
      listed?.layout ??
      clusterLayout({ product: [], cluster: [], n: [] }, productIds.length);
    const box = testBox(entry.aggregation, entry.kind);
    const { sum, sumSq } = indexed
      ? indexedSumsOf(indexed, box ? BOX_BITS[box] : null)
      : metricCells && listed
        ? testSumsOf(metricCells, listed, entry.aggregation, entry.kind)
        : { sum: NO_SUMS, sumSq: NO_SUMS };
    const results =
      calculation === 'rest'
        ? clusterRestTestsOn(layout, sum, sumSq)
        : clusterAverageTestsOn(layout, sum, sumSq);
    results.forEach((result, at) => {
      const lowBase = result.n < LOW_BASE;
      const mark: Mark = {
        level: null,
        table: null,
        test,
        p_value: null,
        n: result.n,
        adjusted_p_value: null,
        correction,
        not_tested: lowBase
          ? SIGNIFICANCE_NOT_TESTED.lowBase
          : result.testable
            ? null
            : SIGNIFICANCE_NOT_TESTED.noVariance,
      };
      if (!lowBase && result.testable) {
        mark.p_value = result.pValue;
        family.push({ mark, result });
      }
      rows[at]![entry.key] = mark;
    });
  }
  const raw = family.map(({ result }) => result.pValue);
  const adjusted = correction === 'benjamini_hochberg' ? benjaminiHochbergAdjust(raw) : raw;
  family.forEach(({ mark, result }, index) => {
    const p = adjusted[index]!;
    mark.adjusted_p_value = p;
    const significance = classifySignificance(p, result.difference, ANALYTICS_LEVELS);
    mark.level = significance?.level ?? null;
    mark.table = significance?.direction ?? null;
  });
  return { calculation, correction, results: rows as unknown as SignificanceResult['results'] };
}
