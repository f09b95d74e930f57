import { describe, expect, it } from 'vitest';
import { chiSquareSf, cochranQ, mcnemarTest, yesNoHomogeneity } from './index.ts';
import { expectRelative } from './test-helpers.ts';

/** Paired yes/no answers: 6 respondents say yes to the first only, 2 to the second only. */
function pairs(yesNo: number, noYes: number, yesYes: number, noNo: number): [number[], number[]] {
  const first: number[] = [];
  const second: number[] = [];
  const add = (count: number, x: number, y: number): void => {
    for (let i = 0; i < count; i++) {
      first.push(x);
      second.push(y);
    }
  };
  add(yesNo, 1, 0);
  add(noYes, 0, 1);
  add(yesYes, 1, 1);
  add(noNo, 0, 0);
  return [first, second];
}

describe('mcnemarTest', () => {
  it('uses the continuity-corrected chi-square on the discordant pairs', () => {
    const [first, second] = pairs(6, 2, 5, 7);
    const result = mcnemarTest(first, second);
    expectRelative(result.statistic, 1.125, 1e-15); // (|6 − 2| − 1)² / 8
    expectRelative(result.pValue, 0.2888443663464818, 1e-12); // scipy.stats.chi2.sf(1.125, 1)
    expect([result.yesNo, result.noYes, result.n]).toEqual([6, 2, 20]);
    expectRelative(result.shareFirst, 11 / 20, 1e-15);
    expectRelative(result.shareSecond, 7 / 20, 1e-15);
  });

  it('drops a pair with a missing answer', () => {
    const [first, second] = pairs(6, 2, 5, 7);
    expect(mcnemarTest([...first, Number.NaN, 1], [...second, 1, Number.NaN])).toEqual(
      mcnemarTest(first, second),
    );
  });

  it('is undefined (NaN) without discordant pairs, for a single respondent too', () => {
    const [first, second] = pairs(0, 0, 4, 3);
    const result = mcnemarTest(first, second);
    expect(result.statistic).toBeNaN();
    expect(result.pValue).toBeNaN();
    expect(mcnemarTest([1], [1]).pValue).toBeNaN();
    // One discordant respondent: (|1 − 0| − 1)²/1 = 0, p = 1.
    expect(mcnemarTest([1], [0]).pValue).toBe(1);
  });

  it('rejects answers other than 0 and 1 and unpaired arrays', () => {
    expect(() => mcnemarTest([1, 5], [0, 1])).toThrow(RangeError);
    expect(() => mcnemarTest([1], [0, 1])).toThrow(RangeError);
  });
});

describe('cochranQ', () => {
  it('with two products is McNemar without continuity correction', () => {
    const [first, second] = pairs(6, 2, 5, 7);
    const result = cochranQ(first.map((value, i) => [value, second[i] ?? 0]));
    expectRelative(result.statistic, 16 / 8, 1e-15); // (6 − 2)² / 8
    expectRelative(result.pValue, chiSquareSf(2, 1), 1e-15);
    expect([result.df, result.k, result.n]).toEqual([1, 2, 20]);
  });

  it('follows Q = (k − 1)(k·ΣC² − T²)/(k·T − ΣR²) and reports the shares', () => {
    const blocks = [
      [1, 1, 0],
      [1, 0, 0],
      [1, 1, 1],
      [0, 1, 0],
      [1, 0, 0],
      [1, 1, 0],
    ];
    // C = 5, 4, 1; T = 10; ΣR² = 4 + 1 + 9 + 1 + 1 + 4 = 20: Q = 2·(3·42 − 100)/(30 − 20) = 5.2.
    const result = cochranQ(blocks);
    expectRelative(result.statistic, 5.2, 1e-14);
    expectRelative(result.pValue, chiSquareSf(5.2, 2), 1e-15);
    expect(result.shares).toEqual([5 / 6, 4 / 6, 1 / 6]);
  });

  it('leaves out a product nobody answered and incomplete respondents', () => {
    const blocks = [
      [1, 0],
      [1, 1],
      [0, 0],
      [1, 0],
    ];
    const reference = cochranQ(blocks);
    const withGaps = [
      ...blocks.map((row) => [row[0] ?? 0, Number.NaN, row[1] ?? 0]),
      [1, Number.NaN, Number.NaN],
    ];
    const result = cochranQ(withGaps);
    expect(result.statistic).toBe(reference.statistic);
    expect(result.shares[1]).toBeNaN();
    expect(result.k).toBe(2);
  });

  it('is undefined (NaN) when every respondent answers all products alike', () => {
    expect(
      cochranQ([
        [1, 1, 1],
        [0, 0, 0],
      ]).statistic,
    ).toBeNaN();
    // A single respondent: C = 1, 0, 1; T = 2; ΣR² = 4: Q = 2·(3·2 − 4)/(6 − 4) = 2.
    const single = cochranQ([[1, 0, 1]]);
    expect([single.statistic, single.k, single.n]).toEqual([2, 3, 1]);
    expect(() => cochranQ([[1, 2]])).toThrow(RangeError);
  });
});

const answers = (yes: number, no: number): number[] => [
  ...new Array<number>(yes).fill(1),
  ...new Array<number>(no).fill(0),
];

describe('yesNoHomogeneity', () => {
  // Expected values: scipy.stats.chi2_contingency(table, correction=False) on the k x 2 tables.
  it.each([
    {
      table: [
        [12, 28],
        [20, 20],
        [30, 10],
      ],
      statistic: 16.284760845383758,
      pValue: 0.00029094380404415325,
    },
    {
      table: [
        [5, 15],
        [9, 11],
      ],
      statistic: 1.7582417582417582,
      pValue: 0.1848439742275304,
    },
    {
      table: [
        [1, 9],
        [4, 6],
        [7, 3],
        [2, 8],
      ],
      statistic: 9.230769230769232,
      pValue: 0.026374937118239683,
    },
  ])('tests $table as SciPy without continuity correction', ({ table, statistic, pValue }) => {
    const result = yesNoHomogeneity(table.map(([yes, no]) => answers(yes!, no!)));
    expectRelative(result.statistic, statistic, 1e-12);
    expectRelative(result.pValue, pValue, 1e-9);
    expect(result.df).toBe(table.length - 1);
    expect(result.n).toBe(table.flat().reduce((a, b) => a + b, 0));
  });

  it('leaves out missing answers and empty samples, and gives no test without variation', () => {
    const result = yesNoHomogeneity([[...answers(12, 28), Number.NaN], answers(20, 20), []]);
    expect(result).toMatchObject({ n: 80, k: 2, df: 1 });
    expect(yesNoHomogeneity([answers(4, 0), answers(5, 0)]).pValue).toBeNaN();
    expect(yesNoHomogeneity([answers(4, 2), []]).pValue).toBeNaN();
  });

  it('refuses answers other than 0 and 1', () => {
    expect(() => yesNoHomogeneity([[1, 0, 3], [1]])).toThrow(RangeError);
  });
});
