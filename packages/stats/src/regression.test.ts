import { describe, expect, it } from 'vitest';
import { oneSampleT, ols, olsClustered, pearson } from './index.ts';
import { expectRelative } from './test-helpers.ts';

describe('ols', () => {
  // Expected values from numpy.linalg.lstsq with classic standard errors and scipy.stats.t / f.
  const X = [
    [1, 2.0],
    [2, 1.5],
    [3, 3.5],
    [4, 3.0],
    [5, 5.5],
    [6, 4.0],
    [7, 6.5],
    [8, 7.0],
  ];
  const y = [2.1, 2.9, 4.2, 4.8, 6.9, 6.1, 8.4, 8.8];

  it('matches a reference fit, including the F test', () => {
    const result = ols(X, y);
    const expected = {
      coefficients: [0.7246026490066204, 0.5444370860927152, 0.5698013245033114],
      standardErrors: [0.2498836846207772, 0.11557989210941318, 0.139394594704248],
      t: [2.8997597426429635, 4.7104827332536905, 4.087685937265019],
      pValues: [0.0338001608023759, 0.005287341546386677, 0.009468254410073816],
    };
    for (const key of ['coefficients', 'standardErrors', 't', 'pValues'] as const) {
      expected[key].forEach((value, index) => expectRelative(result[key][index] ?? Number.NaN, value, 1e-10));
    }
    expectRelative(result.rSquared, 0.989632769938508, 1e-12);
    expectRelative(result.adjRSquared, 0.9854858779139112, 1e-12);
    expectRelative(result.fStatistic, 238.64445084864053, 1e-10);
    expectRelative(result.fPValue, 1.09435150727893e-5, 1e-9);
    expectRelative(result.residualStandardError, 0.2955049556402513, 1e-12);
    expect(result.df).toBe(5);
    expect(result.n).toBe(8);
    expect(result.rankDeficient).toBe(false);
  });

  it('applies the alternative to the coefficient tests', () => {
    const result = ols(X, y, { alternative: 'greater' });
    expectRelative(result.pValues[1] ?? Number.NaN, 0.0026436707731933387, 1e-10);
  });

  it('agrees with Pearson for one predictor', () => {
    const x = [1, 3, 2, 5, 4, 6, 8, 7];
    const response = [2.0, 2.5, 2.2, 4.1, 3.0, 4.4, 5.9, 4.8];
    const fit = ols(
      x.map((value) => [value]),
      response,
    );
    const correlation = pearson(x, response);
    expectRelative(fit.t[1] ?? Number.NaN, correlation.statistic, 1e-12);
    expectRelative(fit.pValues[1] ?? Number.NaN, correlation.pValue, 1e-12);
    expectRelative(fit.rSquared, correlation.r ** 2, 1e-12);
  });

  it('reduces to the one-sample t-test without predictors', () => {
    const response = [3.1, 2.4, 4.0, 3.3, 2.9];
    const fit = ols(
      response.map(() => []),
      response,
    );
    const test = oneSampleT(response, 0);
    expectRelative(fit.coefficients[0] ?? Number.NaN, 3.14, 1e-14);
    expectRelative(fit.standardErrors[0] ?? Number.NaN, test.standardError, 1e-12);
    expectRelative(fit.pValues[0] ?? Number.NaN, test.pValue, 1e-12);
    expect(fit.fStatistic).toBeNaN();
  });

  it('flags collinear predictors instead of returning garbage', () => {
    const result = ols(
      [
        [1, 2],
        [2, 4],
        [3, 6],
        [4, 8],
      ],
      [1, 2, 2, 3],
    );
    expect(result.rankDeficient).toBe(true);
    expect(result.coefficients.every(Number.isNaN)).toBe(true);
    expect(result.coefficients).toHaveLength(3);
    // A predictor equal to the intercept is collinear too, as is having fewer rows than coefficients.
    expect(ols([[5], [5], [5]], [1, 2, 3]).rankDeficient).toBe(true);
    expect(ols([[1, 2]], [1]).rankDeficient).toBe(true);
  });

  it('fits exactly with n = k and leaves the inference undefined', () => {
    const result = ols([[1], [3]], [2, 6]);
    expectRelative(result.coefficients[0] ?? Number.NaN, 0, 1e-12);
    expectRelative(result.coefficients[1] ?? Number.NaN, 2, 1e-12);
    expect(result.df).toBe(0);
    expect(result.standardErrors[1]).toBeNaN();
    expect(result.pValues[1]).toBeNaN();
    expect(result.adjRSquared).toBeNaN();
  });

  it('drops rows with a missing value and validates shapes', () => {
    const withMissing = ols([...X, [Number.NaN, 1], [9, 9]], [...y, 3, Number.NaN]);
    expect(withMissing).toEqual(ols(X, y));
    expect(() => ols(X, y.slice(1))).toThrow(RangeError);
    expect(() => ols([[1, 2], [3]], [1, 2])).toThrow(RangeError);
  });

  it('reports NaN R² for a constant response', () => {
    expect(ols([[1], [2], [3]], [4, 4, 4]).rSquared).toBeNaN();
  });
});

