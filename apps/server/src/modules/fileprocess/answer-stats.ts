/**
 * The statistics an upload stores beside its answers, computed in this process while the database
 * inserts the answers (on the other core), instead of by the database after them:
 * - product_metric_demo_stats rows, as insertDemographicStatsSql (db/demographic-stats.ts) groups
 *   them: per product, metric, respondent gender and age, in or out of the 5-point scale, with the
 *   box thresholds of the stats package's BOX_TOLERANCE;
 * - product_metric_stats rows, as the seed and the mapping edits compute them: per product and
 *   metric, boxes with a tolerance of 1e-6, none for EEG metrics.
 * Answers are stored in double precision, so the values summed here are those the database holds.
 * An API test compares both tables after an upload with the SQL definitions.
 */
import { BOX_TOLERANCE } from '@accord/stats';

const PRODUCT_TOLERANCE = 1e-6;

/** Sufficient statistics of one group of answers. */
export interface AnswerSums {
  n: number;
  sum: number;
  sumSq: number;
  topBox: number;
  top2Box: number;
  justRight: number;
  bottom2Box: number;
  bottomBox: number;
}

export interface DemographicStatsRow extends AnswerSums {
  productId: number;
  metricId: number;
  gender: string | null;
  age: number | null;
  inScale: boolean;
}

export interface ProductStatsRow extends AnswerSums {
  productId: number;
  metricId: number;
}

interface Thresholds {
  top: number;
  top2: number;
  justRightLow: number;
  justRightHigh: number;
  bottom2: number;
  bottom: number;
}

const thresholds = (tolerance: number): Thresholds => ({
  top: 4.5 - tolerance,
  top2: 3.5 - tolerance,
  justRightLow: 2.5 + tolerance,
  justRightHigh: 3.5 - tolerance,
  bottom2: 2.5 + tolerance,
  bottom: 1.5 + tolerance,
});

const DEMOGRAPHIC = thresholds(BOX_TOLERANCE);
const PRODUCT = thresholds(PRODUCT_TOLERANCE);
const IN_SCALE_LOW = 1 - BOX_TOLERANCE;
const IN_SCALE_HIGH = 5 + BOX_TOLERANCE;

const emptySums = (): AnswerSums => ({
  n: 0,
  sum: 0,
  sumSq: 0,
  topBox: 0,
  top2Box: 0,
  justRight: 0,
  bottom2Box: 0,
  bottomBox: 0,
});

function addTo(sums: AnswerSums, value: number, limits: Thresholds | null): void {
  sums.n++;
  sums.sum += value;
  sums.sumSq += value * value;
  if (!limits) return;
  if (value >= limits.top) sums.topBox++;
  if (value >= limits.top2) sums.top2Box++;
  if (value > limits.justRightLow && value < limits.justRightHigh) sums.justRight++;
  if (value <= limits.bottom2) sums.bottom2Box++;
  if (value <= limits.bottom) sums.bottomBox++;
}

/** Accumulates the answers of a study, then gives the rows of both tables. */
export class AnswerStatistics {
  private readonly groups: { gender: string | null; age: number | null }[] = [];
  private readonly groupIndex = new Map<string, number>();
  /** product and metric -> demographic group * 2 + in scale -> sums */
  private readonly demographic = new Map<number, Map<number, AnswerSums>>();
  private readonly product = new Map<number, AnswerSums>();

  /** @param eegMetrics metrics whose scores have no boxes in product_metric_stats */
  constructor(private readonly eegMetrics: ReadonlySet<number>) {}

  /** The demographic group of a respondent's stored gender and age (pass it to add). */
  group(gender: string | null, age: number | null): number {
    const key = `${gender === null ? '\u0000' : `=${gender}`}\u0001${age ?? ''}`;
    let index = this.groupIndex.get(key);
    if (index === undefined) {
      index = this.groups.length;
      this.groups.push({ gender, age });
      this.groupIndex.set(key, index);
    }
    return index;
  }

  /** One answer with a metric: its product, metric, respondent's group and harmonised value. */
  add(productId: number, metricId: number, group: number, harmonised: number): void {
    const value = harmonised;
    const key = productId * 65_536 + metricId;
    let byGroup = this.demographic.get(key);
    if (!byGroup) {
      byGroup = new Map();
      this.demographic.set(key, byGroup);
    }
    const inScale = value >= IN_SCALE_LOW && value <= IN_SCALE_HIGH;
    const groupKey = group * 2 + (inScale ? 1 : 0);
    let sums = byGroup.get(groupKey);
    if (!sums) {
      sums = emptySums();
      byGroup.set(groupKey, sums);
    }
    addTo(sums, value, DEMOGRAPHIC);
    let productSums = this.product.get(key);
    if (!productSums) {
      productSums = emptySums();
      this.product.set(key, productSums);
    }
    addTo(productSums, value, this.eegMetrics.has(metricId) ? null : PRODUCT);
  }

  demographicRows(): DemographicStatsRow[] {
    const rows: DemographicStatsRow[] = [];
    for (const [key, byGroup] of this.demographic) {
      for (const [groupKey, sums] of byGroup) {
        const group = this.groups[groupKey >> 1] as { gender: string | null; age: number | null };
        rows.push({
          productId: Math.floor(key / 65_536),
          metricId: key % 65_536,
          gender: group.gender,
          age: group.age,
          inScale: (groupKey & 1) === 1,
          ...sums,
        });
      }
    }
    return rows;
  }

  productRows(): ProductStatsRow[] {
    return [...this.product].map(([key, sums]) => ({
      productId: Math.floor(key / 65_536),
      metricId: key % 65_536,
      ...sums,
    }));
  }
}
