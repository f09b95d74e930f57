import { BOX_TOLERANCE } from '@accord/stats';
import { describe, expect, it } from 'vitest';
import { respondentConditions } from './analytics.repository.ts';
import { countKeptRespondents, indexSums } from './index-sums.ts';
import { respondentIndexBuilder, type RespondentList } from './respondent-index.ts';
import {
  EVERY_RESPONDENT,
  keptRespondentIds,
  matchesRespondent,
  respondentTraitsBuilder,
  respondentTraitsOf,
  type RespondentTraitRow,
  type RespondentValues,
} from './respondent-traits.ts';

const person = (values: Partial<RespondentValues>): RespondentValues => ({
  gender: 'Female',
  age: 30,
  ethnicity: 'East Asian',
  socialClass: 'AB',
  bumo: 'User',
  ...values,
});

describe('respondentConditions matcher', () => {
  it('tests ethnicity, social class and BUMO as the SQL compares them, a missing value failing', () => {
    const { matcher, match } = respondentConditions(
      { ethnicity: ['East Asian', 'White'], socialClass: ['AB'], bumo: ['User'] },
      [],
    );
    expect(match).toBeNull();
    expect(matchesRespondent(matcher!, person({}))).toBe(true);
    expect(matchesRespondent(matcher!, person({ ethnicity: 'White', gender: null, age: null }))).toBe(true);
    expect(matchesRespondent(matcher!, person({ ethnicity: null }))).toBe(false);
    expect(matchesRespondent(matcher!, person({ ethnicity: 'east asian' }))).toBe(false);
    expect(matchesRespondent(matcher!, person({ ethnicity: 'East Asian ' }))).toBe(false);
    expect(matchesRespondent(matcher!, person({ socialClass: 'C1' }))).toBe(false);
    expect(matchesRespondent(matcher!, person({ socialClass: null }))).toBe(false);
    expect(matchesRespondent(matcher!, person({ bumo: null }))).toBe(false);
    expect(matchesRespondent(matcher!, person({ bumo: 'Non-user' }))).toBe(false);
  });

  it('combines the panel filters with the results-table conditions, gender and age included', () => {
    const { matcher } = respondentConditions(
      { gender: ['Female'], startAge: 25, endAge: 44, bumo: ['User'] },
      [
        { field: 'ethnicity', filter: { type: 'equal', value: 'White' } },
        { field: 'bumo', filter: { type: 'equal', value: 'User' } },
        { field: 'age', filter: { type: 'range', from: 30, to: 50 } },
      ],
    );
    expect(matchesRespondent(matcher!, person({ ethnicity: 'White', age: 30 }))).toBe(true);
    expect(matchesRespondent(matcher!, person({ ethnicity: 'White', age: 44 }))).toBe(true);
    expect(matchesRespondent(matcher!, person({ ethnicity: 'White', age: 29 }))).toBe(false);
    expect(matchesRespondent(matcher!, person({ ethnicity: 'White', age: 45 }))).toBe(false);
    expect(matchesRespondent(matcher!, person({ ethnicity: 'White', age: null }))).toBe(false);
    expect(matchesRespondent(matcher!, person({ ethnicity: 'White', gender: 'Male' }))).toBe(false);
    expect(matchesRespondent(matcher!, person({ ethnicity: 'White', gender: null }))).toBe(false);
    expect(matchesRespondent(matcher!, person({ ethnicity: 'East Asian' }))).toBe(false);
  });

  it('ands two conditions on one trait: a panel value and a different results-table value keep nobody', () => {
    const { matcher } = respondentConditions({ socialClass: ['AB', 'C1'] }, [
      { field: 'social_class', filter: { type: 'equal', value: 'C2' } },
    ]);
    for (const socialClass of ['AB', 'C1', 'C2', null])
      expect(matchesRespondent(matcher!, person({ socialClass }))).toBe(false);
  });

  it('keeps the gender and age match of the demographic tables beside it', () => {
    const { matcher, match } = respondentConditions({ gender: ['Male'], startAge: 20 }, []);
    expect(match?.('Male', 20)).toBe(true);
    expect(match?.('Male', 19)).toBe(false);
    expect(matchesRespondent(matcher!, person({ gender: 'Male', age: 20, ethnicity: null }))).toBe(true);
    expect(matchesRespondent(matcher!, person({ gender: 'Male', age: 19 }))).toBe(false);
  });

  it('keeps everybody without conditions', () => {
    const { matcher } = respondentConditions({}, []);
    expect(matchesRespondent(matcher!, person({ gender: null, age: null, ethnicity: null }))).toBe(true);
  });
});

