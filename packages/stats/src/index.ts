/**
 * @accord/stats: the pure statistics of Accord (no I/O). Definitions follow shared/design/METRICS.md
 * and are checked against SciPy and statsmodels reference values (shared/reference/stats-cases.json
 * and stats-cases-2.json). docs/statistics.md lists every convention.
 *
 * Conventions shared by every function:
 * - Missing answers are non-finite numbers (NaN, ±Infinity) and are dropped; paired inputs drop the
 *   whole pair. Structural mistakes (paired arrays of different lengths, an invalid scale, an unknown
 *   alternative) throw a RangeError.
 * - Low-level numbers (descriptive statistics, distributions, tests) are NaN exactly when the quantity is
 *   undefined for the data left (for example a variance of one value), as in SciPy; a zero standard error
 *   with a non-zero difference gives an infinite statistic and a p-value of 0 or 1.
 * - Report-level results (box summaries, analytics significance, JAR, letters) never contain NaN: they
 *   use null, because they travel as JSON.
 * - Tests take `alternative`: "two-sided" (default), "greater" (first sample larger) or "less".
 */
export * from './types.ts';
export * from './distributions.ts';
export * from './studentized-range.ts';
export * from './descriptive.ts';
export * from './harmonise.ts';
export * from './t-tests.ts';
export * from './rank-tests.ts';
export * from './proportion-tests.ts';
export * from './correlation.ts';
export * from './regression.ts';
export * from './significance.ts';
export * from './letters.ts';
export * from './jar.ts';
export * from './summary-tests.ts';
export * from './group-tests.ts';
export * from './tukey.ts';
export * from './multiple-comparisons.ts';
export * from './binary-tests.ts';
export * from './norms.ts';
export * from './meta-analysis.ts';
export * from './meta-correlation.ts';
export * from './power.ts';
export * from './cluster-tests.ts';
export * from './meta-hksj.ts';
export * from './design-detection.ts';
export * from './intrablock.ts';
export * from './vif.ts';
export * from './penalty-significance.ts';
