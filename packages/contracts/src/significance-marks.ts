/**
 * The words and colours of the analytics significance marks (METRICS.md section 2), shared by the
 * metrics tab and fragrance_metrics.xlsx so both say the same: the multiplicity correction, the tests,
 * why a product was not tested, and whether a mark is good or bad news.
 */
import { z } from 'zod';

/** Multiplicity correction across every test of one Calculate (products × metrics). */
export const SIGNIFICANCE_CORRECTIONS = ['benjamini_hochberg', 'none'] as const;
export const SignificanceCorrection = z.enum(SIGNIFICANCE_CORRECTIONS);
export type SignificanceCorrection = z.infer<typeof SignificanceCorrection>;

/** The corrections as the Calculate choice, the legend and the workbook name them. */
export const CORRECTION_LABELS: Record<SignificanceCorrection, string> = {
  benjamini_hochberg: 'Benjamini-Hochberg (false discovery rate)',
  none: 'No correction',
};

/** The respondent-clustered tests of the marks (METRICS.md section 2). */
export const CLUSTERED_TESTS = {
  rest: 'cluster-two-sample',
  avg: 'cluster-contrast-avg',
} as const;

/**
 * The same tests of a yes/no (CATA) column: on each answer's 0/1 selection, so they test the share
 * "% selected" (or "% not selected" for a bottom box), never a mean (METRICS.md section 3).
 */
export const CLUSTERED_SHARE_TESTS = {
  rest: 'cluster-two-sample-share',
  avg: 'cluster-contrast-avg-share',
} as const;

/** The tests as the tooltip, the legend and the workbook name them. */
export const CLUSTERED_TEST_NAMES: Record<string, string> = {
  'cluster-two-sample': 'two-sample t-test clustered by respondent',
  'cluster-contrast-avg': 'contrast with the average, clustered by respondent',
  'cluster-two-sample-share': 'two-sample test of the yes/no share (% selected) clustered by respondent',
  'cluster-contrast-avg-share':
    'contrast of the yes/no share (% selected) with the average, clustered by respondent',
};

/** Why a product carries no mark although its column was tested. */
export const SIGNIFICANCE_NOT_TESTED = {
  /** Fewer than LOW_BASE answers under the search's respondent filters. */
  lowBase: 'low base: not tested',
  /** Fewer than 2 respondents on a side, or no variance on either side: not significant. */
  noVariance: 'no variance or too few respondents: not significant',
} as const;

/**
 * Aggregations where a higher share is bad news: bottom (2) box, and for strength the too strong and
 * too weak ends (its top boxes read "Too strong" and "Strong"). Such a mark higher is red, lower green.
 */
export function higherIsBad(metric: string, aggregation: string): boolean {
  if (aggregation === 'bottom_box' || aggregation === 'bottom_2_box') return true;
  return metric === 'strength' && (aggregation === 'top_box' || aggregation === 'top_2_box');
}

/** Whether a mark of the column in that direction is good news (green) or bad news (red). */
export function markIsGood(metric: string, aggregation: string, table: 'mt' | 'let'): boolean {
  return (table === 'mt') !== higherIsBad(metric, aggregation);
}
