import { MetricSearchRequest, filtersInWords } from '@accord/contracts';
import { describe, expect, it } from 'vitest';
import { criteriaInWords } from './criteria-words.ts';
import { defaultFilters, type AnalyticsFilters } from './filters.ts';

const NAMES: Record<string, string> = { liking: 'Overall Liking', hfd_hedonic: 'Hedonic (EEG)' };
const name = (metric: string) => NAMES[metric] ?? metric;
const YEARS = { min: 2015, max: 2026 };

function filtersWith(change: (filters: AnalyticsFilters) => void): AnalyticsFilters {
  const filters = defaultFilters();
  filters.metrics.metricsList[0]!.metric = 'liking';
  filters.metrics.metricsList[0]!.aggregation = 'mean';
  change(filters);
  return filters;
}

describe('criteriaInWords', () => {
  it('names the metrics by their names and says "No filters" when nothing narrows the search', () => {
    const words = criteriaInWords(
      filtersWith(() => {}),
      YEARS,
      name,
    );
    expect(words).toEqual({ metrics: 'Fragrances: M Overall Liking', filters: 'No filters' });
  });

  it('names region, category, gender and age as the workbooks do', () => {
    const filters = filtersWith((f) => {
      f.essentials.region = ['Europe'];
      f.essentials.category = ['Fabric Care'];
      f.demographics.gender = ['Female'];
      f.demographics.startAge = 25;
      f.demographics.endAge = 44;
    });
    const words = criteriaInWords(filters, YEARS, name);
    expect(words.filters).toBe('Region: Europe; Category: Fabric Care; Gender: Female; Age: 25 to 44');
  });

  it('agrees with the header of the downloaded workbook for the same request', () => {
    const filters = filtersWith((f) => {
      f.essentials.client = ['Acme'];
      f.essentials.startYear = 2018;
      f.essentials.endYear = 2021;
      f.fragranceDetails.family = ['Floral'];
      f.demographics.ethnicity = ['Asian'];
    });
    const parsed = MetricSearchRequest.parse({
      q: {
        essentials: { client: ['Acme'], startYear: 2018, endYear: 2021 },
        fragranceDetails: { family: ['Floral'] },
        demographics: { ethnicity: ['Asian'] },
        metrics: { metricsList: [{ metric: 'liking', aggregation: 'mean' }] },
      },
    });
    expect(criteriaInWords(filters, YEARS, name).filters).toBe(filtersInWords(parsed.q));
  });

  it('leaves out the full year and age ranges and names a study type', () => {
    const filters = filtersWith((f) => {
      f.essentials.startYear = 2015;
      f.essentials.endYear = 2026;
      f.demographics.startAge = 18;
      f.demographics.endAge = 64;
      f.metrics.rdfType = 'eeg';
      f.metrics.metricsList[0]!.metric = 'hfd_hedonic';
    });
    expect(criteriaInWords(filters, YEARS, name)).toEqual({
      metrics: 'Fragrances: M Hedonic (EEG)',
      filters: 'Study type: EEG',
    });
  });
});
