import { describe, expect, it } from 'vitest';
import {
  EMPTY_NARROWING,
  MetricSearchRequest,
  RankingRequest,
  WIZARD_MESSAGES,
  attributesQuery,
  bestWorstQuery,
  rankingQuery,
} from './index.ts';

const testers = (overrides: Record<string, unknown> = {}) => ({
  kind: 'testers',
  radioDesc: 'best',
  amount: 10,
  radioPercentType: 'percentage',
  type: 'fragrances',
  rdfType: 'rdf',
  ...overrides,
});

const attributes = (overrides: Record<string, unknown> = {}) => ({
  kind: 'attributes',
  radioDesc: 'worst',
  amount: 3,
  radioPercentType: 'number',
  attributeType: 'moods',
  attribute: 'relaxing',
  ...overrides,
});

const messages = (body: unknown) => {
  const parsed = RankingRequest.safeParse(body);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
};

describe('RankingRequest', () => {
  it('accepts the wizard choices and fills in empty narrowing filters', () => {
    const parsed = RankingRequest.parse(testers());
    expect(parsed.narrowing).toEqual(EMPTY_NARROWING);
  });

  it.each([0, -1, 2.5, '10', 100_001])('refuses the top amount %s with the wizard message', (amount) => {
    expect(messages(testers({ amount, radioPercentType: 'number' }))).toEqual([WIZARD_MESSAGES.topAmount]);
  });

  it('refuses a percentage above 100 but not a number above 100', () => {
    expect(messages(testers({ amount: 101 }))).toEqual([WIZARD_MESSAGES.percentageAbove100]);
    expect(messages(testers({ amount: 101, radioPercentType: 'number' }))).toEqual([]);
  });

  it('refuses an attribute not of the chosen type, naming it', () => {
    expect(messages(attributes({ attribute: 'clean' }))).toEqual(['Unknown moods attribute: clean.']);
    expect(messages(attributes({ attribute: 'sparkly' }))).toEqual(['Unknown moods attribute: sparkly.']);
  });

  it('refuses a year range running backwards and unknown keys', () => {
    expect(messages(testers({ narrowing: { year: [2024, 2020] } }))).toEqual([
      'The start year must not be after the end year.',
    ]);
    expect(messages(testers({ metricsList: [] }))).toHaveLength(1);
  });
});

describe('rankingQuery (document 3 sections 4.2 and 4.3)', () => {
  const narrowing = {
    client: ['Acme'],
    region: ['APAC', 'South Asia', 'South East Asia', 'North Asia'],
    businessUnit: [],
    category: ['Fine'],
    product: [],
    year: [2020, 2023] as [number, number],
  };

  it('builds the same search as the Best/Worst wizard hands to Advanced Analytics', () => {
    const query = rankingQuery(RankingRequest.parse(testers({ rdfType: 'all', narrowing })));
    expect(query).toEqual(
      bestWorstQuery(
        { radioDesc: 'best', amount: 10, radioPercentType: 'percentage', type: 'fragrances', rdfType: 'all' },
        narrowing,
      ),
    );
    expect(query.q.metrics.threshold).toEqual({
      applyThreshold: true,
      amount: 10,
      desc: true,
      type: 'percentage',
    });
    expect(query.q.metrics.metricsList.map((entry) => `${entry.metric}.${entry.aggregation}`)).toEqual([
      'liking.top_2_box',
      'hfd_hedonic.mean',
    ]);
    expect(query.q.essentials).toMatchObject({ client: ['Acme'], startYear: 2020, endYear: 2023 });
    expect(MetricSearchRequest.safeParse(query).success).toBe(true);
  });

  it('builds the same search as the Fragrance Attributes wizard', () => {
    const query = rankingQuery(RankingRequest.parse(attributes()));
    expect(query).toEqual(
      attributesQuery(
        {
          radioDesc: 'worst',
          amount: 3,
          radioPercentType: 'number',
          attributeType: 'moods',
          attribute: 'relaxing',
        },
        EMPTY_NARROWING,
      ),
    );
    expect(query.q.metrics.threshold).toEqual({
      applyThreshold: true,
      amount: 3,
      desc: false,
      type: 'fragrances',
    });
    expect(query.q.metrics.metricsList[0]).toMatchObject({
      metricType: 'Attribute: moods ',
      metric: 'relaxing',
      aggregation: 'top_2_box',
    });
    expect(MetricSearchRequest.safeParse(query).success).toBe(true);
  });

  it('ranks concepts by EEG hedonic for Implicit', () => {
    const query = rankingQuery(
      RankingRequest.parse(testers({ rdfType: 'eeg', type: 'concepts', radioDesc: 'worst' })),
    );
    expect(query.type).toBe('concepts');
    expect(query.q.metrics.rdfType).toBe('eeg');
    expect(query.q.metrics.threshold?.desc).toBe(false);
    expect(query.q.metrics.metricsList.map((entry) => entry.metric)).toEqual(['hfd_hedonic']);
  });
});
