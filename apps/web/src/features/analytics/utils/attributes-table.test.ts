import type { MetricSearchRequest } from '@accord/contracts';
import { describe, expect, it } from 'vitest';
import {
  attributeBaseText,
  attributeCountError,
  attributeLabel,
  barSegments,
  barText,
  formatAttributeValue,
  nextSort,
  sortAttributes,
  topAttributesBody,
  type AttributeRow,
} from './attributes-table.ts';

function row(attribute: string, values: Partial<AttributeRow> = {}): AttributeRow {
  return {
    attribute,
    field: attribute.toLowerCase(),
    top_2_box: 0.5,
    bottom_2_box: 0.2,
    mean: 3.4,
    top_box: 0.2,
    bottom_box: 0.05,
    selected: null,
    is_binary_scale: false,
    n: 120,
    ...values,
  };
}

const SEARCH: MetricSearchRequest = {
  q: {
    essentials: { client: ['Acme'] },
    metrics: { rdfType: 'rdf', metricsList: [{ metric: 'liking', aggregation: 'top_2_box' }] },
  },
  demographics_fragrances: [{ field: 'gender', filter: { type: 'equal', value: 'Female' } }],
  fragrances: [{ id: 7 }, { id: 9 }],
};
const SETTINGS = { order: 'worst', count: 5, attributeType: 'binary', aggregation: 'mean' } as const;

describe('topAttributesBody', () => {
  it('carries the search filters, its demographic conditions, its chosen fragrances and the settings', () => {
    expect(topAttributesBody(SEARCH, SETTINGS)).toEqual({
      q: SEARCH.q,
      demographics: SEARCH.demographics_fragrances,
      frags: [{ id: 7 }, { id: 9 }],
      data: { order: 'worst', count: 5, attribute_type: 'binary', aggregation: 'mean' },
    });
  });

  it('pools every fragrance of the filters when none are chosen or the search lists concepts', () => {
    expect(topAttributesBody({ q: SEARCH.q }, SETTINGS)).not.toHaveProperty('frags');
    expect(topAttributesBody({ q: SEARCH.q }, SETTINGS).demographics).toEqual([]);
    expect(topAttributesBody({ ...SEARCH, type: 'concepts' }, SETTINGS)).not.toHaveProperty('frags');
  });

  it("pools exactly the search's rows when they are known (a Best-10 search, its 10)", () => {
    const found = [
      { id: 3, c_mi_number: 'CMI-2024-00001', prod: '100200' },
      { id: 4, c_mi_number: 'CMI-2024-00001', prod: '100201' },
    ];
    expect(topAttributesBody(SEARCH, SETTINGS, found).frags).toEqual(found);
    expect(topAttributesBody({ q: SEARCH.q }, SETTINGS, []).frags).toEqual([]);
    expect(topAttributesBody({ ...SEARCH, type: 'concepts' }, SETTINGS, found)).not.toHaveProperty('frags');
  });
});

describe('attributeCountError', () => {
  it('accepts whole numbers from 1 to 1000 only', () => {
    expect(attributeCountError(10)).toBeNull();
    expect(attributeCountError(1)).toBeNull();
    expect(attributeCountError(1000)).toBeNull();
    expect(attributeCountError('')).toBe('Enter the number of attributes');
    expect(attributeCountError(0)).toBe('Enter at least 1');
    expect(attributeCountError(-3)).toBe('Enter at least 1');
    expect(attributeCountError(2.5)).toBe('Enter a whole number');
    expect(attributeCountError(1001)).toBe('Enter at most 1000');
  });
});

describe('formatAttributeValue', () => {
  it('shows boxes as rounded percentages, means with 2 decimals and missing values as -', () => {
    expect(formatAttributeValue(0.456, 'top_2_box')).toBe('46%');
    expect(formatAttributeValue(0, 'bottom_box')).toBe('0%');
    expect(formatAttributeValue(3.456, 'mean')).toBe('3.46');
    expect(formatAttributeValue(null, 'mean')).toBe('-');
    expect(formatAttributeValue(Number.NaN, 'top_box')).toBe('-');
  });
});

