import { describe, expect, it } from 'vitest';
import { formatNormScore, ordinal, rankText } from './norm-format.ts';

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
});
