import { MetricSearchRequest, type MetricSearchResult } from '@accord/contracts';
import { describe, expect, it } from 'vitest';
import {
  conditionsInWords,
  filtersInWords,
  metricsInWords,
  respondentFiltersInWords,
  studyFiltersInWords,
  thresholdInWords,
} from './filters-in-words.ts';

const LIKING = { metric: 'liking', aggregation: 'top_2_box' } as const;

/** A search request as the server parses it (defaults filled). */
const parsed = (q: Record<string, unknown>) =>
  MetricSearchRequest.parse({ q: { metrics: { metricsList: [LIKING] }, ...q } });

describe('filtersInWords', () => {
  it('says "No filters" when the search keeps the defaults', () => {
    expect(filtersInWords(parsed({}).q)).toBe('No filters');
    // Empty lists, blank texts and open age ends narrow nothing either.
    expect(
      filtersInWords(
        parsed({
          essentials: { region: [], projectName: '  ' },
          demographics: { gender: [], startAge: null, endAge: null },
        }).q,
      ),
    ).toBe('No filters');
  });

  it('names each field as the filter screens label it, with the chosen values', () => {
    const { q } = parsed({
      essentials: {
        region: ['Europe'],
        category: ['Fabric Care', 'Fine Fragrance'],
        startYear: 2019,
        endYear: 2022,
      },
      fragranceDetails: { family: ['Citrus'] },
      demographics: { gender: ['Female'], ethnicity: ['Asian'], startAge: 18, endAge: 34 },
    });
    expect(filtersInWords(q)).toBe(
      'Category: Fabric Care, Fine Fragrance; Region: Europe; Fragrance family: Citrus; Years: 2019 to 2022; Gender: Female; Ethnicity: Asian; Age: 18 to 34',
    );
    // Counts of fragrances ignore respondents: their words leave them out.
    expect(filtersInWords(q, false)).toBe(
      'Category: Fabric Care, Fine Fragrance; Region: Europe; Fragrance family: Citrus; Years: 2019 to 2022',
    );
  });

  it('says when not verified studies are searched (an admin’s choice), never the default', () => {
    expect(studyFiltersInWords(parsed({ essentials: { verified: false } }).q)).toEqual([
      'Studies: not verified only',
    ]);
    expect(studyFiltersInWords(parsed({ essentials: { verified: true } }).q)).toEqual([]);
  });

  it('writes open-ended ages and every respondent field', () => {
    expect(
      respondentFiltersInWords({ socialClass: ['AB'], bumo: ['Brand X'], startAge: 25, endAge: null }),
    ).toEqual(['Social Class: AB', 'Brand Used Most Often: Brand X', 'Age: from 25']);
    expect(respondentFiltersInWords({ endAge: 40 })).toEqual(['Age: up to 40']);
    expect(respondentFiltersInWords({ startAge: 30, endAge: 30 })).toEqual(['Age: 30']);
    expect(respondentFiltersInWords(undefined)).toEqual([]);
  });
});

describe('conditionsInWords', () => {
  it('writes the results filter’s and the profile’s conditions with their labels', () => {
    expect(
      conditionsInWords([
        { field: 'gender', filter: { type: 'equal', value: 'Female' } },
        { field: 'social_class', filter: { type: 'equal', value: 'C1' } },
        { field: 'age', filter: { type: 'range', from: 18, to: 34 } },
      ]),
    ).toEqual(['Gender: Female', 'Social Class: C1', 'Age: 18 to 34']);
  });
});

describe('metricsInWords', () => {
  const column = (metric: string, aggregation: 'top_2_box' | 'mean', label: string) =>
    ({
      metric,
      label,
      metric_type: 'Performance',
      aggregation,
      aggregation_label: aggregation === 'mean' ? 'M' : 'T2B',
      confidence: false,
      key: `${metric}.${aggregation}`,
    }) satisfies MetricSearchResult['columns'][number];
  const heading = (c: MetricSearchResult['columns'][number]) => `${c.aggregation_label} ${c.label}`;
  const columns = [column('liking', 'top_2_box', 'Overall Liking'), column('fresh', 'mean', 'Fresh')];
  const threshold = { applyThreshold: true, amount: 10, desc: true, type: 'fragrances' as const };

  it('writes each metric with its own threshold and the joint threshold over the others', () => {
    const words = metricsInWords(
      columns,
      heading,
      [
        {
          ...LIKING,
          applyThreshold: true,
          threshold: { ...threshold, amount: 5, desc: false, type: 'percentage' },
        },
        { metric: 'fresh', aggregation: 'mean' },
      ],
      threshold,
      'fragrances',
    );
    expect(words).toEqual({
      metrics: 'T2B Overall Liking (worst 5 % of fragrances), M Fresh',
      threshold: 'best 10 fragrances by M Fresh',
    });
    expect(metricsInWords(columns, heading, [], threshold, 'concepts').threshold).toBe(
      'best 10 concepts by T2B Overall Liking, M Fresh (ranked jointly)',
    );
    expect(metricsInWords(columns, heading, [], null, 'fragrances')).toEqual({
      metrics: 'T2B Overall Liking, M Fresh',
      threshold: null,
    });
  });

  it('writes one product in the singular', () => {
    expect(thresholdInWords({ ...threshold, amount: 1 }, 'concepts')).toBe('best 1 concept');
  });
});
