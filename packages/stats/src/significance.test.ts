import { describe, expect, it } from 'vitest';
import {
  classifySignificance,
  compareSelectionVsAverage,
  compareSelectionVsRest,
  oneProportionZ,
  oneSampleT,
  twoProportionZ,
  welchT,
  type SelectionComparison,
} from './index.ts';

/** The rule's promise: every number is finite or null. */
function expectNoNaN(result: SelectionComparison): void {
  for (const value of [result.difference, result.statistic, result.pValue, result.level]) {
    if (value !== null) expect(Number.isFinite(value)).toBe(true);
  }
  expect(JSON.parse(JSON.stringify(result))).toEqual(result);
}

describe('classifySignificance', () => {
  it('returns the smallest level with p < level', () => {
    expect(classifySignificance(0.004, 1)).toEqual({ level: 0.01, direction: 'mt' });
    expect(classifySignificance(0.03, -0.2)).toEqual({ level: 0.05, direction: 'let' });
    expect(classifySignificance(0.07, 2)).toEqual({ level: 0.1, direction: 'mt' });
  });

  it('uses a strict inequality at each level', () => {
    expect(classifySignificance(0.01, 1)?.level).toBe(0.05);
    expect(classifySignificance(0.05, 1)?.level).toBe(0.1);
    expect(classifySignificance(0.1, 1)).toBeNull();
  });

  it('is null without a p-value or a direction', () => {
    expect(classifySignificance(Number.NaN, 1)).toBeNull();
    expect(classifySignificance(0.001, 0)).toBeNull();
    expect(classifySignificance(0.001, Number.NaN)).toBeNull();
  });

  it('accepts other levels in any order', () => {
    expect(classifySignificance(0.15, 1, [0.2, 0.1])).toEqual({ level: 0.2, direction: 'mt' });
  });
});

describe('compareSelectionVsRest', () => {
  const selection = [4, 5, 5, 4, 5, 3, 5, 4, 5, 5];
  const rest = [3, 2, 4, 3, 3, 2, 4, 3, 3, 2, 3, 4];

  it('uses the two-sided Welch t-test for means', () => {
    const result = compareSelectionVsRest({ kind: 'mean', selection, rest });
    const reference = welchT(selection, rest);
    expect(result.test).toBe('welch-t');
    expect(result.pValue).toBe(reference.pValue);
    expect(result.statistic).toBe(reference.statistic);
    expect(reference.pValue).toBeLessThan(0.01);
    expect(result).toMatchObject({ testable: true, level: 0.01, direction: 'mt' });
    expect(compareSelectionVsRest({ kind: 'mean', selection: rest, rest: selection })).toMatchObject({
      level: 0.01,
      direction: 'let',
    });
    expectNoNaN(result);
  });

  it('reports a testable but non-significant difference with null level', () => {
    const result = compareSelectionVsRest({ kind: 'mean', selection: [3, 4, 2, 5], rest: [3, 4, 3, 4, 2] });
    expect(result.testable).toBe(true);
    expect(result.pValue).toBeGreaterThan(0.1);
    expect(result.level).toBeNull();
    expect(result.direction).toBeNull();
  });

  it('is not testable with fewer than 2 answers on a side', () => {
    for (const input of [
      { kind: 'mean', selection: [5], rest },
      { kind: 'mean', selection: [], rest },
      { kind: 'mean', selection, rest: [Number.NaN, 3] },
    ] as const) {
      const result = compareSelectionVsRest(input);
      expect(result.testable).toBe(false);
      expect(result.level).toBeNull();
      expectNoNaN(result);
    }
  });

  it('is not testable with zero variance on both sides, even when the means differ', () => {
    const result = compareSelectionVsRest({ kind: 'mean', selection: [5, 5, 5], rest: [3, 3, 3, 3] });
    expect(result.testable).toBe(false);
    expectNoNaN(result);
    // Zero variance on one side only is an ordinary Welch test.
    expect(compareSelectionVsRest({ kind: 'mean', selection: [5, 5, 5], rest: [3, 4, 3, 2] }).testable).toBe(
      true,
    );
  });

  it('uses the pooled two-proportion z-test for boxes', () => {
    const result = compareSelectionVsRest({
      kind: 'box',
      selection: { count: 30, n: 80 },
      rest: { count: 20, n: 90 },
    });
    expect(result.test).toBe('two-proportion-z');
    expect(result.pValue).toBe(twoProportionZ(30, 80, 20, 90).pValue);
    expect(result).toMatchObject({ testable: true, level: 0.05, direction: 'mt' });
  });

  it('treats degenerate boxes as not testable', () => {
    for (const [selectionBox, restBox] of [
      [
        { count: 1, n: 1 },
        { count: 5, n: 20 },
      ],
      [
        { count: 0, n: 10 },
        { count: 0, n: 20 },
      ],
      [
        { count: 10, n: 10 },
        { count: 0, n: 20 },
      ],
      [
        { count: 11, n: 10 },
        { count: 5, n: 20 },
      ],
    ]) {
      const result = compareSelectionVsRest({ kind: 'box', selection: selectionBox!, rest: restBox! });
      expect(result.testable).toBe(false);
      expectNoNaN(result);
    }
    expect(
      compareSelectionVsRest({ kind: 'box', selection: { count: 10, n: 10 }, rest: { count: 5, n: 20 } })
        .testable,
    ).toBe(true);
  });
});