describe('olsClustered', () => {
  // Expected values from numpy: (XᵀX)⁻¹·Σ_g X_gᵀu_g u_gᵀX_g·(XᵀX)⁻¹ · G/(G − 1) · (n − 1)/(n − k), t with G − 1 df.
  const X = [
    [1, 2.0],
    [2, 1.5],
    [3, 3.5],
    [4, 3.0],
    [5, 5.5],
    [6, 4.0],
    [7, 6.5],
    [8, 7.0],
  ];
  const y = [2.1, 2.9, 4.2, 4.8, 6.9, 6.1, 8.4, 8.8];

  it('gives the CR1 standard errors with clusters − 1 df and the OLS coefficients', () => {
    const result = olsClustered(y, X, ['r1', 'r1', 'r2', 'r2', 'r3', 'r3', 'r4', 'r4']);
    [0.09945772864789047, 0.1683677442466616, 0.20270264793717918].forEach((value, index) =>
      expectRelative(result.standardErrors[index] ?? Number.NaN, value, 1e-10),
    );
    [0.005338122169486265, 0.04808339098759055, 0.06723592066704248].forEach((value, index) =>
      expectRelative(result.pValues[index] ?? Number.NaN, value, 1e-9),
    );
    expect([result.df, result.clusters, result.n]).toEqual([3, 4, 8]);
    const classic = ols(X, y);
    expect(result.coefficients).toEqual(classic.coefficients);
    expect(result.rSquared).toBe(classic.rSquared);
  });

  it('with one row per cluster gives the HC1 robust standard errors', () => {
    const result = olsClustered(y, X, [1, 2, 3, 4, 5, 6, 7, 8]);
    [0.2610932548364744, 0.11629141990092899, 0.13729386965472748].forEach((value, index) =>
      expectRelative(result.standardErrors[index] ?? Number.NaN, value, 1e-10),
    );
    expect(result.df).toBe(7);
  });

  it('drops rows with a missing value or cluster; one cluster leaves the errors undefined', () => {
    const clusters = ['r1', 'r1', 'r2', 'r2', 'r3', 'r3', 'r4', 'r4'];
    const reference = olsClustered(y, X, clusters);
    const result = olsClustered([...y, 5, Number.NaN], [...X, [1, 1], [2, 2]], [...clusters, null, 'r5']);
    expect(result).toEqual(reference);
    const single = olsClustered(
      y,
      X,
      y.map(() => 'same'),
    );
    expect(single.standardErrors.every(Number.isNaN)).toBe(true);
    expect(single.df).toBe(0);
    expect(single.coefficients.every(Number.isFinite)).toBe(true);
  });

  it('reports a rank-deficient design and rejects misaligned clusters', () => {
    const collinear = olsClustered([1, 2, 3], [[1], [1], [1]], [1, 2, 3]);
    expect(collinear.rankDeficient).toBe(true);
    expect(() => olsClustered(y, X, ['a'])).toThrow(RangeError);
  });
});
