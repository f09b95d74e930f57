/**
 * The answer model behind the demo library, and the harmonisation every answer goes through.
 *
 * Each respondent r and product p share one latent liking
 *     L = quality(p) + familyFit(p, category) - strengthPenalty(p) + studyEffect + regionBias + bias(r) + noise
 * on a standard-normal-like scale; every answer is a function of L plus its own noise, mapped onto
 * the question's scale. So analytics find real patterns: better fragrances win, families that suit
 * the category win, purchase intention follows liking, strength is centred on just right, attributes
 * follow the family, and some markets rate everything higher.
 */
import type { Rng } from './prng.ts';

/** The one harmonisation of the product (METRICS.md section 1), from the statistics package. */
export { harmoniseToFivePoint } from '@accord/stats';

export function clamp(value: number, min: number, max: number): number {
  return value < min ? min : value > max ? max : value;
}

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/**
 * Point on an integer scale [min, max] for a latent value: the latent moves the answer from
 * `centre` (share of the scale's width) by `spread` of the width per unit. Always on the scale.
 */
export function latentToScale(
  latent: number,
  min: number,
  max: number,
  centre: number,
  spread: number,
): number {
  const position = centre + spread * latent;
  return clamp(min + Math.round(position * (max - min)), min, max);
}

/** Just-about-right answer 1..5 (3 = just right) for a strength deviation in JAR steps. */
export function jarAnswer(deviation: number): number {
  return clamp(3 + Math.round(deviation), 1, 5);
}

/**
 * Implicit (IRT) answers are coded on a 1-4 scale so that the harmonised boxes read them directly:
 * 1 = no (fast), 2 = no, 3 = yes, 4 = yes (fast). Harmonised: 1, 2.33, 3.67, 5, so top_2_box is the
 * share of yes (irt_yes), top_box of fast yes (hi_yes), bottom_2_box of no (irt_no), bottom_box of
 * fast no (hi_no).
 */
export const IMPLICIT_SCALE = { min: 1, max: 4 } as const;

export function implicitAnswer(yes: boolean, fast: boolean): number {
  if (yes) return fast ? 4 : 3;
  return fast ? 1 : 2;
}

/** EEG scores are continuous in (0, 1), kept with 3 decimals. */
export const EEG_SCALE = { min: 0, max: 1 } as const;

export function eegScore(value: number): number {
  return Math.round(clamp(value, 0.001, 0.999) * 1000) / 1000;
}

/** Per-metric EEG response: baseline, weight of the latent liking, and family effects. */
export const EEG_PROFILES: Record<string, { base: number; liking: number; family: Record<string, number> }> =
  {
    hfd_hedonic: { base: 0.52, liking: 0.06, family: {} },
    addiction: { base: 0.45, liking: 0.04, family: { Gourmand: 0.06, 'Oriental/Amber': 0.05 } },
    cogproc: { base: 0.48, liking: 0.01, family: { Chypre: 0.04, Woody: 0.03 } },
    attention: { base: 0.5, liking: 0.02, family: { Citrus: 0.05, Fresh: 0.04 } },
    relaxation: {
      base: 0.47,
      liking: 0.02,
      family: { Floral: 0.05, Woody: 0.04, 'Oriental/Amber': 0.04, Citrus: -0.04 },
    },
    energizing_eeg: {
      base: 0.46,
      liking: 0.02,
      family: { Citrus: 0.06, Fresh: 0.05, Fruity: 0.04, Gourmand: -0.04 },
    },
  };

/** Parameters of the model, in one place so the tests and the generator agree. */
export const MODEL = {
  qualitySd: 0.55,
  benchmarkQualityBonus: 0.25,
  conceptQualitySd: 0.5,
  studyEffectSd: 0.15,
  respondentBiasSd: 0.45,
  answerNoiseSd: 0.7,
  /** Liking lost per JAR step of strength off just right. */
  strengthPenalty: 0.35,
  strengthOffsetSd: 0.45,
  strengthSensitivitySd: 0.3,
  strengthNoiseSd: 0.55,
  attributeIdiosyncrasySd: 0.25,
  agreementBiasSd: 0.3,
} as const;

/** What the latent model knows about one rated product. */
export interface LatentProduct {
  quality: number;
  fit: number;
  /** Strength deviation from just right, in JAR steps (fragrances only). */
  strengthOffset: number;
  /** Affinity with each attribute in about [-1, 1]. */
  affinity: Record<string, number>;
  /** Family name for the EEG family effects (none for concepts). */
  family?: string;
}

export interface LatentRespondent {
  bias: number;
  agreementBias: number;
  strengthSensitivity: number;
}

/** Latent liking of one respondent for one product. */
export function latentLiking(
  rng: Rng,
  product: LatentProduct,
  respondent: LatentRespondent,
  sharedEffect: number,
): number {
  return (
    product.quality +
    product.fit -
    MODEL.strengthPenalty * Math.abs(product.strengthOffset) +
    sharedEffect +
    respondent.bias +
    rng.normal(0, MODEL.answerNoiseSd)
  );
}

export function likingAnswer(liking: number, min: number, max: number): number {
  return latentToScale(liking, min, max, 0.64, 0.18);
}

export function purchaseIntentionAnswer(rng: Rng, liking: number, min: number, max: number): number {
  return latentToScale(0.85 * liking - 0.2 + rng.normal(0, 0.55), min, max, 0.55, 0.2);
}

export function strengthAnswer(rng: Rng, product: LatentProduct, respondent: LatentRespondent): number {
  return jarAnswer(
    product.strengthOffset + respondent.strengthSensitivity + rng.normal(0, MODEL.strengthNoiseSd),
  );
}

/** Agreement with an attribute on an integer scale. */
export function attributeAgreement(
  rng: Rng,
  affinity: number,
  liking: number,
  respondent: LatentRespondent,
  min: number,
  max: number,
): number {
  const x = 0.9 * affinity + 0.3 * liking + respondent.agreementBias + rng.normal(0, 0.75);
  return latentToScale(x, min, max, 0.55, 0.2);
}

/** Check-all-that-apply: true when the respondent ticks the attribute. */
export function attributeTicked(rng: Rng, affinity: number, liking: number): boolean {
  return rng.chance(sigmoid(-0.7 + 1.8 * affinity + 0.3 * liking));
}

export function implicitResponse(rng: Rng, affinity: number, liking: number): number {
  const association = affinity + 0.25 * liking + rng.normal(0, 0.4);
  const yes = rng.chance(sigmoid(-0.2 + 1.7 * association));
  // Strong associations, either way, are answered fast.
  const fast = rng.chance(0.2 + 0.45 * Math.min(1, Math.abs(association)));
  return implicitAnswer(yes, fast);
}

export function eegAnswer(rng: Rng, metric: string, liking: number, family: string | undefined): number {
  const profile = EEG_PROFILES[metric];
  if (!profile) throw new Error(`No EEG profile for ${metric}`);
  const familyEffect = family ? (profile.family[family] ?? 0) : 0;
  return eegScore(profile.base + profile.liking * liking + familyEffect + rng.normal(0, 0.08));
}
