import { describe, expect, it } from 'vitest';
import {
  anovaIntrablock,
  blockedAnova,
  designDetection,
  IntraBlockDesignError,
  pairedT,
  penaltySignificance,
  vif,
} from './index.ts';
import { expectRelative } from './test-helpers.ts';

/** Long format of a respondents × products table (NaN: not rated). */
function long(table: number[][], labels: string[]) {
  const respondents: string[] = [];
  const products: string[] = [];
  const values: number[] = [];
  table.forEach((row, r) =>
    row.forEach((value, p) => {
      if (Number.isNaN(value)) return;
      respondents.push(`R${r}`);
      products.push(labels[p] as string);
      values.push(value);
    }),
  );
  return { respondents, products, values };
}

describe('designDetection', () => {
  it('reads a repeated answer and an empty data set', () => {
    expect(designDetection(['a', 'a', 'b', 'b'], ['X', 'X', 'X', 'Y']).design).toBe('incomplete_block');
    expect(designDetection([], [])).toEqual({ design: 'independent', products: 0, respondents: 0 });
  });

  it('tells a balanced from an unbalanced set of pairs', () => {
    // All pairs of three products: balanced; two of the three pairs twice: not.
    expect(designDetection([1, 1, 2, 2, 3, 3], ['A', 'B', 'A', 'C', 'B', 'C']).design).toBe(
      'balanced_incomplete_block',
    );
    expect(designDetection([1, 1, 2, 2, 3, 3], ['A', 'B', 'A', 'B', 'B', 'C']).design).toBe(
      'incomplete_block',
    );
  });
});

describe('anovaIntrablock', () => {
  const table = [
    [7, 5, 6],
    [6, 4, 6],
    [8, 6, 5],
    [5, 5, 4],
    [7, 3, 6],
  ];

  it('equals the blocked two-way ANOVA on a complete block', () => {
    const { respondents, products, values } = long(table, ['A', 'B', 'C']);
    const intra = anovaIntrablock(respondents, products, values);
    const blocked = blockedAnova(table);
    expectRelative(intra.f, blocked.statistic, 1e-10);
    expect(intra.dfDen).toBe(blocked.df2);
    // Complete blocks: adjusted means are the raw means.
    expectRelative(intra.adjustedMeans[0] as number, 6.6, 1e-12);
  });

  it('with two products gives the paired t-test of the respondents who rated both', () => {
    const pairs = [
      [7, 5],
      [6, 4],
      [8, 6],
      [5, 5],
      [7, 3],
      [6, Number.NaN],
    ];
    const { respondents, products, values } = long(pairs, ['A', 'B']);
    const intra = anovaIntrablock(respondents, products, values);
    const paired = pairedT(
      pairs.slice(0, 5).map((row) => row[0] as number),
      pairs.slice(0, 5).map((row) => row[1] as number),
    );
    const pair = intra.pairs[0];
    expect(intra.pairs).toHaveLength(1);
    expectRelative(pair?.t ?? Number.NaN, paired.statistic, 1e-10);
    expectRelative(pair?.pValue ?? Number.NaN, paired.pValue, 1e-10);
    expectRelative(pair?.pTukey ?? Number.NaN, paired.pValue, 1e-8);
    expect(intra.respondents).toBe(6);
  });

  it('leaves out a product without answers', () => {
    const { respondents, products, values } = long(table, ['A', 'B', 'C']);
    const intra = anovaIntrablock(
      [...respondents, 'R0', 'R1'],
      [...products, 'D', 'D'],
      [...values, Number.NaN, Number.NaN],
    );
    expect(intra.products).toEqual(['A', 'B', 'C']);
    expect(intra.pairs).toHaveLength(3);
  });

  it('refuses a disconnected design with a message naming the sets', () => {
    const run = () =>
      anovaIntrablock(['a', 'a', 'b', 'b', 'c', 'c'], ['A', 'B', 'A', 'B', 'C', 'D'], [1, 2, 3, 4, 5, 6]);
    expect(run).toThrow(IntraBlockDesignError);
    expect(run).toThrow('The products fall into 2 sets that no respondent links (A, B | C, D)');
  });

  it('refuses fewer than two products', () => {
    expect(() => anovaIntrablock(['a', 'b'], ['A', 'A'], [1, 2])).toThrow('at least two products (found 1)');
  });
});

describe('vif', () => {
  it('is 1 for one predictor or uncorrelated ones and infinite for an exact combination', () => {
    expect(vif([[1, 2, 3, 4]])).toEqual([1]);
    const a = [1, -1, 1, -1];
    const b = [1, 1, -1, -1];
    vif([a, b]).forEach((value) => expectRelative(value, 1, 1e-12));
    const c = [2, 5, 1, 7, 3];
    const d = [1, 0, 4, 2, 2];
    expect(vif([c, d, c.map((value, i) => value + (d[i] as number))])).toEqual([
      Number.POSITIVE_INFINITY,
      Number.POSITIVE_INFINITY,
      Number.POSITIVE_INFINITY,
    ]);
  });
});

describe('penaltySignificance', () => {
  it('gives nulls when the just-right group is empty and 0 shares when nobody answered both', () => {
    const result = penaltySignificance([1, 2, 5, 4], [3, 4, 5, 6]);
    expect(result.tooLittle).toMatchObject({ n: 2, share: 0.5, drop: null, stdError: null, pValue: null });
    const empty = penaltySignificance([3, Number.NaN], [Number.NaN, 5]);
    expect(empty.n).toBe(0);
    expect(empty.tooMuch).toMatchObject({ share: 0, drop: null });
  });
});
