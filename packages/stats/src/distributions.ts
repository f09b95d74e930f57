// Normal, Student t and F distributions built on the special functions. Every upper tail is computed
// directly (never as 1 − cdf), so tiny p-values keep their relative precision.
import { incompleteBetaTails, incompleteGammaTails, logBeta } from './special-functions.ts';
import { assertAlternative, type Alternative } from './types.ts';

const INV_SQRT_TWO_PI = 1 / Math.sqrt(2 * Math.PI);

/** Standard normal density φ(z). */
export function normalPdf(z: number): number {
  return INV_SQRT_TWO_PI * Math.exp(-0.5 * z * z);
}

/** Standard normal upper tail P(Z > z), relative error near 1e-15 even for P ≈ 1e-300. */
export function normalSf(z: number): number {
  if (Number.isNaN(z)) return Number.NaN;
  // P(Z > z) = ½·erfc(z/√2) and erfc(u) = Q(½, u²); z²/2 avoids rounding z/√2 first.
  const tails = incompleteGammaTails(0.5, 0.5 * z * z);
  return z >= 0 ? 0.5 * tails.upper : 0.5 + 0.5 * tails.lower;
}

/** Standard normal distribution function P(Z ≤ z). */
export function normalCdf(z: number): number {
  return normalSf(-z);
}

/**
 * Standard normal quantile: the z with P(Z ≤ z) = p. ±Infinity at p = 1 and 0, NaN outside [0, 1].
 * A rational starting value (Abramowitz & Stegun 26.2.23) is polished by Newton steps on the log tail,
 * which gives full double precision far into the tails.
 */
export function normalQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) return Number.NaN;
  if (p === 0) return Number.NEGATIVE_INFINITY;
  if (p === 1) return Number.POSITIVE_INFINITY;
  if (p === 0.5) return 0;
  // Solve in the smaller tail for precision: P(Z > x) = tail with x > 0.
  const tail = p < 0.5 ? p : 1 - p;
  const t = Math.sqrt(-2 * Math.log(tail));
  let x =
    t - (2.515517 + t * (0.802853 + t * 0.010328)) / (1 + t * (1.432788 + t * (0.189269 + t * 0.001308)));
  for (let iteration = 0; iteration < 50; iteration++) {
    const sf = normalSf(x);
    // Newton on ln sf(x) − ln tail, whose derivative is −φ(x)/sf(x).
    const step = ((Math.log(sf) - Math.log(tail)) * sf) / normalPdf(x);
    x += step;
    if (Math.abs(step) <= 1e-15 * Math.max(1, Math.abs(x))) break;
  }
  return p < 0.5 ? -x : x;
}

/**
 * Student t upper tail P(T > t) with `df` degrees of freedom (any real df > 0; Infinity gives the
 * normal), relative error about 1e-13 across df from 0.3 to 1e9. NaN for NaN input or df ≤ 0. Beyond
 * |t| ≈ 1e154, where t² overflows, the tail is reported as exactly 0 (or 1).
 */
export function studentTSf(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return Number.NaN;
  if (df === Number.POSITIVE_INFINITY) return normalSf(t);
  if (t === Number.POSITIVE_INFINITY) return 0;
  if (t === Number.NEGATIVE_INFINITY) return 1;
  const tSquared = t * t;
  // P(|T| > |t|) = I_x(ν/2, ½) with x = ν/(ν + t²); 1 − x = t²/(ν + t²) is passed exactly.
  const x = df / (df + tSquared);
  const y = tSquared > df ? 1 / (1 + df / tSquared) : tSquared / (df + tSquared);
  const twoSided = incompleteBetaTails(0.5 * df, 0.5, x, y);
  return t >= 0 ? 0.5 * twoSided.lower : 0.5 + 0.5 * twoSided.upper;
}

/** Student t distribution function P(T ≤ t). */
export function studentTCdf(t: number, df: number): number {
  return studentTSf(-t, df);
}

/**
 * Student t quantile: the t with P(T ≤ t) = p for df > 0. ±Infinity at p = 1 and 0, NaN outside [0, 1].
 * Newton steps from the normal quantile, safeguarded by bisection on a bracket. Quantiles beyond
 * |t| = 1e150 (only reachable for df below about 2 and p below 1e-150) are returned as ±Infinity.
 */
export function studentTQuantile(p: number, df: number): number {
  if (!(p >= 0 && p <= 1) || !(df > 0)) return Number.NaN;
  if (p === 0) return Number.NEGATIVE_INFINITY;
  if (p === 1) return Number.POSITIVE_INFINITY;
  if (p === 0.5) return 0;
  if (df === Number.POSITIVE_INFINITY) return normalQuantile(p);
  const tail = p < 0.5 ? p : 1 - p;
  // Find x > 0 with P(T > x) = tail. Bracket first: the t quantile always exceeds the normal one.
  let low = 0;
  let high = Math.max(1, -normalQuantile(tail));
  while (studentTSf(high, df) > tail) {
    low = high;
    high *= 2;
    if (high > 1e150) return p < 0.5 ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  let x = high;
  for (let iteration = 0; iteration < 400; iteration++) {
    const sf = studentTSf(x, df);
    if (sf === tail) break;
    if (sf > tail) low = x;
    else high = x;
    // Newton on ln sf(x) − ln tail (derivative −pdf/sf) stays well scaled in the far tail.
    let next = x + ((Math.log(sf) - Math.log(tail)) * sf) / studentTPdf(x, df);
    if (!(next > low && next < high)) next = 0.5 * (low + high);
    if (Math.abs(next - x) <= 1e-15 * Math.max(1, Math.abs(x))) {
      x = next;
      break;
    }
    x = next;
  }
  return p < 0.5 ? -x : x;
}

/** Student t density. */
export function studentTPdf(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return Number.NaN;
  if (df === Number.POSITIVE_INFINITY) return normalPdf(t);
  // Written through ln B(ν/2, ½) so that large df neither overflows Γ nor cancels.
  const logDensity = -0.5 * (df + 1) * Math.log1p((t * t) / df) - 0.5 * Math.log(df) - logBeta(0.5 * df, 0.5);
  return Math.exp(logDensity);
}

/**
 * F distribution upper tail P(F > f) with (d1, d2) degrees of freedom, relative error below about
 * 1e-11 (1e-13 for d2 under 1e5). NaN for NaN input or df ≤ 0; 1 for f ≤ 0.
 */
export function fSf(f: number, d1: number, d2: number): number {
  if (Number.isNaN(f) || !(d1 > 0) || !(d2 > 0)) return Number.NaN;
  if (f <= 0) return 1;
  if (f === Number.POSITIVE_INFINITY) return 0;
  const scaled = d1 * f;
  const x = d2 / (d2 + scaled);
  const y = scaled > d2 ? 1 / (1 + d2 / scaled) : scaled / (d2 + scaled);
  return incompleteBetaTails(0.5 * d2, 0.5 * d1, x, y).lower;
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
