import { describe, expect, it } from 'vitest';
import { derSimonianLaird } from './meta-analysis.ts';
import { hksjStdError, metaHksj } from './meta-hksj.ts';

describe('metaHksj', () => {
  const studies = [
    { mean: 3.6, sd: 0.8, n: 120 },
    { mean: 3.9, sd: 0.9, n: 90 },
    { mean: 3.4, sd: 1.0, n: 150 },
    { mean: 3.8, sd: 0.7, n: 60 },
  ];

  it('keeps the DerSimonian-Laird estimate and tau² and widens the interval with t on k − 1 df', () => {
    const result = metaHksj(studies);
    const dl = derSimonianLaird(studies);
    expect(result.estimate).toBeCloseTo(dl.estimate, 12);
    expect(result.tau2).toBeCloseTo(dl.tau2, 12);
    // t(0.975, 3) = 3.1824463052837078
    expect(result.hkCiHigh - result.estimate).toBeCloseTo(3.1824463052837078 * result.hkStdError, 10);
    expect(result.estimate - result.hkCiLow).toBeCloseTo(3.1824463052837078 * result.hkStdError, 10);
    // t(0.975, 2) = 4.302652729749462, on the DL standard error and tau².
    const half = 4.302652729749462 * Math.sqrt(dl.tau2 + dl.stdError ** 2);
    expect(result.piHigh).toBeCloseTo(result.estimate + half, 10);
    expect(result.piLow).toBeCloseTo(result.estimate - half, 10);
  });

  it('has no prediction interval from two studies, and nothing from one', () => {
    const two = metaHksj(studies.slice(0, 2));
    expect(Number.isFinite(two.hkCiLow)).toBe(true);
    expect(Number.isNaN(two.piLow) && Number.isNaN(two.piHigh)).toBe(true);
    const one = metaHksj(studies.slice(0, 1));
    expect(one.k).toBe(1);
    expect(Number.isNaN(one.hkStdError) && Number.isNaN(one.hkCiLow)).toBe(true);
  });

  it('leaves out studies without a positive sd, as the pooling does', () => {
    const result = metaHksj([...studies, { mean: 9, sd: 0, n: 40 }]);
    expect(result.k).toBe(4);
    expect(result.hkStdError).toBeCloseTo(metaHksj(studies).hkStdError, 12);
  });
});

describe('hksjStdError', () => {
  it('is the weighted spread of the study means around the estimate', () => {
    // w = 1/(v + τ²) = 1/(0.01 + 0.01) = 50 and 1/(0.03 + 0.01) = 25; est = (50·1 + 25·2)/75 = 4/3.
    const estimate = 4 / 3;
    const expected = Math.sqrt((50 * (1 - estimate) ** 2 + 25 * (2 - estimate) ** 2) / (1 * 75));
    expect(hksjStdError([1, 2], [0.01, 0.03], 0.01, estimate)).toBeCloseTo(expected, 12);
  });

  it('is NaN for one value or mismatched inputs', () => {
    expect(Number.isNaN(hksjStdError([1], [0.01], 0, 1))).toBe(true);
    expect(Number.isNaN(hksjStdError([1, 2], [0.01], 0, 1))).toBe(true);
  });
});
