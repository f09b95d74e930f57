// Sample sizes for a planned test (the study planner): two-sided power of the t test of two means
// (independent samples: monadic; paired: sequential monadic) from the noncentral t distribution, and of
// two shares in independent samples from the normal approximation on Cohen's h. The definitions are
// statsmodels' TTestIndPower, TTestPower and NormalIndPower (reference cases `power_t` and
// `power_proportions`); the sample size is the real root of power(n) = target, as their solve_power.
import gammaLn from '@stdlib/math-base-special-gammaln';
import { normalCdf, normalQuantile, normalSf, studentTQuantile } from './distributions.ts';

/** The design of a planned comparison of two products. */
export type PowerDesign = 'independent' | 'paired';

// Gauss-Legendre nodes and weights on [−1, 1], 10 points (exact for polynomials of degree 19).
const GL_NODES = [
  0.1488743389816312, 0.4333953941292472, 0.6794095682990244, 0.8650633666889845, 0.9739065285171717,
];
const GL_WEIGHTS = [
  0.2955242247147529, 0.2692667193099963, 0.219086362515982, 0.1494513491505806, 0.0666713443086881,
];

/**
 * Noncentral t distribution function P(T ≤ t) with `df` degrees of freedom and noncentrality `nc`:
 * T = (Z + nc) / S with S = √(χ²_df / df), so P(T ≤ t) = E[Φ(t·S − nc)], integrated over the density of
 * S by composite Gauss-Legendre over the range holding all but about e⁻⁴⁰ of it (relative error near
 * 1e-13 for the powers a plan needs). NaN for df ≤ 0 or a non-finite argument.
 */
export function noncentralTCdf(t: number, df: number, nc: number): number {
  if (!(df > 0) || !Number.isFinite(t) || !Number.isFinite(nc)) return Number.NaN;
  const half = df / 2;
  const logConstant = Math.LN2 + half * Math.log(half) - gammaLn(half);
  const logDensity = (s: number): number => logConstant + (df - 1) * Math.log(s) - half * s * s;
  // The density of S peaks at √((df − 1)/df) (at 0 for df ≤ 1); bound the range where it falls by e⁻⁴⁰.
  const mode = df > 1 ? Math.sqrt((df - 1) / df) : 0;
  const peak = df > 1 ? logDensity(mode) : 0;
  const spread = 1 / Math.sqrt(2 * df);
  let high = mode + spread;
  while (logDensity(high) > peak - 40) high += spread;
  let low = mode;
  if (df > 1) {
    while (low > 0 && logDensity(low) > peak - 40) low = Math.max(0, low - spread);
  } else {
    low = 0;
  }
  const panels = 64;
  const width = (high - low) / panels;
  let total = 0;
  for (let panel = 0; panel < panels; panel += 1) {
    const centre = low + (panel + 0.5) * width;
    for (let i = 0; i < GL_NODES.length; i += 1) {
      const offset = (GL_NODES[i] ?? 0) * (width / 2);
      const weight = (GL_WEIGHTS[i] ?? 0) * (width / 2);
      for (const s of [centre - offset, centre + offset]) {
        if (s <= 0) continue;
        total += weight * Math.exp(logDensity(s)) * normalCdf(t * s - nc);
      }
    }
  }
  return Math.min(1, Math.max(0, total));
}

/**
 * Two-sided power of a t test with `df` degrees of freedom and noncentrality `nc` at level `alpha`:
 * P(T > t₁₋α/₂) + P(T < tα/₂) under the noncentral t (statsmodels' `ttest_power`).
 */
function tPower(nc: number, df: number, alpha: number): number {
  const upper = studentTQuantile(1 - alpha / 2, df);
  const lower = studentTQuantile(alpha / 2, df);
  return 1 - noncentralTCdf(upper, df, nc) + noncentralTCdf(lower, df, nc);
}

/** Effect size of a difference of means: d / sd, or d / (sd·√(2(1 − ρ))) for paired answers. */
export function meanEffectSize(
  design: PowerDesign,
  difference: number,
  sd: number,
  correlation: number | null = null,
): number {
  if (design === 'independent') return difference / sd;
  if (correlation === null || !(correlation > -1 && correlation < 1))
    throw new RangeError('A paired design needs a correlation in (−1, 1)');
  return difference / (sd * Math.sqrt(2 * (1 - correlation)));
}

