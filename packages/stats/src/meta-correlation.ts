// Pooling one correlation per study across studies (drivers of liking, reference cases
// `meta_correlation`): Fisher's z = atanh(r) with variance 1/(n − 3), DerSimonian-Laird between-study
// variance, the Hartung-Knapp-Sidik-Jonkman interval (t with k − 1 df) and Higgins' prediction interval
// (t with k − 2 df), all back-transformed with tanh.
import { studentTQuantile } from './distributions.ts';

/** One study's correlation and the respondents it was computed over. */
export interface StudyCorrelation {
  r: number;
  n: number;
}

/** Result of {@link metaCorrelation}; NaN where undefined (no study; a prediction interval below 3 studies). */
export interface MetaCorrelationResult {
  /** Pooled correlation tanh(z). */
  r: number;
  /** Random-effects pooled Fisher z. */
  z: number;
  /** DerSimonian-Laird τ² on the z scale, truncated at 0. */
  tau2: number;
  /** Cochran's Q with the fixed-effect weights n − 3. */
  q: number;
  /** I² = max(0, (Q − (k − 1)) / Q). */
  i2: number;
  /** tanh(z ∓ t₀.₉₇₅,ₖ₋₁ · HKSJ standard error). */
  ciLow: number;
  ciHigh: number;
  /** tanh(z ∓ t₀.₉₇₅,ₖ₋₂ · √(τ² + 1/Σw*)); NaN below 3 studies. */
  piLow: number;
  piHigh: number;
  /** Studies pooled: a finite r in (−1, 1) over more than 3 respondents. */
  k: number;
  /** Respondents of the pooled studies. */
  respondents: number;
}

/**
 * Hartung-Knapp-Sidik-Jonkman standard error of a random-effects estimate: √(Σw*(y − est)² /
 * ((k − 1)·Σw*)), without the "modified" floor.
 */
function hksjStdError(values: readonly number[], weights: readonly number[], estimate: number): number {
  const k = values.length;
  if (k < 2) return Number.NaN;
  let weighted = 0;
  let weightSum = 0;
  values.forEach((value, i) => {
    const weight = weights[i] ?? 0;
    weighted += weight * (value - estimate) ** 2;
    weightSum += weight;
  });
  return Math.sqrt(weighted / ((k - 1) * weightSum));
}

/**
 * Random-effects pooling of study correlations on Fisher's z (statsmodels' combine_effects with
 * method_re="chi2" and use_t, with τ² truncated at 0). Studies without a finite r strictly inside
 * (−1, 1) or with 3 respondents or fewer are left out (their z or variance is undefined).
 */
export function metaCorrelation(studies: readonly StudyCorrelation[]): MetaCorrelationResult {
  const used = studies.filter((study) => Number.isFinite(study.r) && Math.abs(study.r) < 1 && study.n > 3);
  const k = used.length;
  const respondents = used.reduce((total, study) => total + study.n, 0);
  if (k === 0) {
    const missing = Number.NaN;
    return {
      r: missing,
      z: missing,
      tau2: missing,
      q: missing,
      i2: missing,
      ciLow: missing,
      ciHigh: missing,
      piLow: missing,
      piHigh: missing,
      k,
      respondents,
    };
  }
  const zs = used.map((study) => Math.atanh(study.r));
  const weights = used.map((study) => study.n - 3);
  const weightSum = weights.reduce((total, weight) => total + weight, 0);
  const fixed = zs.reduce((total, z, i) => total + (weights[i] ?? 0) * z, 0) / weightSum;
  const q = zs.reduce((total, z, i) => total + (weights[i] ?? 0) * (z - fixed) ** 2, 0);
  const df = k - 1;
  const scale = weightSum - weights.reduce((total, weight) => total + weight * weight, 0) / weightSum;
  const tau2 = df > 0 && scale > 0 ? Math.max(0, (q - df) / scale) : 0;
  const randomWeights = weights.map((weight) => 1 / (1 / weight + tau2));
  const randomSum = randomWeights.reduce((total, weight) => total + weight, 0);
  const z = zs.reduce((total, value, i) => total + (randomWeights[i] ?? 0) * value, 0) / randomSum;
  const hk = hksjStdError(zs, randomWeights, z);
  const tCi = k >= 2 ? studentTQuantile(0.975, k - 1) : Number.NaN;
  const tPi = k >= 3 ? studentTQuantile(0.975, k - 2) : Number.NaN;
  const piSpread = Math.sqrt(tau2 + 1 / randomSum);
  return {
    r: Math.tanh(z),
    z,
    tau2,
    q,
    i2: q > df ? (q - df) / q : 0,
    ciLow: Math.tanh(z - tCi * hk),
    ciHigh: Math.tanh(z + tCi * hk),
    piLow: Math.tanh(z - tPi * piSpread),
    piHigh: Math.tanh(z + tPi * piSpread),
    k,
    respondents,
  };
}
