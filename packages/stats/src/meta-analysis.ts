// Pooling one fragrance's results across studies (METRICS.md section 5): DerSimonian-Laird
// random-effects meta-analysis of study means.
import { sum } from './descriptive.ts';
import { normalQuantile } from './distributions.ts';

/** One study's summary: mean, standard deviation and number of answers. */
export interface StudySummary {
  mean: number;
  sd: number;
  n: number;
}

/** Result of {@link derSimonianLaird}. */
export interface MetaAnalysisResult {
  /** Random-effects pooled mean Σw*ᵢyᵢ / Σw*ᵢ with w*ᵢ = 1/(vᵢ + τ²). */
  estimate: number;
  /** √(1 / Σw*ᵢ). */
  stdError: number;
  /** Between-study variance max(0, (Q − (k − 1)) / (Σw − Σw²/Σw)). */
  tau2: number;
  /** Cochran's Q with the fixed-effect weights wᵢ = nᵢ/sdᵢ². */
  q: number;
  /** I² = max(0, (Q − (k − 1)) / Q) as a share in [0, 1]; 0 when Q is 0. */
  i2: number;
  /** 95 % normal interval, estimate ∓ 1.959964 × stdError. */
  ciLow: number;
  ciHigh: number;
  /** Studies pooled (those with a finite mean, sd > 0 and n > 0). */
  k: number;
}

/**
 * DerSimonian-Laird random-effects pooling of study means, each with variance sd²/n. Studies without a
 * finite mean, a positive sd or a positive n are left out (their variance is undefined or zero). One
 * study gives its own mean and standard error with Q, τ² and I² of 0; none gives NaN throughout.
 */
export function derSimonianLaird(studies: readonly StudySummary[]): MetaAnalysisResult {
  const used = studies.filter(
    (study) => Number.isFinite(study.mean) && study.sd > 0 && Number.isFinite(study.sd) && study.n > 0,
  );
  const k = used.length;
  if (k === 0) {
    const missing = Number.NaN;
    return {
      estimate: missing,
      stdError: missing,
      tau2: missing,
      q: missing,
      i2: missing,
      ciLow: missing,
      ciHigh: missing,
      k,
    };
  }
  const variances = used.map((study) => (study.sd * study.sd) / study.n);
  const weights = variances.map((variance) => 1 / variance);
  const weightSum = sum(weights);
  const fixedMean = sum(used.map((study, i) => (weights[i] ?? 0) * study.mean)) / weightSum;
  const q = sum(used.map((study, i) => (weights[i] ?? 0) * (study.mean - fixedMean) ** 2));
  const df = k - 1;
  const scale = weightSum - sum(weights.map((weight) => weight * weight)) / weightSum;
  const tau2 = df > 0 && scale > 0 ? Math.max(0, (q - df) / scale) : 0;
  const randomWeights = variances.map((variance) => 1 / (variance + tau2));
  const randomSum = sum(randomWeights);
  const estimate = sum(used.map((study, i) => (randomWeights[i] ?? 0) * study.mean)) / randomSum;
  const stdError = Math.sqrt(1 / randomSum);
  const z = normalQuantile(0.975);
  return {
    estimate,
    stdError,
    tau2,
    q,
    i2: q > df ? (q - df) / q : 0,
    ciLow: estimate - z * stdError,
    ciHigh: estimate + z * stdError,
    k,
  };
}