/**
 * Two-sided power of the t test with `n` consumers: per product for independent samples (df = 2n − 2,
 * noncentrality d·√(n/2)), or respondents rating both products for paired answers (df = n − 1,
 * noncentrality d·√n). NaN for n too small to have degrees of freedom.
 */
export function tTestPower(design: PowerDesign, effectSize: number, n: number, alpha: number): number {
  if (design === 'independent') {
    if (!(n > 1)) return Number.NaN;
    return tPower(effectSize * Math.sqrt(n / 2), 2 * n - 2, alpha);
  }
  if (!(n > 1)) return Number.NaN;
  return tPower(effectSize * Math.sqrt(n), n - 1, alpha);
}

/** Two-sided power of the normal test of two shares with n per product on Cohen's h. */
export function proportionsPower(effectSize: number, n: number, alpha: number): number {
  if (!(n > 0)) return Number.NaN;
  const critical = normalQuantile(1 - alpha / 2);
  const shift = Math.abs(effectSize) * Math.sqrt(n / 2);
  return normalSf(critical - shift) + normalCdf(-critical - shift);
}

/** Cohen's h of two shares: 2·asin(√p1) − 2·asin(√p2). */
export function cohenH(p1: number, p2: number): number {
  return 2 * Math.asin(Math.sqrt(p1)) - 2 * Math.asin(Math.sqrt(p2));
}

/**
 * The real n in (lowest, ∞) at which the increasing `power(n)` reaches `target`: the bracket doubles
 * until it holds the root, then regula falsi (Illinois) to a relative width of 1e-13. NaN when the effect is 0 or
 * the target is not in (alpha, 1).
 */
function solveN(power: (n: number) => number, target: number, lowest: number, start = 4): number {
  let low = lowest;
  let high = Math.max(lowest * 2, start);
  let guard = 0;
  while (power(high) < target) {
    low = high;
    high *= 2;
    guard += 1;
    if (guard > 60 || !Number.isFinite(power(high))) return Number.NaN;
  }
  // Regula falsi with the Illinois step (superlinear), kept inside the bracket.
  let fLow = power(low) - target;
  let fHigh = power(high) - target;
  let side = 0;
  for (let i = 0; i < 200 && high - low > 1e-13 * high; i += 1) {
    const middle = (low * fHigh - high * fLow) / (fHigh - fLow);
    const fMiddle = power(middle) - target;
    if (fMiddle === 0) return middle;
    if (fMiddle < 0) {
      low = middle;
      fLow = fMiddle;
      if (side === -1) fHigh /= 2;
      side = -1;
    } else {
      high = middle;
      fHigh = fMiddle;
      if (side === 1) fLow /= 2;
      side = 1;
    }
  }
  return (low + high) / 2;
}

/** Result of {@link powerT} and {@link powerProportions}. */
export interface PowerResult {
  effectSize: number;
  /** The solved real sample size (per product, or respondents of a paired design). */
  n: number;
  /** ⌈n⌉. */
  nRequired: number;
  /** Power at `nGiven` (NaN when not given). */
  powerAtN: number;
}

function checkLevels(alpha: number, power: number): void {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError('alpha must lie in (0, 1)');
  if (!(power > alpha && power < 1)) throw new RangeError('power must lie in (alpha, 1)');
}

/**
 * Consumers needed to detect `difference` between two means, two-sided (reference cases `power_t`):
 * statsmodels' TTestIndPower (independent; n per product) or TTestPower (paired; n respondents) solved
 * for n. NaN sizes when the difference is 0.
 * @throws RangeError for alpha or power outside their ranges, sd ≤ 0 or a paired design without a
 * correlation in (−1, 1).
 */
export function powerT(options: {
  design: PowerDesign;
  difference: number;
  sd: number;
  correlation?: number | null;
  alpha: number;
  power: number;
  nGiven?: number | null;
}): PowerResult {
  const { design, difference, sd, alpha, power } = options;
  checkLevels(alpha, power);
  if (!(sd > 0)) throw new RangeError('sd must be positive');
  const effectSize = meanEffectSize(design, difference, sd, options.correlation ?? null);
  const powerOf = (n: number): number => tTestPower(design, effectSize, n, alpha);
  const n = effectSize === 0 || !Number.isFinite(effectSize) ? Number.NaN : solveN(powerOf, power, 1 + 1e-9);
  const nGiven = options.nGiven ?? null;
  return {
    effectSize,
    n,
    nRequired: Number.isFinite(n) ? Math.ceil(n) : Number.NaN,
    powerAtN: nGiven === null ? Number.NaN : powerOf(nGiven),
  };
}

