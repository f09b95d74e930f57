import { describe, expect, it } from 'vitest';
import { harmoniseToFivePoint, jarCategory, jarDistribution, penaltyAnalysis } from './index.ts';

describe('jarCategory and jarDistribution', () => {
  it('splits the harmonised scale at the box thresholds', () => {
    const nine = (value: number): number => harmoniseToFivePoint(value, 1, 9);
    expect([1, 4, 5, 6, 9].map((value) => jarCategory(nine(value)))).toEqual([
      'too_weak',
      'too_weak',
      'just_right',
      'too_strong',
      'too_strong',
    ]);
    expect(jarCategory(Number.NaN)).toBeNull();
  });

  it('gives shares of the answered base', () => {
    expect(jarDistribution([1, 2, 3, 3, 3, 4, 5, Number.NaN])).toEqual({
      n: 7,
      tooWeak: 2 / 7,
      justRight: 3 / 7,
      tooStrong: 2 / 7,
    });
    expect(jarDistribution([])).toEqual({ n: 0, tooWeak: null, justRight: null, tooStrong: null });
  });
});

describe('penaltyAnalysis', () => {
  // 10 respondents: 5 just right (liking mean 7), 3 too strong (mean 4), 2 too weak (mean 6).
  const jar = [3, 3, 3, 3, 3, 5, 4, 5, 1, 2];
  const liking = [7, 8, 6, 7, 7, 4, 5, 3, 6, 6];

  it('computes mean drops and weighted penalties against the JAR group', () => {
    const result = penaltyAnalysis(jar, liking);
    expect(result.n).toBe(10);
    expect(result.justRight).toEqual({ n: 5, share: 0.5, meanLiking: 7 });
    expect(result.tooStrong.analysed).toBe(true);
    expect(result.tooStrong.meanLiking).toBe(4);
    expect(result.tooStrong.meanDrop).toBe(3);
    expect(result.tooStrong.weightedPenalty).toBeCloseTo(0.9, 15);
    // Exactly 20 % is analysed.
    expect(result.tooWeak.share).toBe(0.2);
    expect(result.tooWeak.analysed).toBe(true);
    expect(result.tooWeak.meanDrop).toBe(1);
    expect(result.tooWeak.weightedPenalty).toBeCloseTo(0.2, 15);
  });

  it('skips groups below the threshold', () => {
    const result = penaltyAnalysis([...jar, 3], [...liking, 7]);
    expect(result.tooWeak.share).toBeCloseTo(2 / 11, 15);
    expect(result).toMatchObject({ tooWeak: { analysed: false, meanDrop: null, weightedPenalty: null } });
    expect(penaltyAnalysis(jar, liking, { minShare: 0.35 }).tooStrong.analysed).toBe(false);
  });

  it('drops respondents missing either answer', () => {
    const result = penaltyAnalysis([...jar, Number.NaN, 3], [...liking, 9, Number.NaN]);
    expect(result).toEqual(penaltyAnalysis(jar, liking));
  });

  it('reports nothing without a just-right group, and nulls for an empty input', () => {
    const noJar = penaltyAnalysis([1, 1, 5, 5], [3, 4, 5, 6]);
    expect(noJar.justRight).toEqual({ n: 0, share: 0, meanLiking: null });
    expect(noJar.tooWeak.analysed).toBe(false);
    expect(noJar.tooWeak.meanLiking).toBe(3.5);
    const empty = penaltyAnalysis([], []);
    expect(empty.n).toBe(0);
    expect(empty.justRight.share).toBeNull();
    expect(empty.tooStrong).toEqual({
      n: 0,
      share: null,
      meanLiking: null,
      analysed: false,
      meanDrop: null,
      weightedPenalty: null,
    });
  });

  it('rejects arrays of different lengths', () => {
    expect(() => penaltyAnalysis([3, 3], [7])).toThrow(RangeError);
  });
});
