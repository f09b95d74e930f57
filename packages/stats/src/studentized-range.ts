// Upper tail of the studentized range distribution (Tukey's HSD p-values).
//
// Written here on purpose: the maintained JavaScript implementation (jStat's `tukey.cdf`, a port of
// R's ptukey, algorithm AS 190) returns the distribution function to about 1e-10 absolute, so its
// p-values 1 − cdf miss SciPy by up to 4e-3 relative at p ≈ 3e-8 and floor at 9.5e-11 (reference cases
// tukey_hsd_blocked-002, -008, -014, -020 and tukey_hsd-056). Here the upper tail is integrated
// directly, with no 1 − cdf subtraction:
//
//   P(Q > q) = ∫₀^∞ g_ν(s) · P(W > q·s) ds,
//   P(W > w) = k ∫ φ(z) [Φ(z)^(k−1) − (Φ(z) − Φ(z − w))^(k−1)] dz,
//
// where g_ν is the density of s = √(χ²_ν / ν) and W the range of k standard normal values. Both
// integrands are smooth bells whose location and spread are known, so each integral is a sum of
// 15-point Gauss-Kronrod rules on panels laid out around them (relative error about 1e-10). SciPy
// (`studentized_range.sf`) integrates the same formula but returns 1 − cdf with an absolute tolerance
// of 1e-11, so SciPy's p-values below about 1e-10 are rounding noise; see docs/statistics.md.
import gammaLn from '@stdlib/math-base-special-gammaln';
import { normalCdf, normalPdf } from './distributions.ts';

/** Gauss-Kronrod 15-point abscissae on [−1, 1] (non-negative half; QUADPACK qk15, rounded to double). */
const KRONROD_NODES = [
  0.9914553711208126, 0.9491079123427585, 0.8648644233597691, 0.7415311855993945, 0.5860872354676911,
  0.4058451513773972, 0.20778495500789848, 0,
];
/** The matching Kronrod weights. */
const KRONROD_WEIGHTS = [
  0.022935322010529224, 0.06309209262997856, 0.10479001032225019, 0.14065325971552592, 0.1690047266392679,
  0.19035057806478542, 0.20443294007529889, 0.20948214108472782,
];

/** Above this many degrees of freedom s is taken as 1 (SciPy switches at the same point). */
const ASYMPTOTIC_DF = 100_000;
/**
 * Integration layout, checked in the tests against a layout twice as fine (and against SciPy): the
 * inner integral covers ±7 around w/2 in panels of 2.5, the outer one 9 spreads below the lower peak
 * in panels of 3 tail spreads.
 */
const INNER_HALF_WIDTH = 7;
const INNER_PANEL = 2.5;
const OUTER_SPREADS = 9;
const OUTER_PANEL = 3;

/** Gauss-Kronrod 15-point estimate of ∫ f over [a, b]. */
function kronrod(f: (x: number) => number, a: number, b: number): number {
  const centre = 0.5 * (a + b);
  const half = 0.5 * (b - a);
  let total = 0;
  for (let i = 0; i < 8; i++) {
    const node = KRONROD_NODES[i] ?? 0;
    const values = node === 0 ? f(centre) : f(centre - half * node) + f(centre + half * node);
    total += (KRONROD_WEIGHTS[i] ?? 0) * values;
  }
  return half * total;
}

/**
 * ∫ f over [a, b] as a sum of 15-point Kronrod rules on panels no wider than `width`.
 */
function composite(f: (x: number) => number, a: number, b: number, width: number): number {
  if (!(b > a)) return 0;
  const panels = Math.max(1, Math.ceil((b - a) / width));
  const step = (b - a) / panels;
  let total = 0;
  for (let i = 0; i < panels; i++)
    total += kronrod(f, a + i * step, i === panels - 1 ? b : a + (i + 1) * step);
  return total;
}

/** P(W > w) for the range W of k independent standard normal values. */
export function normalRangeSf(w: number, k: number): number {
  if (Number.isNaN(w) || !(k >= 2)) return Number.NaN;
  if (w <= 0) return 1;
  if (w === Number.POSITIVE_INFINITY) return 0;
  const m = k - 1;
  const integrand = (z: number): number => {
    const lower = normalCdf(z);
    if (lower === 0) return 0;
    // Φ(z)^m − (Φ(z) − Φ(z − w))^m = Φ(z)^m · (1 − (1 − r)^m) with r = Φ(z − w)/Φ(z), without cancellation.
    const ratio = normalCdf(z - w) / lower;
    const difference = -Math.expm1(m * Math.log1p(-ratio));
    return normalPdf(z) * Math.exp(m * Math.log(lower)) * difference;
  };
  // The integrand is bell-shaped: over [−8, w + 8] for small ranges; for large ones it is about
  // k(k − 1)·φ(z)·Φ(z − w), a bell around w/2 with spread 1/√2, so ±7 around w/2 holds all but 1e-21.
  const value =
    k *
    composite(
      integrand,
      Math.max(-8, w / 2 - INNER_HALF_WIDTH),
      Math.min(w + 8, w / 2 + INNER_HALF_WIDTH),
      INNER_PANEL,
    );
  return Math.min(1, Math.max(0, value));
}

/**
 * Studentized range upper tail P(Q > q) for k means and `df` error degrees of freedom (SciPy
 * `studentized_range.sf(q, k, df)`): the p-value of Tukey's HSD. Relative precision near 1e-11 even far
 * into the tail. NaN for NaN input, k < 2 or df ≤ 0; 1 for q ≤ 0; 0 for q = Infinity.
 */
export function studentizedRangeSf(q: number, k: number, df: number): number {
  if (Number.isNaN(q) || !(k >= 2) || !(df > 0)) return Number.NaN;
  if (q <= 0) return 1;
  if (q === Number.POSITIVE_INFINITY) return 0;
  if (df >= ASYMPTOTIC_DF) return normalRangeSf(q, k);
  // log density of s = √(χ²_ν/ν): (ν/2)·ln(ν/2) − lnΓ(ν/2) + ln 2 + (ν − 1)·ln s − ν s²/2.
  const logConstant = (df / 2) * Math.log(df / 2) - gammaLn(df / 2) + Math.LN2;
  const logDensity = (s: number): number => logConstant + (df - 1) * Math.log(s) - (df * s * s) / 2;
  const integrand = (s: number): number => (s > 0 ? Math.exp(logDensity(s)) * normalRangeSf(q * s, k) : 0);
  // The density peaks at √((ν − 1)/ν) with spread 1/√(2ν); in the tail the weight moves to smaller s,
  // near √((ν − 1)/(ν + q²/2)) where ln g(s) − q²s²/4 peaks, with spread 1/√(2ν + q²). The integral
  // covers both peaks (the integrand is log-concave there).
  const mode = Math.sqrt(Math.max(df - 1, 0) / df);
  const spread = 1 / Math.sqrt(2 * df);
  const tailPeak = Math.sqrt(Math.max(df - 1, 0) / (df + (q * q) / 2));
  const tailSpread = 1 / Math.sqrt(2 * df + q * q);
  const lower = Math.max(0, Math.min(mode, tailPeak) - OUTER_SPREADS * spread);
  // Beyond the mode the integrand falls at least as fast as g (the range's tail decreases in s), so
  // the integral stops where g has dropped below e^-40 of its peak.
  const logPeak = logDensity(Math.max(mode, spread));
  let upper = Math.max(mode, tailPeak) + spread;
  while (logDensity(upper) > logPeak - 40) upper += spread;
  const value = composite(integrand, lower, upper, OUTER_PANEL * tailSpread);
  return Math.min(1, Math.max(0, value));
}
