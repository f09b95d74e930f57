// Normal, Student t, F and chi-square distributions, taken from the @stdlib per-function packages
// (well-kept ports of Boost/Cephes). Every upper tail is computed as a lower tail or with the
// upper incomplete gamma function directly (never as 1 − cdf), so tiny p-values keep their relative
// precision. The studentized range lives in studentized-range.ts.
import chiSquareCdfLibrary from '@stdlib/stats-base-dists-chisquare-cdf';
import fCdfLibrary from '@stdlib/stats-base-dists-f-cdf';
import normalCdfLibrary from '@stdlib/stats-base-dists-normal-cdf';
import normalPdfLibrary from '@stdlib/stats-base-dists-normal-pdf';
import normalQuantileLibrary from '@stdlib/stats-base-dists-normal-quantile';
import tCdfLibrary from '@stdlib/stats-base-dists-t-cdf';
import tPdfLibrary from '@stdlib/stats-base-dists-t-pdf';
import tQuantileLibrary from '@stdlib/stats-base-dists-t-quantile';
import gammaIncomplete from '@stdlib/math-base-special-gammainc';
import { assertAlternative, type Alternative } from './types.ts';

/** Standard normal density φ(z). */
export function normalPdf(z: number): number {
  return normalPdfLibrary(z, 0, 1);
}

/** Standard normal upper tail P(Z > z), computed as the lower tail at −z (full relative precision). */
export function normalSf(z: number): number {
  return normalCdfLibrary(-z, 0, 1);
}

/** Standard normal distribution function P(Z ≤ z). */
export function normalCdf(z: number): number {
  return normalCdfLibrary(z, 0, 1);
}

/** Standard normal quantile: the z with P(Z ≤ z) = p. ±Infinity at p = 1 and 0, NaN outside [0, 1]. */
export function normalQuantile(p: number): number {
  return normalQuantileLibrary(p, 0, 1);
}

/**
 * Student t upper tail P(T > t) with `df` degrees of freedom (any real df > 0; Infinity gives the
 * normal), computed as the lower tail at −t. NaN for NaN input or df ≤ 0.
 */
export function studentTSf(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return Number.NaN;
  if (df === Number.POSITIVE_INFINITY) return normalSf(t);
  if (t === Number.POSITIVE_INFINITY) return 0;
  if (t === Number.NEGATIVE_INFINITY) return 1;
  return tCdfLibrary(-t, df);
}

/** Student t distribution function P(T ≤ t). */
export function studentTCdf(t: number, df: number): number {
  return studentTSf(-t, df);
}

/** Student t quantile: the t with P(T ≤ t) = p for df > 0. ±Infinity at p = 1 and 0, NaN outside [0, 1]. */
export function studentTQuantile(p: number, df: number): number {
  if (!(p >= 0 && p <= 1) || !(df > 0)) return Number.NaN;
  if (df === Number.POSITIVE_INFINITY) return normalQuantile(p);
  return tQuantileLibrary(p, df);
}

/** Student t density. */
export function studentTPdf(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return Number.NaN;
  if (df === Number.POSITIVE_INFINITY) return normalPdf(t);
  return tPdfLibrary(t, df);
}

/**
 * F distribution upper tail P(F > f) with (d1, d2) degrees of freedom, computed as the lower tail of
 * F(d2, d1) at 1/f (the same identity, I_x(a, b) = 1 − I_{1−x}(b, a), without the subtraction).
 * NaN for NaN input or df ≤ 0; 1 for f ≤ 0.
 */
export function fSf(f: number, d1: number, d2: number): number {
  if (Number.isNaN(f) || !(d1 > 0) || !(d2 > 0)) return Number.NaN;
  if (f <= 0) return 1;
  if (f === Number.POSITIVE_INFINITY) return 0;
  return fCdfLibrary(1 / f, d2, d1);
}

/**
 * Chi-square upper tail P(X > x) with `df` degrees of freedom: the regularised upper incomplete gamma
 * Q(df/2, x/2), computed directly. NaN for NaN input or df ≤ 0; 1 for x ≤ 0.
 */
export function chiSquareSf(x: number, df: number): number {
  if (Number.isNaN(x) || !(df > 0)) return Number.NaN;
  if (x <= 0) return 1;
  if (x === Number.POSITIVE_INFINITY) return 0;
  return gammaIncomplete(x / 2, df / 2, true, true);
}

/** Chi-square distribution function P(X ≤ x). */
export function chiSquareCdf(x: number, df: number): number {
  if (Number.isNaN(x) || !(df > 0)) return Number.NaN;
  return chiSquareCdfLibrary(Math.max(0, x), df);
}

/**
 * p-value of a statistic whose null distribution is described by `sf` (upper tail) and is symmetric
 * around zero. Two-sided p-values are capped at 1. A NaN statistic gives NaN; ±Infinity gives 0 or 1.
 */
function symmetricPValue(statistic: number, alternative: Alternative, sf: (value: number) => number): number {
  assertAlternative(alternative);
  if (Number.isNaN(statistic)) return Number.NaN;
  if (!Number.isFinite(statistic)) {
    if (alternative === 'two-sided') return 0;
    return (alternative === 'greater') === statistic > 0 ? 0 : 1;
  }
  if (alternative === 'greater') return sf(statistic);
  if (alternative === 'less') return sf(-statistic);
  return Math.min(1, 2 * sf(Math.abs(statistic)));
}

/**
 * p-value of a z statistic under the standard normal for the given alternative ("greater" is the upper
 * tail). ±Infinity gives the limiting 0 or 1; NaN stays NaN.
 */
export function normalPValue(z: number, alternative: Alternative = 'two-sided'): number {
  return symmetricPValue(z, alternative, normalSf);
}

/**
 * p-value of a t statistic with `df` degrees of freedom for the given alternative. An infinite statistic
 * gives 0 or 1 whatever df is; otherwise NaN when df ≤ 0 or NaN.
 */
export function studentTPValue(t: number, df: number, alternative: Alternative = 'two-sided'): number {
  return symmetricPValue(t, alternative, (value) => studentTSf(value, df));
}
