import { describe, expect, it } from 'vitest';
import {
  eegScore,
  harmoniseToFivePoint,
  IMPLICIT_SCALE,
  implicitAnswer,
  jarAnswer,
  latentToScale,
  likingAnswer,
} from './latent-model.ts';
import { Rng } from './prng.ts';
import { SCALES } from './scales.ts';

describe('harmoniseToFivePoint', () => {
  it('maps every scale onto [1, 5] as METRICS.md section 1 says', () => {
    expect(harmoniseToFivePoint(1, 1, 9)).toBe(1);
    expect(harmoniseToFivePoint(9, 1, 9)).toBe(5);
    expect(harmoniseToFivePoint(6, 1, 9)).toBe(3.5); // 9-point 6 is top 2 box
    expect(harmoniseToFivePoint(4, 1, 7)).toBe(3);
    expect(harmoniseToFivePoint(5, 0, 10)).toBe(3);
    expect(harmoniseToFivePoint(0, 0, 1)).toBe(1); // binary answers become 1 or 5
    expect(harmoniseToFivePoint(1, 0, 1)).toBe(5);
    expect(harmoniseToFivePoint(2, 1, 2)).toBe(5);
  });

  it('rejects an empty scale', () => {
    expect(() => harmoniseToFivePoint(1, 3, 3)).toThrow();
  });

  it('puts implicit codes in the boxes that read yes, fast yes, no and fast no', () => {
    const h = (yes: boolean, fast: boolean) =>
      harmoniseToFivePoint(implicitAnswer(yes, fast), IMPLICIT_SCALE.min, IMPLICIT_SCALE.max);
    expect(h(true, true)).toBeGreaterThanOrEqual(4.5);
    expect(h(true, false)).toBeGreaterThanOrEqual(3.5);
    expect(h(true, false)).toBeLessThan(4.5);
    expect(h(false, false)).toBeLessThanOrEqual(2.5);
    expect(h(false, false)).toBeGreaterThan(1.5);
    expect(h(false, true)).toBeLessThanOrEqual(1.5);
  });
});

describe('latent model', () => {
  it('keeps every answer on its scale, whatever the latent value', () => {
    const rng = new Rng(5);
    const problems: string[] = [];
    for (const scale of [
      SCALES.hedonic9,
      SCALES.hedonic7,
      SCALES.hedonic5,
      SCALES.hedonic0to10,
      SCALES.agree7,
    ]) {
      for (let i = 0; i < 5000; i++) {
        const value = latentToScale(rng.normal(0, 4), scale.min, scale.max, 0.6, 0.2);
        if (!Number.isInteger(value) || value < scale.min || value > scale.max)
          problems.push(`${scale.key}=${value}`);
      }
    }
    for (let i = 0; i < 1000; i++) {
      const jar = jarAnswer(rng.normal(0, 5));
      if (!(jar >= 1 && jar <= 5)) problems.push(`jar=${jar}`);
      const eeg = eegScore(rng.normal(0.5, 2));
      if (!(eeg > 0 && eeg < 1)) problems.push(`eeg=${eeg}`);
    }
    expect(problems).toEqual([]);
  });

  it('answers higher when the latent liking is higher', () => {
    const { min, max } = SCALES.hedonic9;
    expect(likingAnswer(1, min, max)).toBeGreaterThan(likingAnswer(-1, min, max));
    expect(likingAnswer(0, min, max)).toBeGreaterThan(5); // typical liking sits above the midpoint
  });
});
