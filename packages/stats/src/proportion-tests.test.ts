import { describe, expect, it } from 'vitest';
import { oneProportionZ, twoProportionZ } from './index.ts';
import { expectRelative } from './test-helpers.ts';

// Expected values: pooled z and one-sample score z evaluated with scipy.stats.norm.
describe('twoProportionZ', () => {
  it('uses the pooled proportion for every alternative', () => {
    const twoSided = twoProportionZ(30, 80, 20, 90);
    expectRelative(twoSided.statistic, 2.182103130943649, 1e-12);
    expectRelative(twoSided.pValue, 0.02910192219283254, 1e-12);
    expectRelative(twoProportionZ(30, 80, 20, 90, 'greater').pValue, 0.01455096109641627, 1e-12);
    expectRelative(twoProportionZ(30, 80, 20, 90, 'less').pValue, 0.9854490389035837, 1e-12);
    expect(twoSided.pooledProportion).toBeCloseTo(50 / 170, 15);
    expect(twoSided.estimate).toBeCloseTo(30 / 80 - 20 / 90, 15);
  });

  it('is undefined when both samples are all in or all out', () => {
    expect(twoProportionZ(0, 10, 0, 12).pValue).toBeNaN();
    expect(twoProportionZ(10, 10, 12, 12).statistic).toBeNaN();
  });

  it('rejects impossible counts with NaN instead of throwing', () => {
    expect(twoProportionZ(11, 10, 3, 12).pValue).toBeNaN();
    expect(twoProportionZ(-1, 10, 3, 12).pValue).toBeNaN();
    expect(twoProportionZ(1, 0, 3, 12).pValue).toBeNaN();
    expect(twoProportionZ(Number.NaN, 10, 3, 12).pValue).toBeNaN();
  });
});

describe('oneProportionZ', () => {
  it('uses the null-hypothesis standard error', () => {
    const result = oneProportionZ(40, 100, 0.3);
    expectRelative(result.statistic, 2.1821789023599245, 1e-12);
    expectRelative(result.pValue, 0.029096331741252156, 1e-12);
    expectRelative(oneProportionZ(40, 100, 0.3, 'greater').pValue, 0.014548165870626078, 1e-12);
  });

  it('gives the limits when the reference proportion is 0 or 1', () => {
    const result = oneProportionZ(3, 10, 0);
    expect(result.statistic).toBe(Number.POSITIVE_INFINITY);
    expect(result.pValue).toBe(0);
    expect(oneProportionZ(0, 10, 0).pValue).toBeNaN();
    expect(oneProportionZ(3, 10, 1.5).pValue).toBeNaN();
  });
});
