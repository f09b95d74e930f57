import type { StudyTagDefinition } from '@accord/contracts';
import { describe, expect, it } from 'vitest';
import {
  badFields,
  badFieldsMessage,
  buildUpdateRequest,
  detailInputKind,
  inputChanged,
  inputProblem,
  isEmptyValue,
  parseAge,
  parseWholeNumber,
  selectOptions,
  splitRegions,
  tagInputKind,
  toInputValue,
  toRequestValue,
  type EditField,
} from './details-edit.ts';

const definition = (overrides: Partial<StudyTagDefinition>): StudyTagDefinition => ({
  field: 'x',
  label: 'X',
  type: 'string',
  options: [],
  multivalue: false,
  editable: true,
  tag_group: null,
  whole_number: false,
  ...overrides,
});

describe('splitRegions', () => {
  it.each([
    ['Europe, North America', ['Europe', 'North America']],
    ['Europe', ['Europe']],
    [
      ['Europe', 'APAC'],
      ['Europe', 'APAC'],
    ],
    [
      ['Europe,Latin America', ' '],
      ['Europe', 'Latin America'],
    ],
    ['No Tag', []],
    ['', []],
    [null, []],
  ])('%j becomes %j', (value, expected) => {
    expect(splitRegions(value)).toEqual(expected);
  });
});

describe('parseWholeNumber', () => {
  it.each([
    ['1', 1],
    [' 250 ', 250],
    ['', null],
    ['0', undefined],
    ['-3', undefined],
    ['2.5', undefined],
    ['1e3', undefined],
    ['abc', undefined],
    ['99999999999999999999', undefined],
  ])('%j reads as %j', (text, expected) => {
    expect(parseWholeNumber(text)).toBe(expected);
  });
});

describe('parseAge', () => {
  it.each([
    ['35', '35'],
    ['18-64', '18-64'],
    ['18 - 64', '18-64'],
    ['', null],
    ['64-18', undefined],
    ['0-10', undefined],
    ['18 to 64', undefined],
  ])('%j reads as %j', (text, expected) => {
    expect(parseAge(text)).toBe(expected);
  });
});

describe('isEmptyValue', () => {
  it.each([
    [null, true],
    ['', true],
    ['No Tag', true],
    ['no tag ', true],
    [[], true],
    [['No Tag', ''], true],
    [['Europe'], false],
    ['Base', false],
    [12, false],
    [false, false],
  ])('%j empty: %s', (value, expected) => {
    expect(isEmptyValue(value)).toBe(expected);
  });
});

describe('input kinds', () => {
  it('chooses the details edit input from the tag definition', () => {
    expect(detailInputKind('c_mi_number', definition({ editable: true }))).toBe('readonly');
    expect(detailInputKind('client', definition({ editable: false }))).toBe('readonly');
    expect(detailInputKind('client', undefined)).toBe('readonly');
    expect(detailInputKind('gender', definition({ type: 'categorical', multivalue: true }))).toBe('gender');
    expect(detailInputKind('region', definition({ type: 'categorical', multivalue: true }))).toBe(
      'multiselect',
    );
    expect(detailInputKind('client', definition({ type: 'categorical' }))).toBe('select');
    expect(detailInputKind('age', definition({ whole_number: true }))).toBe('age');
    expect(detailInputKind('study_sample_size', definition({ type: 'int', whole_number: true }))).toBe(
      'whole',
    );
    expect(detailInputKind('base', definition({}))).toBe('text');
  });

  it("asks 'Add tag' for whole numbers on age, # of products and sample size", () => {
    expect(tagInputKind(definition({ field: 'age', type: 'string', options: [] }))).toBe('whole');
    expect(tagInputKind(definition({ field: 'number_of_products', type: 'int' }))).toBe('whole');
    expect(tagInputKind(definition({ field: 'study_sample_size', type: 'int' }))).toBe('whole');
    expect(tagInputKind(definition({ field: 'base' }))).toBe('text');
    expect(tagInputKind(definition({ field: 'country', type: 'categorical', multivalue: true }))).toBe(
      'multiselect',
    );
    expect(tagInputKind(definition({ field: 'lead_country', type: 'categorical' }))).toBe('select');
  });
});

