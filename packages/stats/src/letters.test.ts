import { describe, expect, it } from 'vitest';
import {
  assignSignificanceLetters,
  columnLetter,
  lettersLegend,
  pairedT,
  pairwiseMethod,
  pairwiseOutcomes,
  parseTestType,
  welchT,
  type PairwiseOutcome,
} from './index.ts';
import { expectRelative } from './test-helpers.ts';

describe('columnLetter', () => {
  it('counts like spreadsheet columns', () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702].map(columnLetter)).toEqual([
      'A',
      'B',
      'Z',
      'AA',
      'AB',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
    ]);
    expect(() => columnLetter(-1)).toThrow(RangeError);
    expect(() => columnLetter(1.5)).toThrow(RangeError);
  });
});

describe('parseTestType and pairwiseMethod', () => {
  it('reads tails and levels', () => {
    expect(parseTestType('two_95')).toEqual({ tails: 2, confidence: 95, level: 0.05 });
    expect(parseTestType('one_80')).toEqual({ tails: 1, confidence: 80, level: 0.2 });
    expect(parseTestType('one_99').level).toBe(0.01);
    expect(() => parseTestType('two_97' as never)).toThrow(RangeError);
  });

  it('chooses the test from the design', () => {
    expect(pairwiseMethod(true, true)).toBe('paired-t');
    expect(pairwiseMethod(true, false)).toBe('wilcoxon');
    expect(pairwiseMethod(false, true)).toBe('welch-t');
    expect(pairwiseMethod(false, false)).toBe('mann-whitney');
  });
});

describe('assignSignificanceLetters', () => {
  const higher = (pValue: number): PairwiseOutcome => ({ pValue, direction: 'mt' });
  const lower = (pValue: number): PairwiseOutcome => ({ pValue, direction: 'let' });

  it('lists upper case letters at the strict level and lower case at the next', () => {
    const outcomes = [
      [null, higher(0.01), higher(0.07), higher(0.2)],
      [lower(0.01), null, higher(0.049), lower(0.5)],
      [lower(0.07), lower(0.049), null, null],
      [lower(0.2), higher(0.5), null, null],
    ];
    const columns = assignSignificanceLetters(outcomes, [0.05, 0.1]);
    expect(columns.map((column) => column.letter)).toEqual(['A', 'B', 'C', 'D']);
    expect(columns.map((column) => column.text)).toEqual(['Bc', 'C', '', '']);
    expect(columns[0]?.higherThan).toEqual(['B', 'c']);
  });

  it('uses strict inequalities and sorts the levels', () => {
    const outcomes = [
      [null, higher(0.05), higher(0.1)],
      [null, null, null],
      [null, null, null],
    ];
    // p = 0.05 is not below 0.05 (so lower case at 0.1), and p = 0.1 is not below 0.1.
    expect(assignSignificanceLetters(outcomes, [0.1, 0.05])[0]?.text).toBe('b');
    expect(assignSignificanceLetters(outcomes, [0.2])[0]?.text).toBe('BC');
  });

  it('never counts NaN p-values and validates levels', () => {
    expect(
      assignSignificanceLetters(
        [
          [null, higher(Number.NaN)],
          [null, null],
        ],
        [0.05],
      )[0]?.text,
    ).toBe('');
    expect(() => assignSignificanceLetters([], [])).toThrow(RangeError);
    expect(() => assignSignificanceLetters([], [0.01, 0.05, 0.1])).toThrow(RangeError);
    expect(() => assignSignificanceLetters([], [1.5])).toThrow(RangeError);
  });
});

describe('pairwiseOutcomes', () => {
  const low = [2, 3, 2, 3, 2, 3, 2, 3, 2, 3];
  const middle = [3, 4, 3, 4, 3, 4, 4, 3, 4, 3];
  const high = [5, 4, 5, 5, 4, 5, 5, 4, 5, 5];

  it('runs the chosen test on every ordered pair, two-tailed', () => {
    const outcomes = pairwiseOutcomes([low, middle, high], { method: 'welch-t', tails: 2 });
    expect(outcomes[0]?.[0]).toBeNull();
    expect(outcomes[2]?.[0]).toEqual({ pValue: welchT(high, low).pValue, direction: 'mt' });
    expect(outcomes[0]?.[2]).toEqual({ pValue: welchT(high, low).pValue, direction: 'let' });
    const letters = assignSignificanceLetters(outcomes, [0.01, 0.05]);
    expect(letters.map((column) => column.text)).toEqual(['', 'A', 'AB']);
  });

  it('gives the one-sided p-value in the observed direction for one-tailed tests', () => {
    const two = pairwiseOutcomes([low, middle], { method: 'paired-t', tails: 2 });
    const one = pairwiseOutcomes([low, middle], { method: 'paired-t', tails: 1 });
    expectRelative(one[1]?.[0]?.pValue ?? Number.NaN, (two[1]?.[0]?.pValue ?? Number.NaN) / 2, 1e-12);
    expect(one[1]?.[0]?.pValue).toBe(pairedT(middle, low, 'greater').pValue);
    expect(one[0]?.[1]).toEqual({ pValue: pairedT(low, middle, 'less').pValue, direction: 'let' });
  });

  it('supports the non-parametric methods', () => {
    for (const method of ['wilcoxon', 'mann-whitney'] as const) {
      const outcomes = pairwiseOutcomes([low, high], { method, tails: 2 });
      expect(outcomes[1]?.[0]?.direction).toBe('mt');
      expect(outcomes[1]?.[0]?.pValue).toBeLessThan(0.01);
    }
  });

  it('compares only the pairs asked for (benchmark against candidates)', () => {
    const outcomes = pairwiseOutcomes([low, middle, high], {
      method: 'mann-whitney',
      tails: 2,
      compare: (i, j) => i === 0 || j === 0,
    });
    expect(outcomes[1]?.[2]).toBeNull();
    expect(outcomes[2]?.[1]).toBeNull();
    expect(outcomes[1]?.[0]).not.toBeNull();
    expect(outcomes[0]?.[2]).not.toBeNull();
  });

  it('leaves undefined tests empty', () => {
    const outcomes = pairwiseOutcomes([[3], [4, 5]], { method: 'welch-t', tails: 2 });
    expect(outcomes[0]?.[1]).toBeNull();
  });
});

describe('lettersLegend', () => {
  it('states test, tails and levels', () => {
    expect(lettersLegend('welch-t', 2, [0.1, 0.05])).toBe(
      'Welch t-test, two-tailed. Upper case: significantly higher at 95 %; lower case: at 90 %.',
    );
    expect(lettersLegend('wilcoxon', 1, [0.2])).toBe(
      'Wilcoxon signed-rank test, one-tailed. Upper case: significantly higher at 80 %.',
    );
  });
});