/**
 * Consumers per product to detect shares p1 against p2 in two independent samples, two-sided
 * (reference cases `power_proportions`): Cohen's h and statsmodels' NormalIndPower solved for n.
 * @throws RangeError for alpha or power outside their ranges or a share outside [0, 1].
 */
export function powerProportions(options: {
  p1: number;
  p2: number;
  alpha: number;
  power: number;
  nGiven?: number | null;
}): PowerResult {
  const { p1, p2, alpha, power } = options;
  checkLevels(alpha, power);
  if (!(p1 >= 0 && p1 <= 1 && p2 >= 0 && p2 <= 1)) throw new RangeError('Shares must lie in [0, 1]');
  const effectSize = cohenH(p1, p2);
  const powerOf = (n: number): number => proportionsPower(effectSize, n, alpha);
  const n = effectSize === 0 ? Number.NaN : solveN(powerOf, power, 1e-9);
  const nGiven = options.nGiven ?? null;
  return {
    effectSize,
    n,
    nRequired: Number.isFinite(n) ? Math.ceil(n) : Number.NaN,
    powerAtN: nGiven === null ? Number.NaN : powerOf(nGiven),
  };
}

/**
 * The smallest effect size detectable with `n` consumers at the power and level: Cohen's d of the t
 * test (per product for independent samples, respondents for paired), the inverse of {@link powerT}'s
 * solution. NaN when n is too small to have degrees of freedom.
 */
export function detectableEffectT(design: PowerDesign, n: number, alpha: number, power: number): number {
  checkLevels(alpha, power);
  if (!(n > 1)) return Number.NaN;
  return solveN((effect) => tTestPower(design, effect, n, alpha), power, 0, 0.05);
}

/** The smallest Cohen's h detectable between two shares with `n` per product (inverse of {@link powerProportions}). */
export function detectableEffectH(n: number, alpha: number, power: number): number {
  checkLevels(alpha, power);
  if (!(n > 0)) return Number.NaN;
  return solveN((effect) => proportionsPower(effect, n, alpha), power, 0, 0.05);
}

/** The share p2 > p1 whose Cohen's h from p1 is `h` (capped at 1 when h reaches past it). */
export function shareAtEffect(p1: number, h: number): number {
  const angle = Math.asin(Math.sqrt(p1)) + h / 2;
  return angle >= Math.PI / 2 ? 1 : Math.sin(angle) ** 2;
}

/**
 * Consumers needed for a one-sample test of a mean against a fixed standard (statsmodels' TTestPower
 * with effect difference / sd, df = n − 1), two-sided.
 */
export function powerOneSampleT(options: {
  difference: number;
  sd: number;
  alpha: number;
  power: number;
}): PowerResult {
  const { difference, sd, alpha, power } = options;
  checkLevels(alpha, power);
  if (!(sd > 0)) throw new RangeError('sd must be positive');
  const effectSize = difference / sd;
  const n =
    effectSize === 0 || !Number.isFinite(effectSize)
      ? Number.NaN
      : solveN((size) => tTestPower('paired', effectSize, size, alpha), power, 1 + 1e-9);
  return { effectSize, n, nRequired: Number.isFinite(n) ? Math.ceil(n) : Number.NaN, powerAtN: Number.NaN };
}

/**
 * Consumers needed for a one-sample test of a share p1 against a fixed share p0 on Cohen's h, two-sided
 * (statsmodels' NormalIndPower with ratio 0: power Φ(|h|·√n − z₁₋α/₂) + Φ(−|h|·√n − z₁₋α/₂)).
 */
export function powerOneShare(options: {
  p0: number;
  p1: number;
  alpha: number;
  power: number;
}): PowerResult {
  const { p0, p1, alpha, power } = options;
  checkLevels(alpha, power);
  if (!(p0 >= 0 && p0 <= 1 && p1 >= 0 && p1 <= 1)) throw new RangeError('Shares must lie in [0, 1]');
  const effectSize = cohenH(p1, p0);
  // proportionsPower reads n per product of two samples (√(n/2)); one sample of n is 2n there.
  const n =
    effectSize === 0
      ? Number.NaN
      : solveN((size) => proportionsPower(effectSize, 2 * size, alpha), power, 1e-9);
  return { effectSize, n, nRequired: Number.isFinite(n) ? Math.ceil(n) : Number.NaN, powerAtN: Number.NaN };
}
