import { describe, expect, it } from 'vitest';
import { rankingSentence } from './ranking-sentence.ts';

describe('rankingSentence', () => {
  it('says best or worst, how many, what and by which score', () => {
    expect(
      rankingSentence({
        kind: 'testers',
        radioDesc: 'best',
        amount: 10,
        radioPercentType: 'percentage',
        type: 'fragrances',
        rdfType: 'rdf',
      }),
    ).toBe('Best 10 % of fragrances by top 2 box liking (Explicit), in every study you may see.');
    expect(
      rankingSentence({
        kind: 'attributes',
        radioDesc: 'worst',
        amount: 3,
        radioPercentType: 'number',
        attributeType: 'usage',
        attribute: 'good_for_every_day_use',
      }),
    ).toBe(
      'Worst 3 fragrances by the top 2 box score of Good for every day use (Usage), in every study you may see.',
    );
  });

  it('lists the narrowing filters, APAC standing for its sub-regions', () => {
    expect(
      rankingSentence({
        kind: 'testers',
        radioDesc: 'worst',
        amount: 5,
        radioPercentType: 'number',
        type: 'concepts',
        rdfType: 'all',
        narrowing: {
          client: ['Acme', 'Beta'],
          region: ['APAC', 'South Asia', 'South East Asia', 'North Asia', 'Europe'],
          businessUnit: [],
          category: [],
          product: ['Shampoo'],
          year: [2020, 2023],
        },
      }),
    ).toBe(
      'Worst 5 concepts by top 2 box liking and mean EEG hedonic score (All); client: Acme, Beta; region: APAC, Europe; product type: Shampoo; years 2020 to 2023.',
    );
  });
});
