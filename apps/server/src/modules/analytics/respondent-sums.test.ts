import { BOX_TOLERANCE } from '@accord/stats';
import { describe, expect, it } from 'vitest';
import type { DemographicMatch } from './analytics-types.ts';
import type { RespondentCells } from './respondent-cells.ts';
import {
  keptRespondents,
  respondentCellsOf,
  respondentIndexBuilder,
  type RespondentList,
} from './respondent-index.ts';
import {
  BOX_BITS,
  indexedCellsOf,
  indexedSumsOf,
  respondentSumsOf,
  type BoxColumn,
} from './respondent-sums.ts';

/** A small deterministic generator, so that a failure is repeatable. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

interface Answer {
  productId: number;
  respondentId: number;
  value: number;
}

/** The answers by product, then by respondent. */
function grouped(answers: readonly Answer[]): Map<number, Map<number, number[]>> {
  const byProduct = new Map<number, Map<number, number[]>>();
  for (const { productId, respondentId, value } of answers) {
    let product = byProduct.get(productId);
    if (!product) byProduct.set(productId, (product = new Map()));
    const values = product.get(respondentId);
    if (values) values.push(value);
    else product.set(respondentId, [value]);
  }
  return byProduct;
}

/** The index of the answers, added in `chunks` chunks of products as the repository hands them. */
function indexOf(answers: readonly Answer[], chunks: number) {
  const lists: RespondentList[] = [...grouped(answers).entries()]
    .sort(([a], [b]) => a - b)
    .map(([productId, byRespondent]) => {
      const ids: number[] = [];
      const values: number[] = [];
      for (const [respondentId, list] of [...byRespondent.entries()].sort(([a], [b]) => a - b))
        for (const value of [...list].sort((a, b) => a - b)) {
          ids.push(respondentId);
          values.push(value);
        }
      return [productId, ids, values];
    });
  const builder = respondentIndexBuilder(1);
  const size = Math.max(1, Math.ceil(lists.length / chunks));
  for (let at = 0; at < lists.length; at += size) builder.add(lists.slice(at, at + size));
  return builder.finish();
}

/** The cells written out as the grouped read defines them, in list order, respondents ascending. */
function byHand(
  answers: readonly Answer[],
  productIds: readonly number[],
  keep: ((id: number) => boolean) | null,
) {
  const byProduct = grouped(answers);
  const rows: Record<string, number>[] = [];
  for (const productId of [...new Set(productIds)]) {
    const byRespondent = byProduct.get(productId) ?? new Map<number, number[]>();
    for (const respondentId of [...byRespondent.keys()].sort((a, b) => a - b)) {
      if (keep && !keep(respondentId)) continue;
      const values = [...byRespondent.get(respondentId)!].sort((a, b) => a - b);
      rows.push({
        product: productId,
        respondent: respondentId,
        n: values.length,
        sum: values.reduce((total, v) => total + v, 0),
        sumSq: values.reduce((total, v) => total + v * v, 0),
        nTopBox: values.filter((v) => v >= 4.5 - BOX_TOLERANCE).length,
        nTop2Box: values.filter((v) => v >= 3.5 - BOX_TOLERANCE).length,
        nJustRight: values.filter((v) => v > 2.5 + BOX_TOLERANCE && v < 3.5 - BOX_TOLERANCE).length,
        nBottom2Box: values.filter((v) => v <= 2.5 + BOX_TOLERANCE).length,
        nBottomBox: values.filter((v) => v <= 1.5 + BOX_TOLERANCE).length,
      });
    }
  }
  return rows;
}

/** The cells as rows, to compare with byHand. */
function rowsOf(cells: RespondentCells) {
  return Array.from(cells.product, (product, at) => ({
    product,
    respondent: cells.respondent[at]!,
    n: cells.n[at]!,
    sum: cells.sum[at]!,
    sumSq: cells.sumSq[at]!,
    nTopBox: cells.nTopBox[at]!,
    nTop2Box: cells.nTop2Box[at]!,
    nJustRight: cells.nJustRight[at]!,
    nBottom2Box: cells.nBottom2Box[at]!,
    nBottomBox: cells.nBottomBox[at]!,
  }));
}

