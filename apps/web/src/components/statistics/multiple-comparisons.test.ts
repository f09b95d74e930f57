import { describe, expect, it } from 'vitest';
import { multipleComparisonOptions, tukeyAllowed } from './multiple-comparisons.ts';

describe('multiple comparisons choices', () => {
  it('offers Tukey HSD only for parametric, two-tailed tests', () => {
    expect(tukeyAllowed(true, ['two_95', 'two_90'])).toBe(true);
    expect(tukeyAllowed(false, ['two_95'])).toBe(false);
    expect(tukeyAllowed(true, ['two_95', 'one_95'])).toBe(false);
    const options = multipleComparisonOptions(false, ['two_95']);
    expect(options.map((option) => option.value)).toEqual([
      'none',
      'holm',
      'benjamini_hochberg',
      'tukey_hsd',
    ]);
    expect(options.find((option) => option.value === 'tukey_hsd')?.disabled).toBe(true);
    expect(multipleComparisonOptions(true, ['two_95']).some((option) => option.disabled)).toBe(false);
  });
});
