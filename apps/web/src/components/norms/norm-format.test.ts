import { describe, expect, it } from 'vitest';
import type { NormResponse } from '@accord/contracts';
import { formatNormScore, normSentence, ordinal, rankText } from './norm-format.ts';

describe('norm formats', () => {
  it('writes ordinals', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 62, 100].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '62nd',
      '100th',
    ]);
  });
  it('writes ranks as percentiles and scores as the aggregation reads', () => {
    expect(rankText(0.615)).toBe('62nd percentile');
    const share = { aggregation: { value: 'top_2_box' as const, label: 'Top 2 box', share: true } };
    const mean = { aggregation: { value: 'mean' as const, label: 'Mean', share: false } };
    expect(formatNormScore(share, 0.6234)).toBe('62.3%');
    expect(formatNormScore(mean, 3.456)).toBe('3.46');
    expect(formatNormScore(mean, null)).toBe('-');
  });

  it('opens with one sentence a researcher reads, and none when the norm is not shown', () => {
    const norm = {
      status: 'available',
      reason: null,
      base: { kind: 'fragrance', category: 'Fabric Care' },
      metric: { name: 'liking', label: 'Liking', kind: 'hedonic' },
      aggregation: { value: 'top_2_box', label: 'Top 2 box', share: true },
      products: 124,
      studies: 38,
      clients: 12,
      mean: 0.53,
      percentiles: { p10: 0.3, p25: 0.45, p50: 0.54, p75: 0.62, p90: 0.7 },
      histogram: [],
      lines: [],
    } as unknown as NormResponse;
    expect(normSentence(norm)).toBe(
      'Across 124 fragrances in 38 studies of 12 clients, the median liking top 2 box is 54.0%; the middle half scores 45.0% to 62.0%.',
    );
    expect(normSentence({ ...norm, products: null, clients: 1 })).toBe(
      'Across 38 studies of 1 client, the median liking top 2 box is 54.0%; the middle half scores 45.0% to 62.0%.',
    );
    expect(normSentence({ ...norm, status: 'withheld', percentiles: null })).toBeNull();
  });
});