describe('compareSelectionVsAverage', () => {
  it('uses the one-sample t-test against the average of product means', () => {
    const selection = [3.5, 4, 4.5, 4, 5, 4.5, 4];
    const result = compareSelectionVsAverage({ kind: 'mean', selection, average: 3.6 });
    const reference = oneSampleT(selection, 3.6);
    expect(result.test).toBe('one-sample-t');
    expect(result.pValue).toBe(reference.pValue);
    expect(result.level).toBe(0.05);
    expect(result.direction).toBe('mt');
    expect(result.difference).toBeCloseTo(4.214285714285714 - 3.6, 12);
  });

  it('is not testable for one answer, a constant selection or a missing average', () => {
    for (const input of [
      { kind: 'mean', selection: [4], average: 3 },
      { kind: 'mean', selection: [4, 4, 4], average: 3 },
      { kind: 'mean', selection: [4, 5, 3], average: Number.NaN },
    ] as const) {
      const result = compareSelectionVsAverage(input);
      expect(result.testable).toBe(false);
      expectNoNaN(result);
    }
  });

  it('uses the one-sample proportion z-test for boxes', () => {
    const result = compareSelectionVsAverage({ kind: 'box', selection: { count: 40, n: 100 }, average: 0.3 });
    expect(result.test).toBe('one-proportion-z');
    expect(result.pValue).toBe(oneProportionZ(40, 100, 0.3).pValue);
    expect(result).toMatchObject({ testable: true, level: 0.05, direction: 'mt' });
    expect(
      compareSelectionVsAverage({ kind: 'box', selection: { count: 10, n: 100 }, average: 0.3 }),
    ).toMatchObject({
      level: 0.01,
      direction: 'let',
    });
  });

  it('tests a share of 0 % or 100 % with the standard error of the average', () => {
    // 0 of 40 against 30 %: z = -0.3 / sqrt(0.3 * 0.7 / 40) = -4.1404, p = 3.4671e-5 (SciPy).
    const none = compareSelectionVsAverage({ kind: 'box', selection: { count: 0, n: 40 }, average: 0.3 });
    expect(none).toMatchObject({ testable: true, level: 0.01, direction: 'let' });
    expect(none.statistic).toBeCloseTo(-0.3 / Math.sqrt((0.3 * 0.7) / 40), 12);
    expect(none.pValue).toBeCloseTo(3.4671076872696536e-5, 12);
    const all = compareSelectionVsAverage({ kind: 'box', selection: { count: 40, n: 40 }, average: 0.7 });
    expect(all).toMatchObject({ testable: true, level: 0.01, direction: 'mt' });
  });

  it('treats degenerate boxes as not testable', () => {
    for (const [box, average] of [
      [{ count: 0, n: 50 }, 0],
      [{ count: 50, n: 50 }, 1],
      [{ count: 20, n: 50 }, 0],
      [{ count: 20, n: 50 }, 1.2],
      [{ count: 1, n: 1 }, 0.5],
    ] as const) {
      const result = compareSelectionVsAverage({ kind: 'box', selection: box, average });
      expect(result.testable).toBe(false);
      expectNoNaN(result);
    }
  });
});
