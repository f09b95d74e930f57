import { holmAdjust, mcnemarTest, type PairwiseOutcome } from '@accord/stats';
import { describe, expect, it } from 'vitest';
import {
  adjustOutcomes,
  omnibusTest,
  omnibusText,
  respondentBlocks,
  yesNoOutcomes,
  yesNoValues,
} from './question-tests.ts';

const answers = (yes: number, no: number): number[] => [
  ...new Array<number>(yes).fill(1),
  ...new Array<number>(no).fill(0),
];

describe('yes/no answers', () => {
  it('reads harmonised 5 as yes and 1 as no, anything else as missing', () => {
    expect(yesNoValues([5, 1, Number.NaN, 3])).toEqual([1, 0, Number.NaN, Number.NaN]);
  });

  it('compares paired pairs with McNemar (one-tailed: half its p-value in the observed direction)', () => {
    const first = [1, 1, 1, 1, 1, 1, 0, 0, 1, 0];
    const second = [0, 0, 0, 0, 0, 1, 0, 1, 1, 0];
    const expected = mcnemarTest(first, second);
    const two = yesNoOutcomes([first, second], { paired: true, tails: 2 });
    expect(two[0]![1]).toEqual({ pValue: expected.pValue, direction: 'mt' });
    expect(two[1]![0]).toEqual({ pValue: expected.pValue, direction: 'let' });
    const one = yesNoOutcomes([first, second], { paired: true, tails: 1 });
    expect(one[0]![1]!.pValue).toBeCloseTo(expected.pValue / 2, 15);
    // No discordant pair: nothing to test.
    expect(yesNoOutcomes([first, first], { paired: true, tails: 2 })[0]![1]).toBeNull();
  });

  it('compares unpaired pairs with the two-proportion z-test', () => {
    const outcomes = yesNoOutcomes([answers(30, 10), answers(12, 28)], { paired: false, tails: 2 });
    // z = (0.75 - 0.3) / sqrt(0.525 * 0.475 * (2/40)) = 4.02996, p = 5.5785641318549964e-5 (SciPy).
    expect(outcomes[0]![1]!.direction).toBe('mt');
    expect(outcomes[0]![1]!.pValue / 5.5785641318549964e-5).toBeCloseTo(1, 8);
  });
});

describe('adjustOutcomes', () => {
  it("adjusts each compared pair once over the question's family, both directions alike", () => {
    const o = (pValue: number, direction: PairwiseOutcome['direction']): PairwiseOutcome => ({
      pValue,
      direction,
    });
    const outcomes = [
      [null, o(0.01, 'mt'), o(0.04, 'mt')],
      [o(0.01, 'let'), null, null],
      [o(0.04, 'let'), null, null],
    ];
    const adjusted = adjustOutcomes(outcomes, 'holm');
    const expected = holmAdjust([0.01, 0.04]);
    expect(adjusted[0]![1]!.pValue).toBe(expected[0]);
    expect(adjusted[1]![0]!.pValue).toBe(expected[0]);
    expect(adjusted[0]![2]!.pValue).toBe(expected[1]);
    expect(adjusted[1]![2]).toBeNull();
    // The input is left as it was.
    expect(outcomes[0]![1]!.pValue).toBe(0.01);
    const bh = adjustOutcomes(outcomes, 'benjamini_hochberg');
    expect(bh[0]![1]!.pValue).toBeCloseTo(0.02, 15);
    expect(bh[0]![2]!.pValue).toBeCloseTo(0.04, 15);
  });
});

describe('omnibusTest', () => {
  const perProduct = [
    [5, 4, 4, 3, 5],
    [3, 3, 2, 2, 4],
    [4, 4, 3, 3, 4],
  ];

  it('picks the test of the design and says what it used', () => {
    expect(omnibusTest(perProduct, { paired: true, parametric: true, yesNo: false })).toMatchObject({
      test: 'Two-way ANOVA (respondents as blocks)',
      df: '2, 8',
      n: 5,
      k: 3,
      unit: 'respondents',
    });
    expect(omnibusTest(perProduct, { paired: true, parametric: false, yesNo: false }).test).toBe(
      'Friedman test',
    );
    expect(omnibusTest(perProduct, { paired: false, parametric: true, yesNo: false })).toMatchObject({
      test: 'One-way ANOVA',
      df: '2, 12',
      n: 15,
      unit: 'answers',
    });
    expect(omnibusTest(perProduct, { paired: false, parametric: false, yesNo: false }).test).toBe(
      'Kruskal-Wallis test',
    );
    const yesNo = [
      [1, 1, 0, 1],
      [0, 0, 0, 1],
    ];
    expect(omnibusTest(yesNo, { paired: true, parametric: true, yesNo: true }).test).toBe("Cochran's Q");
    expect(omnibusTest(yesNo, { paired: false, parametric: true, yesNo: true }).test).toBe(
      'Chi-square test of homogeneity',
    );
  });

  it('reads as a sentence, and says when the test is not defined', () => {
    const tied = omnibusTest(
      [
        [3, 3],
        [3, 3],
      ],
      { paired: true, parametric: false, yesNo: false },
    );
    expect(omnibusText(tied)).toBe(
      'Friedman test: not defined for these answers (2 respondents, 2 products)',
    );
    expect(
      respondentBlocks([
        [1, 2],
        [3, 4],
      ]),
    ).toEqual([
      [1, 3],
      [2, 4],
    ]);
  });
});
