import { describe, expect, it } from 'vitest';
import {
  buildRequest,
  defaultFilters,
  defaultThreshold,
  filtersFromRequest,
  hasFilterValues,
  parseFiltersText,
  toSearchRequest,
} from './filters.ts';
import { analyticsSearchHref } from './analytics-link.ts';

function withLiking() {
  const filters = defaultFilters();
  filters.metrics.metricsList = [
    {
      key: 1,
      metricType: 'Performance',
      metric: 'liking',
      aggregation: 'top_2_box',
      confidence: true,
      threshold: defaultThreshold(),
    },
    {
      key: 2,
      metricType: null,
      metric: 'strength',
      aggregation: null,
      confidence: false,
      threshold: defaultThreshold(),
    },
  ];
  return filters;
}

describe('toSearchRequest', () => {
  it('is null without a complete metric row', () => {
    expect(toSearchRequest(defaultFilters())).toBeNull();
  });
  it('sends complete metric rows and only the filters that are set', () => {
    const filters = withLiking();
    filters.essentials.client = ['Halden & Crane'];
    filters.fragranceDetails.fragranceName = '  Amber ';
    filters.demographics.startAge = 25;
    expect(toSearchRequest(filters, { min: 2010, max: 2026 })).toEqual({
      type: 'fragrances',
      q: {
        essentials: { client: ['Halden & Crane'] },
        fragranceDetails: { fragranceName: 'Amber' },
        demographics: { startAge: 25 },
        metrics: {
          rdfType: 'all',
          useConcepts: false,
          metricsList: [
            { metricType: 'Performance', metric: 'liking', aggregation: 'top_2_box', confidence: true },
          ],
        },
      },
    });
  });
  it('drops the full year and age ranges and sends an applied threshold', () => {
    const filters = withLiking();
    filters.essentials.startYear = 2010;
    filters.essentials.endYear = 2026;
    filters.demographics.startAge = 18;
    filters.demographics.endAge = 64;
    filters.metrics.threshold = { applyThreshold: true, amount: 5, desc: false, type: 'percentage' };
    const request = toSearchRequest(filters, { min: 2010, max: 2026 })!;
    expect(request.q.essentials).toBeUndefined();
    expect(request.q.demographics).toBeUndefined();
    expect(request.q.metrics.threshold).toEqual({
      applyThreshold: true,
      amount: 5,
      desc: false,
      type: 'percentage',
    });
  });
});

describe('per-metric thresholds', () => {
  it("sends an entry's own applied threshold with it, and reads it back", () => {
    const filters = withLiking();
    filters.metrics.metricsList[0]!.threshold = {
      applyThreshold: true,
      amount: 3,
      desc: false,
      type: 'fragrances',
    };
    const request = toSearchRequest(filters)!;
    expect(request.q.metrics.threshold).toBeUndefined();
    expect(request.q.metrics.metricsList[0]).toEqual({
      metricType: 'Performance',
      metric: 'liking',
      aggregation: 'top_2_box',
      confidence: true,
      applyThreshold: true,
      threshold: { applyThreshold: true, amount: 3, desc: false, type: 'fragrances' },
    });
    const restored = parseFiltersText(JSON.stringify(buildRequest(filters)));
    expect(restored.metrics.metricsList[0]!.threshold).toEqual({
      applyThreshold: true,
      amount: 3,
      desc: false,
      type: 'fragrances',
    });
  });
  it('sends nothing for a threshold that is set but not applied', () => {
    const filters = withLiking();
    filters.metrics.metricsList[0]!.threshold = {
      applyThreshold: false,
      amount: 3,
      desc: false,
      type: 'percentage',
    };
    expect(toSearchRequest(filters)!.q.metrics.metricsList[0]).not.toHaveProperty('threshold');
    expect(toSearchRequest(filters)!.q.metrics.metricsList[0]).not.toHaveProperty('applyThreshold');
  });
});

describe('hasFilterValues', () => {
  it('does not count the search type alone', () => {
    const filters = defaultFilters();
    filters.type = 'concepts';
    expect(hasFilterValues(filters)).toBe(false);
  });
  it('counts a chosen metric, a study filter or an applied threshold', () => {
    expect(hasFilterValues(withLiking())).toBe(true);
    const family = defaultFilters();
    family.fragranceDetails.family = ['Floral'];
    expect(hasFilterValues(family)).toBe(true);
    const threshold = defaultFilters();
    threshold.metrics.threshold.applyThreshold = true;
    expect(hasFilterValues(threshold)).toBe(true);
  });
});

describe('filtersFromRequest', () => {
  it('reads back what a saved search keeps', () => {
    const filters = withLiking();
    filters.type = 'concepts';
    filters.essentials.region = ['Europe'];
    const restored = parseFiltersText(JSON.stringify(buildRequest(filters)));
    expect(restored.type).toBe('concepts');
    expect(restored.essentials.region).toEqual(['Europe']);
    expect(
      restored.metrics.metricsList.map(({ metric, aggregation, confidence }) => [
        metric,
        aggregation,
        confidence,
      ]),
    ).toEqual([['liking', 'top_2_box', true]]);
  });
  it('accepts the filters alone, as a wizard may pass them', () => {
    const restored = filtersFromRequest({
      metrics: { rdfType: 'eeg', metricsList: [{ metric: 'attention', aggregation: 'eeg_mean' }] },
    });
    expect(restored.metrics.rdfType).toBe('eeg');
    expect(restored.metrics.metricsList[0]).toMatchObject({
      metric: 'attention',
      aggregation: 'eeg_mean',
      confidence: false,
    });
  });
  it('ignores bad input', () => {
    expect(parseFiltersText('{not json').metrics.metricsList).toHaveLength(1);
    const odd = filtersFromRequest({
      q: { essentials: { client: 'x', startYear: 'soon' }, metrics: { metricsList: 3 } },
    });
    expect(odd.essentials.client).toEqual([]);
    expect(odd.essentials.startYear).toBeNull();
    expect(odd.metrics.metricsList).toHaveLength(1);
  });
});

describe('analyticsSearchHref', () => {
  it('carries the flags and the request in the URL', () => {
    const href = analyticsSearchHref({
      startSearch: true,
      hideDescription: true,
      header: 'Confirm your selections:',
      query: { q: { metrics: { metricsList: [{ metric: 'liking', aggregation: 'mean' }] } } },
    });
    const url = new URL(href, 'http://localhost');
    expect(url.pathname).toBe('/analytics');
    expect(url.searchParams.get('startSearch')).toBe('true');
    expect(url.searchParams.get('hideDescription')).toBe('true');
    expect(url.searchParams.get('header')).toBe('Confirm your selections:');
    expect(filtersFromRequest(JSON.parse(url.searchParams.get('q')!)).metrics.metricsList[0]!.metric).toBe(
      'liking',
    );
  });
});
