// Pooling one correlation per study across studies (drivers of liking, reference cases
// `meta_correlation`): Fisher's z = atanh(r) with variance 1/(n − 3), DerSimonian-Laird between-study
// variance, the Hartung-Knapp-Sidik-Jonkman interval (t with k − 1 df) and Higgins' prediction interval
// (t with k − 2 df), all back-transformed with tanh.
import { studentTQuantile } from './distributions.ts';
import { derSimonianLaird } from './meta-analysis.ts';
import { hksjStdError } from './meta-hksj.ts';

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
  // Fisher's z has variance 1/(n − 3): a "study mean" z with sd 1 over n − 3 pools exactly so.
  const zs = used.map((study) => Math.atanh(study.r));
  const pooled = derSimonianLaird(zs.map((z, i) => ({ mean: z, sd: 1, n: (used[i]?.n ?? Number.NaN) - 3 })));
  const { estimate: z, tau2, q, i2 } = pooled;
  const hk = hksjStdError(
    zs,
    used.map((study) => 1 / (study.n - 3)),
    tau2,
    z,
  );
  const tCi = k >= 2 ? studentTQuantile(0.975, k - 1) : Number.NaN;
  const tPi = k >= 3 ? studentTQuantile(0.975, k - 2) : Number.NaN;
  const piSpread = Math.sqrt(tau2 + pooled.stdError * pooled.stdError);
  return {
    r: Math.tanh(z),
    z,
    tau2,
    q,
    i2,
    ciLow: Math.tanh(z - tCi * hk),
    ciHigh: Math.tanh(z + tCi * hk),
    piLow: Math.tanh(z - tPi * piSpread),
    piHigh: Math.tanh(z + tPi * piSpread),
    k,
    respondents,
  };
}
