/**
 * Pure pieces of a norm's answer: the histogram's bins, the lines a screen marks (percentiles and
 * action standards, named), and the base in words.
 */
import {
  LOWER_IS_BETTER,
  NORM_PERCENTILE_KEYS,
  type Aggregation,
  type NormBin,
  type NormLine,
  type NormPercentileKey,
} from '@accord/contracts';

/** Share aggregations are binned in steps of 5 percentage points; other scores in ~12 "nice" steps. */
const SHARE_STEP = 0.05;
const TARGET_BINS = 12;

/** A step of 1, 2, 2.5 or 5 times a power of ten close to span / TARGET_BINS. */
export function niceStep(span: number): number {
  if (!(span > 0)) return 0.1;
  const raw = span / TARGET_BINS;
  const power = 10 ** Math.floor(Math.log10(raw));
  const multiple = [1, 2, 2.5, 5, 10].find((candidate) => candidate * power >= raw) ?? 10;
  return multiple * power;
}

/** Rounds away the binary noise of start + i·step (edges are shown and written to files). */
const edge = (value: number) => Math.round(value * 1e9) / 1e9;

/**
 * Equal-width bins over the scores: [from, to) each, the last one closed; empty bins between the
 * first and the last are kept so the chart's axis is continuous. No score: no bins.
 */
export function histogram(scores: readonly number[], share: boolean): NormBin[] {
  if (scores.length === 0) return [];
  let min = Infinity;
  let max = -Infinity;
  for (const score of scores) {
    if (score < min) min = score;
    if (score > max) max = score;
  }
  const step = share ? SHARE_STEP : niceStep(max - min);
  const start = Math.floor(edge(min / step)) * step;
  // The last bin is closed: a maximum on an edge ends the last bin rather than opening one more.
  const steps = edge((max - start) / step);
  const count = Number.isInteger(steps) && steps > 0 ? steps : Math.floor(steps) + 1;
  const bins: NormBin[] = Array.from({ length: count }, (_, index) => ({
    from: edge(start + index * step),
    to: edge(start + (index + 1) * step),
    count: 0,
  }));
  for (const score of scores) {
    const index = Math.min(count - 1, Math.max(0, Math.floor(edge((score - start) / step))));
    bins[index]!.count += 1;
  }
  return bins;
}

const PERCENT = (key: NormPercentileKey) => Number(key.slice(1));

/**
 * The lines of a norm: its five percentiles, two of them named as the action standards users set
 * (top quartile, top decile: P75 and P90, or P25 and P10 where a lower score is the better one).
 */
export function normLines(
  percentiles: Record<NormPercentileKey, number>,
  aggregation: Aggregation,
): NormLine[] {
  const lower = LOWER_IS_BETTER.includes(aggregation);
  const standards: Partial<Record<NormPercentileKey, string>> = lower
    ? { p25: 'top quartile', p10: 'top decile' }
    : { p75: 'top quartile', p90: 'top decile' };
  return NORM_PERCENTILE_KEYS.map((key) => {
    const standard = standards[key];
    const name = `P${PERCENT(key)}`;
    return {
      key,
      label: standard ? `Action standard: ${standard} (${name})` : key === 'p50' ? `${name} (median)` : name,
      value: percentiles[key],
      action_standard: standard !== undefined,
    };
  });
}

const plural = (count: number, one: string, many: string) =>
  `${count.toLocaleString('en-GB')} ${count === 1 ? one : many}`;

/** The base in words: "Fabric Care, Europe, 2022-2026: 412 fragrances in 96 studies". */
export function describeBase(
  base: {
    category: string;
    region: string | null;
    productType: string | null;
    methodology: string | null;
    kind: 'fragrance' | 'concept';
  },
  years: { from: number | null; to: number | null },
  counts: { products: number; studies: number } | null,
): string {
  const parts = [base.category, base.region, base.productType, base.methodology].filter(
    (part): part is string => part !== null,
  );
  const { from, to } = years;
  if (from !== null && to !== null) parts.push(from === to ? String(from) : `${from}-${to}`);
  else if (from !== null) parts.push(`from ${from}`);
  else if (to !== null) parts.push(`until ${to}`);
  const name = parts.join(', ');
  if (!counts) return name;
  const products = plural(counts.products, base.kind, `${base.kind}s`);
  return `${name}: ${products} in ${plural(counts.studies, 'study', 'studies')}`;
}

/** Percentile keys' numbers as the NormResponse names them. */
export function percentileRecord(values: readonly number[]): Record<NormPercentileKey, number> {
  const record = {} as Record<NormPercentileKey, number>;
  NORM_PERCENTILE_KEYS.forEach((key, index) => {
    record[key] = values[index]!;
  });
  return record;
}
