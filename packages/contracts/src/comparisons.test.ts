import { describe, expect, it } from 'vitest';
import {
  EMPTY_NARROWING,
  MetricSearchRequest,
  TopFamilyFragrancesRequest,
  WIZARD_HEADER,
  WIZARD_MESSAGES,
  attributesQuery,
  bestWorstQuery,
  parseTopAmount,
  wizardNavigationState,
  type BestWorstForm,
} from './index.ts';

const form = (overrides: Partial<BestWorstForm> = {}): BestWorstForm => ({
  radioDesc: 'best',
  amount: 10,
  radioPercentType: 'number',
  type: 'fragrances',
  rdfType: 'rdf',
  ...overrides,
});

const LIKING = {
  metricType: 'Performance',
  metric: 'liking',
  aggregation: 'top_2_box',
  confidence: false,
  applyThreshold: false,
};
const HEDONIC = {
  metricType: 'Performance',
  metric: 'hfd_hedonic',
  aggregation: 'mean',
  confidence: false,
  applyThreshold: false,
};

describe('bestWorstQuery (document 3 section 4.2)', () => {
  it('explicit best 10 %: top_2_box liking, desc, percentage, one region', () => {
    const query = bestWorstQuery(form({ radioPercentType: 'percentage' }), {
      ...EMPTY_NARROWING,
      region: ['Europe'],
    });
    expect(query).toEqual({
      q: {
        essentials: {
          client: undefined,
          region: ['Europe'],
          businessUnit: undefined,
          category: undefined,
          product: undefined,
          startYear: undefined,
          endYear: undefined,
        },
        metrics: {
          rdfType: 'rdf',
          threshold: { applyThreshold: true, amount: 10, desc: true, type: 'percentage' },
          metricsList: [LIKING],
        },
      },
      type: 'fragrances',
      demographics_fragrances: [],
    });
    expect(MetricSearchRequest.safeParse(query).success).toBe(true);
  });

  it('implicit worst 5 concepts: mean hfd_hedonic, not desc, a number of them', () => {
    const query = bestWorstQuery(
      form({ radioDesc: 'worst', amount: 5, type: 'concepts', rdfType: 'eeg' }),
      EMPTY_NARROWING,
    );
    expect(query.type).toBe('concepts');
    expect(query.q.metrics).toEqual({
      rdfType: 'eeg',
      threshold: { applyThreshold: true, amount: 5, desc: false, type: 'fragrances' },
      metricsList: [HEDONIC],
    });
  });

  it('all: both metric entries, liking first', () => {
    const query = bestWorstQuery(form({ rdfType: 'all' }), EMPTY_NARROWING);
    expect(query.q.metrics.metricsList).toEqual([LIKING, HEDONIC]);
    expect(query.q.metrics.rdfType).toBe('all');
  });

  it('carries the narrowing filters and the year range', () => {
    const query = bestWorstQuery(form(), {
      client: ['Acme'],
      region: ['APAC', 'South Asia', 'South East Asia', 'North Asia'],
      businessUnit: ['Home Care'],
      category: ['Fabric Care'],
      product: ['Softener'],
      year: [2019, 2023],
    });
    expect(query.q.essentials).toEqual({
      client: ['Acme'],
      region: ['APAC', 'South Asia', 'South East Asia', 'North Asia'],
      businessUnit: ['Home Care'],
      category: ['Fabric Care'],
      product: ['Softener'],
      startYear: 2019,
      endYear: 2023,
    });
  });
});

describe('attributesQuery (document 3 section 4.3)', () => {
  it("metric type 'Attribute: {type} ', the attribute, top_2_box and the threshold", () => {
    const query = attributesQuery(
      {
        attributeType: 'olfactive',
        attribute: 'fresh',
        radioDesc: 'worst',
        amount: 3,
        radioPercentType: 'number',
      },
      EMPTY_NARROWING,
    );
    expect(query.q.metrics).toEqual({
      rdfType: 'rdf',
      threshold: { applyThreshold: true, amount: 3, desc: false, type: 'fragrances' },
      metricsList: [
        {
          metricType: 'Attribute: olfactive ',
          metric: 'fresh',
          aggregation: 'top_2_box',
          confidence: false,
          applyThreshold: false,
        },
      ],
    });
    expect(query.type).toBe('fragrances');
    expect(MetricSearchRequest.safeParse(query).success).toBe(true);
  });
});

describe('wizardNavigationState', () => {
  it('starts the search, hides the description and sets the header', () => {
    const query = bestWorstQuery(form(), EMPTY_NARROWING);
    expect(wizardNavigationState(query)).toEqual({
      startSearch: true,
      hideDescription: true,
      header: 'Confirm your selections:',
      query,
    });
    expect(WIZARD_HEADER).toBe('Confirm your selections:');
  });
});

describe('parseTopAmount', () => {
  it.each(['0', '-3', '2.5', 'ten', '', ' ', '1e3', '100001'])('refuses %j', (text) => {
    expect(parseTopAmount(text, 'number')).toEqual({ error: WIZARD_MESSAGES.topAmount });
  });
  it('accepts positive whole numbers', () => {
    expect(parseTopAmount(' 12 ', 'number')).toEqual({ amount: 12 });
    expect(parseTopAmount('100', 'percentage')).toEqual({ amount: 100 });
  });
  it('refuses a percentage above 100', () => {
    expect(parseTopAmount('101', 'percentage')).toEqual({ error: WIZARD_MESSAGES.percentageAbove100 });
  });
});

describe('TopFamilyFragrancesRequest', () => {
  it("refuses the 'No tag' bar and an empty family", () => {
    expect(TopFamilyFragrancesRequest.safeParse({ family: 'No tag' }).success).toBe(false);
    expect(TopFamilyFragrancesRequest.safeParse({ family: ' ' }).success).toBe(false);
    expect(TopFamilyFragrancesRequest.safeParse({ family: 'Floral' }).success).toBe(true);
  });
});
