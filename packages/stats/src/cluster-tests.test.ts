import { describe, expect, it } from 'vitest';
import {
  clusterAverageTests,
  clusterContrastAvg,
  clusterRestTests,
  clusterTwoSample,
  type ClusterCell,
} from './cluster-tests.ts';

const cell = (product: number, cluster: number, value: number): ClusterCell => ({
  product,
  cluster,
  n: 1,
  sum: value,
  sumSq: value * value,
});

describe('clustered tests of a list', () => {
  it('gives NaN for the low-level numbers of one cluster and marks it untestable', () => {
    const result = clusterTwoSample([1, 2, 3, 4], [1, 1, 0, 0], ['R1', 'R1', 'R1', 'R1']);
    expect(result.df).toBe(0);
    expect(result.pValue).toBeNaN();
    const [, selection] = clusterRestTests([cell(0, 1, 1), cell(0, 1, 2), cell(1, 1, 3), cell(1, 1, 5)], 2);
    expect(selection!.testable).toBe(false);
  });

  it('leaves a product without answers untested and out of the average', () => {
    const cells = [
      ...[1, 2, 3, 4, 5, 6].map((r) => cell(0, r, (r % 5) + 1)),
      ...[1, 2, 3, 4, 5, 6].map((r) => cell(2, r, ((r * 2) % 5) + 1)),
    ];
    const [first, empty, third] = clusterAverageTests(cells, 3);
    expect(empty!.testable).toBe(false);
    expect(empty!.n).toBe(0);
    // With two products the average is their midpoint: the contrasts are opposite.
    expect(first!.difference).toBeCloseTo(-third!.difference, 12);
    expect(first!.pValue).toBeCloseTo(third!.pValue, 12);
    expect(first!.testable).toBe(true);
    const rest = clusterRestTests(cells, 3);
    expect(rest[1]!.testable).toBe(false);
    expect(rest[0]!.pValue).toBeCloseTo(rest[2]!.pValue, 12);
  });

  it('calls zero variance on both sides not significant, never NaN', () => {
    const cells = [1, 2, 3, 4].flatMap((r) => [cell(0, r, 5), cell(1, r, 3)]);
    for (const result of [...clusterRestTests(cells, 2), ...clusterAverageTests(cells, 2)]) {
      expect(result.testable).toBe(false);
      expect(result.difference).not.toBeNaN();
    }
  });

  it('tests a product whose side varies while the other does not', () => {
    const cells = [1, 2, 3, 4, 5].flatMap((r) => [cell(0, r, 5), cell(1, r, r)]);
    const [fixed] = clusterRestTests(cells, 2);
    expect(fixed!.testable).toBe(true);
    expect(fixed!.difference).toBeCloseTo(2, 12);
  });

  it('agrees with the raw-answer entry points when a respondent answers a product twice', () => {
    const values = [4, 5, 2, 3, 5, 1, 2, 4, 3, 3];
    const products = ['B', 'A', 'A', 'B', 'A', 'B', 'A', 'B', 'A', 'A'];
    const clusters = [1, 1, 1, 2, 2, 3, 3, 4, 4, 4];
    const contrast = clusterContrastAvg(values, products, clusters);
    expect(contrast.products).toEqual(['A', 'B']);
    const summed = clusterAverageTests(
      values.map((value, i) => cell(products[i] === 'A' ? 0 : 1, clusters[i]!, value)),
      2,
    );
    expect(summed.map((result) => result.pValue)).toEqual(contrast.pValue);
    expect(contrast.df).toBe(3);
  });
  it('numbers respondent ids the same through the id array and through the map', () => {
    // Respondent ids as a library holds them (small integers, gaps), as ids too sparse for the array,
    // and as the objects' keys: every number equal, for both calculations.
    const cells: ClusterCell[] = [];
    for (let r = 0; r < 60; r++)
      for (let product = 0; product < 4; product++)
        if ((r * 7 + product) % 5 !== 0) cells.push(cell(product, 3 * r + 11, ((r * product + r) % 5) + 1));
    const columns = (id: (cluster: number) => number) => ({
      product: cells.map((entry) => entry.product),
      cluster: cells.map((entry) => id(entry.cluster as number)),
      n: cells.map((entry) => entry.n),
      sum: cells.map((entry) => entry.sum),
      sumSq: cells.map((entry) => entry.sumSq),
    });
    for (const tests of [clusterRestTests, clusterAverageTests]) {
      const byObjects = tests(cells, 4);
      expect(byObjects.filter((result) => result.testable).length).toBe(4);
      expect(
        tests(
          columns((id) => id),
          4,
        ),
      ).toEqual(byObjects);
      expect(
        tests(
          columns((id) => id * 1e7),
          4,
        ),
      ).toEqual(byObjects);
    }
  });
});
