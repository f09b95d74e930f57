// The interval of a pooled fragrance with few tests (METRICS.md section 5): Hartung-Knapp-Sidik-
// Jonkman's interval around the DerSimonian-Laird estimate, with t on k − 1 df, and Higgins' 95 %
// prediction interval for a new test, with t on k − 2 df (reference case `meta_hksj`).
import { sum } from './descriptive.ts';
import { studentTQuantile } from './distributions.ts';
import { derSimonianLaird, type MetaAnalysisResult, type StudySummary } from './meta-analysis.ts';

/**
 * The Hartung-Knapp-Sidik-Jonkman standard error of a random-effects estimate:
 * √(Σ wᵢ(yᵢ − est)² / ((k − 1) Σ wᵢ)) with wᵢ = 1/(vᵢ + τ²), without the "modified" floor (it may be
 * smaller than the DerSimonian-Laird standard error). NaN with fewer than two studies or a non-finite
 * weight. `values` and `variances` line up; `tau2` is the between-study variance used for the estimate.
 */
export function hksjStdError(
  values: readonly number[],
  variances: readonly number[],
  tau2: number,
  estimate: number,
): number {
  const k = values.length;
  if (k < 2 || variances.length !== k) return Number.NaN;
  const weights = variances.map((variance) => 1 / (variance + tau2));
  if (!weights.every((weight) => Number.isFinite(weight) && weight > 0)) return Number.NaN;
  const spread = sum(values.map((value, i) => (weights[i] ?? 0) * (value - estimate) ** 2));
  return Math.sqrt(spread / ((k - 1) * sum(weights)));
}

/** Result of {@link metaHksj}: the DerSimonian-Laird pooling and the intervals a researcher reads. */
export interface MetaHksjResult extends MetaAnalysisResult {
  /** {@link hksjStdError} of the estimate. */
  hkStdError: number;
  /** estimate ∓ t(0.975, k − 1) × hkStdError; NaN with fewer than two studies. */
  hkCiLow: number;
  hkCiHigh: number;
  /** estimate ∓ t(0.975, k − 2) × √(τ² + 1/Σw*), Higgins' prediction interval; NaN when k < 3. */
  piLow: number;
  piHigh: number;
}

/**
 * DerSimonian-Laird pooling of study means (variance sd²/n; studies without a finite mean, a positive sd
 * or a positive n left out, as in {@link derSimonianLaird}) with the HKSJ interval and the prediction
 * interval for a new study.
 */
export function metaHksj(studies: readonly StudySummary[]): MetaHksjResult {
  const pooled = derSimonianLaird(studies);
  const used = studies.filter(
    (study) => Number.isFinite(study.mean) && study.sd > 0 && Number.isFinite(study.sd) && study.n > 0,
  );
  const k = used.length;
  const hkStdError = hksjStdError(
    used.map((study) => study.mean),
    used.map((study) => (study.sd * study.sd) / study.n),
    pooled.tau2,
    pooled.estimate,
  );
  const hkT = k >= 2 ? studentTQuantile(0.975, k - 1) : Number.NaN;
  const piT = k >= 3 ? studentTQuantile(0.975, k - 2) : Number.NaN;
  const piHalf = piT * Math.sqrt(pooled.tau2 + pooled.stdError * pooled.stdError);
  return {
    ...pooled,
    hkStdError,
    hkCiLow: pooled.estimate - hkT * hkStdError,
    hkCiHigh: pooled.estimate + hkT * hkStdError,
    piLow: pooled.estimate - piHalf,
    piHigh: pooled.estimate + piHalf,
  };
}