describe('respondentSumsOf', () => {
  const next = random(11);
  const genders = ['Female', 'Male', null];
  // 300 respondents in 15 studies of 20, ids with gaps; each study tests 4 products; a respondent
  // answers a product with probability 0.8, and in the studies asking the metric twice (every third)
  // answers it twice now and then. Values: harmonised 5-, 7- and 9-point answers, box edges included.
  const people: [number, string | null, number | null][] = [];
  for (let id = 3; id <= 900; id += 3)
    people.push([id, genders[Math.floor(next() * 3)]!, next() < 0.1 ? null : 18 + Math.floor(next() * 50)]);
  const scale = [1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 1 + 4 / 6, 1 + 20 / 6, 1 + 4 / 8, 1 + 28 / 8];
  const answers: Answer[] = [];
  for (let study = 0; study < 15; study++)
    for (let productId = study * 4 + 1; productId <= study * 4 + 4; productId++)
      for (const [respondentId] of people.slice(study * 20, study * 20 + 20)) {
        if (next() >= 0.8) continue;
        const times = study % 3 === 0 && next() < 0.3 ? 2 : 1;
        for (let time = 0; time < times; time++)
          answers.push({ productId, respondentId, value: scale[Math.floor(next() * scale.length)]! });
      }
  const index = indexOf(answers, 4);
  const cells = respondentCellsOf(people);
  const women: DemographicMatch = (gender) => gender === 'Female';
  const thirties: DemographicMatch = (_, age) => age !== null && age >= 30 && age <= 39;

  it('codes the few distinct values in one byte an answer and keeps a cell per respondent and product', () => {
    expect(index.codes).toBeInstanceOf(Uint8Array);
    expect(index.codes!.length).toBe(answers.length);
    expect(index.values.length).toBe(new Set(answers.map((answer) => answer.value)).size);
    // Cells with two answers: the answers have starts of their own.
    expect(index.answerStarts).not.toBeNull();
    expect(index.respondents.length).toBeLessThan(answers.length);
    expect(index.bytes).toBeGreaterThanOrEqual(index.respondents.byteLength + index.codes!.byteLength);
  });

  it.each([
    ['every product, nobody left out', Array.from({ length: 60 }, (_, i) => i + 1), null],
    ['products of some studies out of order, repeated, women', [9, 2, 1, 9, 33, 34, 57], women],
    ['products without answers and unknown ids, thirties', [500, 12, 1_000_000, 3, 0], thirties],
  ] as const)('equals the sums written out: %s', (_, productIds, match) => {
    const keep = match ? keptRespondents(cells, match) : null;
    expect(rowsOf(respondentSumsOf(index, [...productIds], keep))).toEqual(
      byHand(answers, [...productIds], keep),
    );
  });

  it('answers exactly sized columns', () => {
    const sums = respondentSumsOf(index, [5, 6], keptRespondents(cells, women));
    const expected = byHand(answers, [5, 6], keptRespondents(cells, women)).length;
    expect(expected).toBeGreaterThan(0);
    for (const column of Object.values(sums) as (Int32Array | Float64Array)[]) {
      expect(column.length).toBe(expected);
      expect(column.buffer.byteLength).toBe(column.byteLength);
    }
  });

  it('holds one answer a cell without answer starts, and codes up to 65,536 values in two bytes', () => {
    const many: Answer[] = [];
    for (let productId = 1; productId <= 40; productId++)
      for (let respondentId = 1; respondentId <= 50; respondentId++)
        many.push({ productId, respondentId, value: 1 + (productId * 50 + respondentId) / 1000 });
    const coded = indexOf(many, 3);
    expect(coded.answerStarts).toBeNull();
    expect(coded.codes).toBeInstanceOf(Uint16Array);
    expect(rowsOf(respondentSumsOf(coded, [40, 1, 17], null))).toEqual(byHand(many, [40, 1, 17], null));
  });

  it('keeps each value as it is beyond 65,536 distinct values (EEG scores)', () => {
    const scores: Answer[] = [];
    for (let productId = 1; productId <= 30; productId++)
      for (let respondentId = 1; respondentId <= 2500; respondentId++)
        scores.push({ productId, respondentId, value: (productId * 2500 + respondentId) / 7 - 5000 });
    const raw = indexOf(scores, 7);
    expect(raw.codes).toBeNull();
    expect(raw.values.length).toBe(scores.length);
    const keep = (id: number) => id % 7 !== 0;
    expect(rowsOf(respondentSumsOf(raw, [30, 2, 15], keep))).toEqual(byHand(scores, [30, 2, 15], keep));
  });

  it('read from the index per test, give the cells of respondentSumsOf to the bit', () => {
    /** The indexed cells with every test's sums, as respondentSumsOf's rows (products by id). */
    const viaIndex = (
      of: ReturnType<typeof indexOf>,
      productIds: readonly number[],
      keep: ((id: number) => boolean) | null,
    ) => {
      const cells = indexedCellsOf(of, productIds, keep);
      const values = indexedSumsOf(cells, null);
      const boxes = Object.fromEntries(
        (Object.keys(BOX_BITS) as BoxColumn[]).map((box) => [box, indexedSumsOf(cells, BOX_BITS[box])]),
      ) as Record<BoxColumn, { sum: Float64Array; sumSq: Float64Array }>;
      for (const box of Object.values(boxes)) expect(box.sumSq).toBe(box.sum);
      return Array.from(cells.product, (listed, at) => ({
        product: productIds[listed]!,
        respondent: cells.respondent[at]!,
        n: cells.n[at]!,
        sum: values.sum[at]!,
        sumSq: values.sumSq[at]!,
        nTopBox: boxes.nTopBox.sum[at]!,
        nTop2Box: boxes.nTop2Box.sum[at]!,
        nJustRight: boxes.nJustRight.sum[at]!,
        nBottom2Box: boxes.nBottom2Box.sum[at]!,
        nBottomBox: boxes.nBottomBox.sum[at]!,
      }));
    };
    const listed = [7, 3, 60, 99, 12, 1];
    expect(index.answerStarts).not.toBeNull();
    for (const keep of [null, keptRespondents(cells, women), keptRespondents(cells, thirties)]) {
      const expected = rowsOf(respondentSumsOf(index, listed, keep));
      expect(expected.length).toBeGreaterThan(10);
      expect(viaIndex(index, listed, keep)).toEqual(expected);
    }
    const single: Answer[] = [];
    for (let productId = 1; productId <= 6; productId++)
      for (let respondentId = 1; respondentId <= 40; respondentId++)
        single.push({ productId, respondentId, value: 1 + ((productId * 7 + respondentId) % 9) / 2 });
    const coded = indexOf(single, 2);
    expect(coded.answerStarts).toBeNull();
    expect(coded.codes).toBeInstanceOf(Uint8Array);
    const keep = (id: number) => id % 3 !== 0;
    expect(viaIndex(coded, [6, 2, 4], keep)).toEqual(rowsOf(respondentSumsOf(coded, [6, 2, 4], keep)));
  });

  it('refuses a product whose respondents are not ascending or whose values do not match them', () => {
    expect(() => respondentIndexBuilder(1).add([[1, [4, 2], [1, 2]]])).toThrow(RangeError);
    expect(() => respondentIndexBuilder(1).add([[1, [2, 4], [1]]])).toThrow(RangeError);
  });
});
