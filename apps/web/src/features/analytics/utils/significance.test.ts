import { describe, expect, it } from 'vitest';
import { levelPercent, markText, significanceTags } from './significance.ts';

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
    expect(markText(mark(0.05, 'let', 0.03))).toBe('Two-proportion z-test, p = 0.0300, 95% lower');
    expect(markText(mark(0.01, 'mt', 0.00001))).toBe('Two-proportion z-test, p < 0.0001, 99% higher');
    expect(markText(mark(null, null, 0.6))).toBe('Two-proportion z-test, p = 0.6000, not significant');
  });
});