describe('barSegments', () => {
  it('splits the bar into T2B, Neither/Nor and B2B adding up to 100', () => {
    const segments = barSegments({ top_2_box: 0.455, bottom_2_box: 0.234 });
    expect(segments.map((segment) => [segment.label, segment.percent])).toEqual([
      ['T2B', 46],
      ['Neither/Nor', 31],
      ['B2B', 23],
    ]);
    expect(barText(segments)).toBe('T2B 46%, Neither/Nor 31%, B2B 23%');
  });

  it('has no neutral part on a binary scale and never goes over 100', () => {
    expect(barSegments({ top_2_box: 0.625, bottom_2_box: 0.375 }).map((s) => s.percent)).toEqual([63, 0, 37]);
    expect(barSegments({ top_2_box: 0.7, bottom_2_box: 0.5 }).map((s) => s.percent)).toEqual([70, 0, 30]);
    expect(barSegments({ top_2_box: 0.005, bottom_2_box: 0.995 }).map((s) => s.percent)).toEqual([1, 0, 99]);
  });

  it('is empty without boxes', () => {
    expect(barSegments({ top_2_box: null, bottom_2_box: null })).toEqual([]);
    expect(barText([])).toBe('No box values');
  });
});

describe('labels', () => {
  it('marks CATA attributes and low bases', () => {
    expect(attributeLabel(row('Fresh'))).toBe('Fresh');
    expect(attributeLabel(row('Floral', { is_binary_scale: true }))).toBe('Floral*');
    expect(attributeBaseText(row('Fresh'))).toBe('Base: n = 120');
    expect(attributeBaseText(row('Fresh', { n: 29 }))).toBe('Base: n = 29 (low base, below 30)');
    expect(attributeBaseText(row('Fresh', { n: 30 }))).toBe('Base: n = 30');
  });
});

describe('sortAttributes', () => {
  const rows = [
    row('Fresh', { top_2_box: 0.6, mean: 3.9, top_box: 0.3 }),
    row('clean', { top_2_box: 0.4, mean: null, top_box: 0.3 }),
    row('Warm', { top_2_box: 0.5, mean: 3.1, top_box: 0.1 }),
  ];
  const names = (sorted: AttributeRow[]) => sorted.map((entry) => entry.attribute);

  it('keeps the ranking without a sort', () => {
    expect(names(sortAttributes(rows, null))).toEqual(['Fresh', 'clean', 'Warm']);
  });

  it('sorts names without regard to case and the bar by its T2B share', () => {
    expect(names(sortAttributes(rows, { key: 'attribute', direction: 'asc' }))).toEqual([
      'clean',
      'Fresh',
      'Warm',
    ]);
    expect(names(sortAttributes(rows, { key: 'bar', direction: 'asc' }))).toEqual(['clean', 'Warm', 'Fresh']);
  });

  it('puts missing numbers last both ways and keeps the ranking on ties', () => {
    expect(names(sortAttributes(rows, { key: 'mean', direction: 'desc' }))).toEqual([
      'Fresh',
      'Warm',
      'clean',
    ]);
    expect(names(sortAttributes(rows, { key: 'mean', direction: 'asc' }))).toEqual([
      'Warm',
      'Fresh',
      'clean',
    ]);
    expect(names(sortAttributes(rows, { key: 'top_box', direction: 'desc' }))).toEqual([
      'Fresh',
      'clean',
      'Warm',
    ]);
  });

  it('starts numbers descending and names ascending, then turns the order round', () => {
    expect(nextSort(null, 'mean')).toEqual({ key: 'mean', direction: 'desc' });
    expect(nextSort(null, 'attribute')).toEqual({ key: 'attribute', direction: 'asc' });
    expect(nextSort({ key: 'mean', direction: 'desc' }, 'mean')).toEqual({ key: 'mean', direction: 'asc' });
    expect(nextSort({ key: 'mean', direction: 'asc' }, 'top_box')).toEqual({
      key: 'top_box',
      direction: 'desc',
    });
  });
});
