import { describe, expect, it } from 'vitest';
import {
  cohenH,
  detectableEffectH,
  detectableEffectT,
  metaCorrelation,
  normalCdf,
  normalQuantile,
  powerOneSampleT,
  powerOneShare,
  shareAtEffect,
  noncentralTCdf,
  powerProportions,
  powerT,
  studentTCdf,
  tTestPower,
} from './index.ts';
import { expectRelative } from './test-helpers.ts';

describe('noncentralTCdf', () => {
  it('is the Student t distribution when the noncentrality is 0', () => {
    for (const [t, df] of [
      [-2.1, 4],
      [0.3, 19],
      [1.97, 238],
      [2.6, 1000],
    ] as const) {
      expectRelative(noncentralTCdf(t, df, 0), studentTCdf(t, df), 1e-10);
    }
  });

  it('shifts with the noncentrality as the normal does for large df', () => {
    // With df = 1e5, T is within 1e-4 of Z + nc.
    expect(noncentralTCdf(2.5, 100000, 1.5)).toBeCloseTo(0.8413447, 4);
  });
});

describe('powerT', () => {
  it('solves n so that the power at n is the target', () => {
    const result = powerT({
      design: 'paired',
      difference: 0.3,
      sd: 1,
      correlation: 0.5,
      alpha: 0.05,
      power: 0.8,
    });
    expectRelative(tTestPower('paired', result.effectSize, result.n, 0.05), 0.8, 1e-9);
    expect(result.nRequired).toBe(Math.ceil(result.n));
    expect(result.powerAtN).toBeNaN();
  });

  it('needs fewer respondents paired than per product monadic when answers correlate', () => {
    const options = { difference: 0.3, sd: 1, alpha: 0.05, power: 0.8 };
    const monadic = powerT({ ...options, design: 'independent' });
    const paired = powerT({ ...options, design: 'paired', correlation: 0.5 });
    expect(paired.n).toBeLessThan(monadic.n);
    // ρ = 0.5 makes the paired effect size d/sd, so n_paired ≈ n_monadic / 2 (plus a df correction).
    expect(paired.n).toBeGreaterThan(monadic.n / 2);
    expect(paired.n).toBeLessThan(monadic.n / 2 + 2);
  });

  it('refuses impossible levels and a paired design without a correlation', () => {
    expect(() => powerT({ design: 'paired', difference: 0.3, sd: 1, alpha: 0.05, power: 0.8 })).toThrow(
      RangeError,
    );
    expect(() => powerT({ design: 'independent', difference: 0.3, sd: 1, alpha: 0.05, power: 0.01 })).toThrow(
      RangeError,
    );
    expect(powerT({ design: 'independent', difference: 0, sd: 1, alpha: 0.05, power: 0.8 }).n).toBeNaN();
  });
});

describe('powerProportions', () => {
  it('is symmetric in the two shares', () => {
    const one = powerProportions({ p1: 0.5, p2: 0.4, alpha: 0.05, power: 0.8 });
    const other = powerProportions({ p1: 0.4, p2: 0.5, alpha: 0.05, power: 0.8 });
    expectRelative(one.n, other.n, 1e-12);
  });
});

describe('metaCorrelation', () => {
  it('gives one study its own correlation with no interval of its own', () => {
    const result = metaCorrelation([{ r: 0.4, n: 50 }]);
    expectRelative(result.r, 0.4, 1e-12);
    expect(result.k).toBe(1);
    expect(result.ciLow).toBeNaN();
    expect(result.piLow).toBeNaN();
  });

  it('leaves out studies without a usable correlation', () => {
    const result = metaCorrelation([
      { r: 0.4, n: 50 },
      { r: Number.NaN, n: 80 },
      { r: 0.5, n: 3 },
      { r: 0.3, n: 60 },
    ]);
    expect(result.k).toBe(2);
    expect(result.respondents).toBe(110);
  });
});

describe('detectable effects', () => {
  it('inverts the sample size solution', () => {
    const result = powerT({ design: 'independent', difference: 0.3, sd: 1, alpha: 0.05, power: 0.8 });
    expectRelative(detectableEffectT('independent', result.n, 0.05, 0.8), 0.3, 1e-9);
    const shares = powerProportions({ p1: 0.5, p2: 0.4, alpha: 0.05, power: 0.8 });
    expectRelative(detectableEffectH(shares.n, 0.05, 0.8), Math.abs(cohenH(0.5, 0.4)), 1e-9);
    expectRelative(shareAtEffect(0.4, cohenH(0.5, 0.4)), 0.5, 1e-12);
  });
});

describe('one-sample plans', () => {
  it('solve the one-sample t test and the one-share normal test', () => {
    const mean = powerOneSampleT({ difference: 0.3, sd: 1.1, alpha: 0.05, power: 0.8 });
    expectRelative(tTestPower('paired', 0.3 / 1.1, mean.n, 0.05), 0.8, 1e-9);
    const share = powerOneShare({ p0: 0.4, p1: 0.5, alpha: 0.05, power: 0.8 });
    // The power written out at the solved n: Φ(|h|·√n − z₀.₉₇₅) + Φ(−|h|·√n − z₀.₉₇₅) = 0.8.
    const h = Math.abs(cohenH(0.5, 0.4));
    const z = normalQuantile(0.975);
    const reached = normalCdf(h * Math.sqrt(share.n) - z) + normalCdf(-h * Math.sqrt(share.n) - z);
    expectRelative(reached, 0.8, 1e-9);
  });
});
