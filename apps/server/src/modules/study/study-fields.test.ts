import { describe, expect, it } from 'vitest';
import { STUDY_FIELD_BY_NAME, normaliseTagValue, sameAsShown, sameStoredValue } from './study-fields.ts';

const spec = (field: string) => STUDY_FIELD_BY_NAME.get(field)!;

describe('normaliseTagValue', () => {
  it('takes whole numbers of at least 1 for study_sample_size and number_of_products', () => {
    expect(normaliseTagValue(spec('study_sample_size'), '120', [])).toEqual({ ok: true, value: 120 });
    expect(normaliseTagValue(spec('number_of_products'), 4, [])).toEqual({ ok: true, value: 4 });
    for (const bad of [0, -1, 2.5, '2.5', 'ten', '0'])
      expect(normaliseTagValue(spec('study_sample_size'), bad, [])).toMatchObject({ ok: false });
    expect(normaliseTagValue(spec('study_sample_size'), null, [])).toEqual({ ok: true, value: null });
  });

  it('takes a whole number (or a stored age band) for age', () => {
    expect(normaliseTagValue(spec('age'), 35, [])).toEqual({ ok: true, value: '35' });
    expect(normaliseTagValue(spec('age'), ' 18 - 64 ', [])).toEqual({ ok: true, value: '18-64' });
    expect(normaliseTagValue(spec('age'), '0', [])).toMatchObject({ ok: false });
    expect(normaliseTagValue(spec('age'), '64-18', [])).toMatchObject({ ok: false });
  });

  it('accepts gender as a text or a one-item list, and splits region text (APAC into its sub-regions)', () => {
    expect(normaliseTagValue(spec('gender'), 'Female', ['Female', 'Male'])).toEqual({
      ok: true,
      value: ['Female'],
    });
    expect(normaliseTagValue(spec('gender'), ['Male'], ['Female', 'Male'])).toEqual({
      ok: true,
      value: ['Male'],
    });
    expect(normaliseTagValue(spec('region'), 'Europe, APAC, Europe', [])).toEqual({
      ok: true,
      value: ['Europe', 'South Asia', 'South East Asia', 'North Asia'],
    });
    expect(normaliseTagValue(spec('gender'), 'Other', ['Female', 'Male'])).toEqual({
      ok: false,
      message: '"Other" is not an option of Gender.',
    });
  });

  it("treats '' and 'No Tag' as empty; refuses emptying required fields", () => {
    expect(normaliseTagValue(spec('base'), 'No Tag', [])).toEqual({ ok: true, value: null });
    expect(normaliseTagValue(spec('country'), [''], [])).toEqual({ ok: true, value: [] });
    expect(normaliseTagValue(spec('project_name'), '  ', [])).toMatchObject({ ok: false });
    expect(normaliseTagValue(spec('category'), ['A', 'B'], [])).toEqual({
      ok: false,
      message: 'Category takes one value.',
    });
    expect(normaliseTagValue(spec('verified'), 'false', [])).toEqual({ ok: true, value: false });
  });
});

describe('sameAsShown and sameStoredValue', () => {
  it('compares leniently: list order, comma text, number text, empty markers', () => {
    expect(sameAsShown(spec('region'), ['Europe', 'North Asia'], 'North Asia, Europe')).toBe(true);
    expect(sameAsShown(spec('region'), ['South Asia', 'South East Asia', 'North Asia'], ['APAC'])).toBe(true);
    expect(sameAsShown(spec('study_sample_size'), 120, '120')).toBe(true);
    expect(sameAsShown(spec('base'), null, 'No Tag')).toBe(true);
    expect(sameAsShown(spec('gender'), [], null)).toBe(true);
    expect(sameAsShown(spec('project_name'), 'A', 'B')).toBe(false);
    expect(sameStoredValue(['a', 'b'], ['b', 'a'])).toBe(true);
    expect(sameStoredValue('a', null)).toBe(false);
  });
});
