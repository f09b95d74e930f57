import { describe, expect, it } from 'vitest';
import { levelPercent, markColour, markText, marksLegend, significanceTags } from './significance.ts';

const mark = (level: number | null, table: 'mt' | 'let' | null, p: number | null = 0.001) => ({
  level,
  table,
  test: 'two-proportion-z',
  p_value: p,
  n: 150,
});

describe('significance marks', () => {
  it('names and colours the tags the server counted, All first, then higher, then lower', () => {
    const tags = significanceTags([
      { value: 'let-0.05', count: 1 },
      { value: 'all', count: 3 },
      { value: 'mt-0.01', count: 1 },
    ]);
    expect(tags.map((tag) => `${tag.label} (${tag.count})`)).toEqual([
      'All (3)',
      '99% higher (1)',
      '95% higher (0)',
      '90% higher (0)',
      '99% lower (0)',
      '95% lower (1)',
      '90% lower (0)',
    ]);
    expect(tags[1]!.color).toBe('#1b5e20');
    expect(tags[4]!.color).toBe('#8e1b1b');
  });
  it('names the test, p-value and level', () => {
    expect(levelPercent(0.1)).toBe(90);
    expect(markText(mark(0.05, 'let', 0.03))).toBe('Two-proportion z-test, n = 150, p = 0.0300, 95% lower');
    expect(markText(mark(0.01, 'mt', 0.00001))).toBe(
      'Two-proportion z-test, n = 150, p < 0.0001, 99% higher',
    );
    expect(markText(mark(null, null, 0.6))).toBe(
      'Two-proportion z-test, n = 150, p = 0.6000, not significant',
    );
  });
  it('names the clustered test, n, p, adjusted p and the correction', () => {
    const clustered = {
      level: 0.05,
      table: 'mt' as const,
      test: 'cluster-two-sample',
      p_value: 0.012,
      n: 120,
      adjusted_p_value: 0.034,
      correction: 'benjamini_hochberg' as const,
      not_tested: null,
    };
    expect(markText(clustered)).toBe(
      'Two-sample t-test clustered by respondent, n = 120, p = 0.0120, adjusted p = 0.0340 (Benjamini-Hochberg (false discovery rate)), 95% higher',
    );
    expect(markText({ ...clustered, correction: 'none', adjusted_p_value: 0.012 })).toBe(
      'Two-sample t-test clustered by respondent, n = 120, p = 0.0120, No correction, 95% higher',
    );
    expect(
      markText({
        ...clustered,
        level: null,
        table: null,
        n: 9,
        p_value: null,
        not_tested: 'low base: not tested',
      }),
    ).toBe('low base: not tested: n = 9, below 30 answers');
  });
  it('colours by good and bad news and names the correction in the legend', () => {
    expect(markColour('liking', 'bottom_2_box', 'mt')).toBe('#8e1b1b');
    expect(markColour('liking', 'bottom_2_box', 'let')).toBe('#1b5e20');
    expect(markColour('liking', 'top_2_box', 'mt')).toBe('#1b5e20');
    expect(marksLegend('rest', 'benjamini_hochberg')[1]).toBe(
      'Correction: Benjamini-Hochberg (false discovery rate) across every test of this calculation (products × metrics).',
    );
    expect(marksLegend('avg', 'none')[1]).toBe(
      'Correction: No correction; each test is read on its own p-value.',
    );
  });
});
