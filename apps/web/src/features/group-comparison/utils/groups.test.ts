import type { GroupDifference, MetricResultRow } from '@accord/contracts';
import { describe, expect, it } from 'vitest';
import {
  ALL_RESPONDENTS,
  EMPTY_GROUP,
  differenceText,
  filterTags,
  formatValue,
  groupRequest,
  studiesOf,
} from './groups.ts';

describe('groupRequest', () => {
  it('sends only the chosen filters, the ages when narrowed and the selected products', () => {
    expect(
      groupRequest(
        { ...EMPTY_GROUP, businessUnit: ['Home Care'], fragranceName: ' Rose ', year: [2019, 2021] },
        { ethnicity: [], gender: ['Female'], age: [25, 40] },
        [4, 9],
      ),
    ).toEqual({
      essentials: {
        businessUnit: ['Home Care'],
        category: undefined,
        product: undefined,
        client: undefined,
        region: undefined,
        startYear: 2019,
        endYear: 2021,
      },
      fragranceDetails: { fragranceName: 'Rose' },
      demographics: { ethnicity: undefined, gender: ['Female'], startAge: 25, endAge: 40 },
      products: [{ id: 4 }, { id: 9 }],
    });
    expect(groupRequest(EMPTY_GROUP, ALL_RESPONDENTS, null).demographics).toEqual({
      ethnicity: undefined,
      gender: undefined,
      startAge: undefined,
      endAge: undefined,
    });
  });
});

describe('filterTags', () => {
  it('lists each chosen value, APAC without its sub-regions', () => {
    expect(
      filterTags(
        { ...EMPTY_GROUP, region: ['APAC', 'South Asia', 'South East Asia', 'North Asia'] },
        { ...ALL_RESPONDENTS, gender: ['Male'], age: [18, 30] },
      ),
    ).toEqual(['Region: APAC', 'Gender: Male', 'Age: 18-30']);
  });
});

describe('studiesOf', () => {
  it('groups the fragrances by study in order', () => {
    const row = (id: number, study: number) =>
      ({ id, study_id: study, c_mi_number: `CMI-${study}` }) as MetricResultRow;
    expect(studiesOf([row(1, 7), row(2, 3), row(3, 7)])).toEqual([
      { studyId: 7, cmi: 'CMI-7', productIds: [1, 3] },
      { studyId: 3, cmi: 'CMI-3', productIds: [2] },
    ]);
  });
});

describe('differenceText and formatValue', () => {
  const base = { p_value: 0.02, level: 0.05, table: 'mt' } as GroupDifference;
  it('reads the level and the direction of group 1', () => {
    expect(differenceText(base)).toBe('Group 1 higher (95 %)');
    expect(differenceText({ ...base, level: 0.01, table: 'let' })).toBe('Group 1 lower (99 %)');
    expect(differenceText({ ...base, level: null, table: null })).toBe('Not significant');
    expect(differenceText({ ...base, p_value: null, level: null, table: null })).toBe('Not testable');
  });
  it('shows means with 2 decimals and boxes in rounded percent', () => {
    expect(formatValue('mean', 3.456)).toBe('3.46');
    expect(formatValue('top_2_box', 0.6249)).toBe('62 %');
    expect(formatValue('top_2_box', null)).toBe('-');
  });
});