describe('respondent traits', () => {
  const rows: RespondentTraitRow[] = [
    [1, 'Female', 30, 'East Asian', 'AB', 'User'],
    [2, 'Male', 41, 'White', 'C1', null],
    [4, null, null, null, null, null],
    [5, 'Female', 22, 'White', 'AB', 'Non-user'],
    [7, 'Female', 30, 'East Asian', 'C2', 'User'],
  ];
  const traits = respondentTraitsOf(rows);

  it('codes each trait in a byte by respondent id, 0 for missing', () => {
    expect(traits.ethnicity.codeOf).toBeInstanceOf(Uint8Array);
    expect(traits.ethnicity.codeOf.length).toBe(8);
    expect(Array.from(traits.ethnicity.codeOf, (code) => traits.ethnicity.values[code])).toEqual([
      null,
      'East Asian',
      'White',
      null,
      null,
      'White',
      null,
      'East Asian',
    ]);
    expect(traits.bumo.values).toEqual([null, 'User', 'Non-user']);
    // 8 ids: 2 bytes of gender and age cell, 3 of codes.
    expect(traits.bytes).toBe(8 * 5);
  });

  it('builds from chunks what the whole list builds; more than 255 values take two bytes', () => {
    const builder = respondentTraitsBuilder();
    builder.add(rows.slice(0, 2));
    builder.add([]);
    builder.add(rows.slice(2));
    expect(builder.finish()).toEqual(traits);
    const many: RespondentTraitRow[] = Array.from({ length: 300 }, (_, at) => [
      at + 1,
      null,
      null,
      `ethnicity ${at}`,
      null,
      'User',
    ]);
    const wide = respondentTraitsOf(many);
    expect(wide.ethnicity.codeOf).toBeInstanceOf(Uint16Array);
    expect(wide.bumo.codeOf).toBeInstanceOf(Uint8Array);
    expect(wide.ethnicity.values[wide.ethnicity.codeOf[300]!]).toBe('ethnicity 299');
    const kept = keptRespondentIds(wide, respondentConditions({ ethnicity: ['ethnicity 299'] }, []).matcher!);
    expect(Array.from(kept).flatMap((flag, id) => (flag === 1 ? [id] : []))).toEqual([300]);
  });

  it('marks the respondents a filter keeps; an id without respondent never', () => {
    const kept = (demographics: Parameters<typeof respondentConditions>[0]) =>
      Array.from(keptRespondentIds(traits, respondentConditions(demographics, []).matcher!));
    expect(kept({ ethnicity: ['East Asian'] })).toEqual([0, 1, 0, 0, 0, 0, 0, 1]);
    expect(kept({ ethnicity: ['White'], gender: ['Female'] })).toEqual([0, 0, 0, 0, 0, 1, 0, 0]);
    expect(kept({ bumo: ['User'], socialClass: ['AB', 'C2'], endAge: 30 })).toEqual([0, 1, 0, 0, 0, 0, 0, 1]);
    expect(kept({ ethnicity: ['Nobody has this'] })).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(Array.from(keptRespondentIds(traits, EVERY_RESPONDENT))).toEqual([0, 1, 1, 0, 1, 1, 0, 1]);
  });
});

describe('indexSums', () => {
  // Values within the tolerance of a box's edge count in the box, as in the SQL.
  const NEAR_TOP = 4.5 - BOX_TOLERANCE / 2;
  const NEAR_TOP_2 = 3.5 - BOX_TOLERANCE / 2;
  const NEAR_BOTTOM = 1.5 + BOX_TOLERANCE / 2;
  // Product 10: respondents 1, 2, 5 once, 7 twice (a study asking the metric twice); product 11: 1, 5.
  const lists: RespondentList[] = [
    [10, [1, 2, 5, 7, 7], [5, 3.5, 2.5, 1, NEAR_TOP]],
    [11, [1, 5], [NEAR_TOP_2, NEAR_BOTTOM]],
  ];
  const builder = respondentIndexBuilder(3);
  builder.add(lists);
  const index = builder.finish();
  const keptOf = (ids: number[]) => {
    const kept = new Uint8Array(8);
    for (const id of ids) kept[id] = 1;
    return kept;
  };

  it('sums the answers of the kept respondents with the SQL box thresholds', () => {
    expect(indexSums(index, [10, 11], keptOf([1, 2, 5, 7]))).toEqual([
      {
        productId: 10,
        metricId: 3,
        n: 5,
        sum: 5 + 3.5 + 2.5 + 1 + NEAR_TOP,
        sumSq: 25 + 12.25 + 6.25 + 1 + NEAR_TOP ** 2,
        // NEAR_TOP counts in the top box; 2.5 is bottom 2 box, not just right.
        nTopBox: 2,
        nTop2Box: 3,
        nJustRight: 0,
        nBottom2Box: 2,
        nBottomBox: 1,
      },
      {
        productId: 11,
        metricId: 3,
        n: 2,
        sum: NEAR_TOP_2 + NEAR_BOTTOM,
        sumSq: NEAR_TOP_2 ** 2 + NEAR_BOTTOM ** 2,
        nTopBox: 0,
        nTop2Box: 1,
        nJustRight: 0,
        nBottom2Box: 1,
        nBottomBox: 1,
      },
    ]);
  });

  it('leaves out respondents not kept, and products without a kept answer', () => {
    expect(indexSums(index, [11, 10, 12, 11], keptOf([2, 7]))).toEqual([
      {
        productId: 10,
        metricId: 3,
        n: 3,
        sum: 3.5 + 1 + NEAR_TOP,
        sumSq: 12.25 + 1 + NEAR_TOP ** 2,
        nTopBox: 1,
        nTop2Box: 2,
        nJustRight: 0,
        nBottom2Box: 1,
        nBottomBox: 1,
      },
    ]);
    expect(indexSums(index, [10, 11], keptOf([]))).toEqual([]);
    // A respondent id beyond the traits (a respondent written after them) is not kept.
    expect(indexSums(index, [10], new Uint8Array(3).fill(1))).toMatchObject([{ n: 2 }]);
  });

  it('counts distinct kept respondents per metric and for any', () => {
    const other = respondentIndexBuilder(4);
    other.add([[11, [2, 5], [1, 2]]]);
    const counts = countKeptRespondents([index, other.finish()], [10, 11], keptOf([1, 5, 7]));
    expect(Object.fromEntries(counts)).toEqual({ 3: 3, 4: 1, null: 3 });
    expect(countKeptRespondents([index], [11], keptOf([2])).get(null)).toBe(0);
  });
});