describe('toInputValue and toRequestValue', () => {
  it('splits a region text into the multi-select list', () => {
    expect(toInputValue('multiselect', 'region', 'Europe, Latin America')).toEqual([
      'Europe',
      'Latin America',
    ]);
    expect(toInputValue('multiselect', 'country', ['France', 'No Tag'])).toEqual(['France']);
  });

  it('copies every stored gender into the input and sends gender as a list', () => {
    expect(toInputValue('gender', 'gender', ['Female'])).toEqual(['Female']);
    expect(toInputValue('gender', 'gender', ['Female', 'Male'])).toEqual(['Female', 'Male']);
    expect(toInputValue('gender', 'gender', 'Male')).toEqual(['Male']);
    expect(toRequestValue('gender', ['Male'])).toEqual(['Male']);
    expect(toRequestValue('gender', 'Male')).toEqual(['Male']);
    expect(toRequestValue('gender', [])).toEqual([]);
  });

  it('reads numbers, texts and empties', () => {
    expect(toInputValue('whole', 'study_sample_size', 120)).toBe('120');
    expect(toInputValue('text', 'pace_number', null)).toBe('');
    expect(toInputValue('select', 'category', 'No Tag')).toBe('');
    expect(toRequestValue('whole', ' 120 ')).toBe(120);
    expect(toRequestValue('whole', '')).toBeNull();
    expect(toRequestValue('age', '18 - 45')).toBe('18-45');
    expect(toRequestValue('text', '  Pace 7 ')).toBe('Pace 7');
    expect(toRequestValue('select', '')).toBeNull();
    expect(toRequestValue('boolean', 'true')).toBe(true);
  });
});

describe('inputProblem', () => {
  it('holds whole numbers, ages and required fields to their rules', () => {
    expect(inputProblem('whole', 'study_sample_size', 'Study Sample Size', '0')).toBe(
      'Study Sample Size must be a whole number of at least 1.',
    );
    expect(inputProblem('whole', 'study_sample_size', 'Study Sample Size', '')).toBeNull();
    expect(inputProblem('age', 'age', 'Age', '18-64')).toBeNull();
    expect(inputProblem('age', 'age', 'Age', 'adults')).toMatch(/range such as 18-64/);
    expect(inputProblem('text', 'project_name', 'Project Name', '  ')).toBe('Project Name cannot be empty.');
    expect(inputProblem('text', 'pace_number', 'CX/Pace #', '')).toBeNull();
  });
});

describe('buildUpdateRequest', () => {
  const fields: EditField[] = [
    { field: 'project_name', kind: 'text', shown: 'Fresh Citrus', initial: 'Fresh Citrus' },
    { field: 'c_mi_number', kind: 'readonly', shown: 'CMI-1', initial: 'CMI-1' },
    {
      field: 'region',
      kind: 'multiselect',
      shown: 'Europe, North America',
      initial: ['Europe', 'North America'],
    },
    { field: 'gender', kind: 'gender', shown: ['Female'], initial: ['Female'] },
    { field: 'study_sample_size', kind: 'whole', shown: 200, initial: '200' },
  ];
  const initial = Object.fromEntries(fields.map((entry) => [entry.field, entry.initial]));

  it('sends nothing when nothing changed (reordered lists and spaces do not count)', () => {
    expect(buildUpdateRequest(fields, initial)).toBeNull();
    expect(
      buildUpdateRequest(fields, {
        ...initial,
        project_name: ' Fresh Citrus ',
        region: ['North America', 'Europe'],
      }),
    ).toBeNull();
  });

  it('sends only the changed fields with their old values', () => {
    expect(
      buildUpdateRequest(fields, {
        ...initial,
        project_name: 'Fresh Citrus 2',
        gender: ['Male'],
        region: ['Europe'],
        c_mi_number: 'CMI-2',
      }),
    ).toEqual({
      type: 'study',
      study: { project_name: 'Fresh Citrus 2', gender: ['Male'], region: ['Europe'] },
      oldData: { project_name: 'Fresh Citrus', gender: ['Female'], region: 'Europe, North America' },
    });
    expect(buildUpdateRequest(fields, { ...initial, study_sample_size: '250' })).toEqual({
      type: 'study',
      study: { study_sample_size: 250 },
      oldData: { study_sample_size: 200 },
    });
  });

  it('notices a list emptied or a value added', () => {
    expect(inputChanged(['Europe'], [])).toBe(true);
    expect(inputChanged('', 'x')).toBe(true);
    expect(inputChanged(['a', 'b'], ['b', 'a', 'a'])).toBe(false);
  });
});

describe('refused edits', () => {
  it('names the fields with messages after the server message', () => {
    const fields = badFields({ country: ['France is in Europe'], region: ['France is in Europe'], base: [] });
    expect(fields).toEqual(['country', 'region']);
    expect(
      badFieldsMessage('The study data is not coherent. France is in Europe.', ['Country', 'Region']),
    ).toBe('The study data is not coherent. France is in Europe. Bad fields: Country, Region');
    expect(badFieldsMessage('The study data is not coherent', ['Country'])).toBe(
      'The study data is not coherent. Bad fields: Country',
    );
  });
});

describe('selectOptions', () => {
  it('keeps a current value the options lack', () => {
    const def = definition({
      options: [
        { value: 'Europe', label: 'Europe', parent: null },
        { value: 'APAC', label: '', parent: null },
      ],
    });
    expect(selectOptions(def, ['Europe', 'Atlantis'])).toEqual([
      { value: 'Europe', label: 'Europe' },
      { value: 'APAC', label: 'APAC' },
      { value: 'Atlantis', label: 'Atlantis' },
    ]);
    expect(selectOptions(undefined, '')).toEqual([]);
  });
});
