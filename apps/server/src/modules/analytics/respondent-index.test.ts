import { describe, expect, it } from 'vitest';
import type { DemographicMatch } from './analytics-types.ts';
import {
  countRespondents,
  respondentCellsOf,
  respondentIndexBuilder,
  type RespondentList,
} from './respondent-index.ts';

/** A small deterministic generator, so that a failure is repeatable. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('countRespondents', () => {
  const next = random(7);
  const genders = ['Female', 'Male', null];
  // 400 respondents in 20 studies of 20; each study tests 5 products; ids leave gaps.
  const people: [number, string | null, number | null][] = [];
  for (let id = 1; id <= 800; id += 2)
    people.push([id, genders[Math.floor(next() * 3)]!, next() < 0.1 ? null : 18 + Math.floor(next() * 50)]);
  const answers: { metricId: number; productId: number; respondentId: number }[] = [];
  for (let study = 0; study < 20; study++)
    for (let product = study * 5 + 1; product <= study * 5 + 5; product++)
      for (const [respondentId] of people.slice(study * 20, study * 20 + 20))
        for (const metricId of [1, 2])
          if (next() < 0.8) answers.push({ metricId, productId: product, respondentId });

  const indexOf = (metricId: number, chunks: number) => {
    const builder = respondentIndexBuilder(metricId);
    const lists: RespondentList[] = [];
    for (let product = 1; product <= 100; product++) {
      const ids = answers
        .filter((answer) => answer.metricId === metricId && answer.productId === product)
        .map((answer) => answer.respondentId);
      if (ids.length > 0) lists.push([product, ids, ids.map(() => 3)]);
    }
    const size = Math.ceil(lists.length / chunks);
    for (let at = 0; at < lists.length; at += size) builder.add(lists.slice(at, at + size));
    return builder.finish();
  };

  /** The count written out: distinct respondents of the products' answers the filter keeps. */
  const byHand = (productIds: number[], metricIds: number[], match: DemographicMatch | null) => {
    const kept = new Map(people.map(([id, gender, age]) => [id, match === null || match(gender, age)]));
    const distinct = (metric: number | null) =>
      new Set(
        answers
          .filter(
            (answer) =>
              productIds.includes(answer.productId) &&
              (metric === null ? metricIds.includes(answer.metricId) : answer.metricId === metric) &&
              kept.get(answer.respondentId),
          )
          .map((answer) => answer.respondentId),
      ).size;
    return new Map<number | null, number>([
      ...metricIds.map((id) => [id, distinct(id)] as const),
      [null, distinct(null)],
    ]);
  };

  const indexes = [indexOf(1, 3), indexOf(2, 1)];
  const cells = respondentCellsOf(people);
  const women: DemographicMatch = (gender) => gender === 'Female';
  const thirties: DemographicMatch = (_, age) => age !== null && age >= 30 && age <= 39;

  it.each([
    ['every product, nobody left out', Array.from({ length: 100 }, (_, i) => i + 1), null],
    ['some products of some studies, women', [1, 2, 7, 33, 34, 35, 99], women],
    ['products without answers and unknown ids, thirties', [3, 500, 12, 1000000], thirties],
  ] as const)('equals the count written out: %s', (_, productIds, match) => {
    expect(countRespondents(indexes, [...productIds], cells, match)).toEqual(
      byHand([...productIds], [1, 2], match),
    );
  });

  it('counts a respondent once across products and once across metrics', () => {
    const counts = countRespondents(indexes, [1, 2, 3, 4, 5], cells, null);
    expect(counts.get(1)).toBeLessThanOrEqual(20);
    expect(counts.get(null)).toBeLessThanOrEqual(20);
    expect(counts.get(null)).toBeGreaterThanOrEqual(Math.max(counts.get(1)!, counts.get(2)!));
  });
});
