import type { MetricSearchRequest } from '@accord/contracts';
import { TendenciesRequest, TENDENCY_FIELDS } from '@accord/contracts';
import { describe, expect, it } from 'vitest';
import {
  chartLabel,
  formatPercentage,
  isTendencyCount,
  isTendencyField,
  isTendencyType,
  keptTendencies,
  tendenciesBody,
  tendenciesDownloadBody,
  tendencyFieldOptions,
  TENDENCY_TYPES,
} from './attributes-tendencies.ts';

const SEARCH: MetricSearchRequest = {
  q: {
    essentials: { region: ['Europe'] },
    metrics: { metricsList: [{ metric: 'liking', aggregation: 'mean' }] },
  },
  fragrances: [{ id: 3 }],
};

describe('tendency options', () => {
  it('offers every field the server counts by, each under one Metadata Type', () => {
    const offered = TENDENCY_TYPES.flatMap((type) => type.fields);
    expect([...offered].sort()).toEqual([...TENDENCY_FIELDS].sort());
  });

  it('lists the Metadata of the chosen type only', () => {
    expect(tendencyFieldOptions(null)).toEqual([]);
    expect(tendencyFieldOptions('olfactive').map((option) => option.label)).toEqual([
      'Family',
      'Subfamily',
      'Specifier',
      'Dominant Note',
    ]);
    expect(isTendencyField('olfactive', 'family')).toBe(true);
    expect(isTendencyField('creative', 'family')).toBe(false);
    expect(isTendencyType('creative')).toBe(true);
    expect(isTendencyType('colour')).toBe(false);
    expect(isTendencyCount('10')).toBe(true);
    expect(isTendencyCount(null)).toBe(false);
  });
});

describe('tendenciesBody', () => {
  it("counts exactly the search's rows when they are known (a Best-10 search, its 10)", () => {
    const found = [{ id: 8, c_mi_number: 'CMI-2024-00002', prod: '300400' }];
    const body = tendenciesBody({ q: SEARCH.q }, { count: 'all', field: 'family' }, found);
    expect(body.frags).toEqual(found);
    expect(TendenciesRequest.safeParse(body).success).toBe(true);
    expect(
      tendenciesBody({ ...SEARCH, type: 'concepts' }, { count: 'all', field: 'family' }, found),
    ).not.toHaveProperty('frags');
  });

  it('sends the call of the specification: percentage by the chosen field, of the chosen fragrances', () => {
    const body = tendenciesBody(SEARCH, { count: '10', field: 'perfumer_name' });
    expect(body).toEqual({
      q: SEARCH.q,
      data: { return: 'percentage', groupby: 'perfume_characteristics.perfumer_name' },
      frags: [{ id: 3 }],
    });
    expect(TendenciesRequest.safeParse(body).success).toBe(true);
    // The spreadsheet keeps the values the table shows.
    expect(tendenciesDownloadBody(body, '10').data).toEqual({
      return: 'percentage',
      groupby: 'perfume_characteristics.perfumer_name',
      count: 10,
    });
    expect(tendenciesDownloadBody(body, 'all')).toBe(body);
    expect(keptTendencies([1, 2, 3, 4, 5, 6], '5')).toEqual([1, 2, 3, 4, 5]);
    expect(keptTendencies([1, 2], 'all')).toEqual([1, 2]);
  });

  it('counts every fragrance of the filters for a concept search', () => {
    const body = tendenciesBody({ ...SEARCH, type: 'concepts' }, { count: 'all', field: 'family' });
    expect(body.data).toEqual({ return: 'percentage', groupby: 'perfume_characteristics.family' });
    expect(body).not.toHaveProperty('frags');
    expect(TendenciesRequest.safeParse(body).success).toBe(true);
  });
});

describe('formatting', () => {
  it('shows percentages with one decimal', () => {
    expect(formatPercentage(33.3333)).toBe('33.3%');
    expect(formatPercentage(100)).toBe('100.0%');
    expect(formatPercentage(Number.NaN)).toBe('-');
  });

  it('cuts chart labels over 18 characters to 15 plus ...', () => {
    expect(chartLabel('Floral Fruity Gourmand')).toBe('Floral Fruity G...');
    expect(chartLabel('Eighteen letters!!')).toBe('Eighteen letters!!');
  });
});
