import { describe, expect, it } from 'vitest';
import { chartLabel, sideChartLabel } from './labels.ts';

describe('chart labels (document 3 section 9)', () => {
  it('cuts side chart labels over 28 characters to 25 plus an ellipsis', () => {
    expect(sideChartLabel('a'.repeat(28))).toBe('a'.repeat(28));
    expect(sideChartLabel('b'.repeat(29))).toBe(`${'b'.repeat(25)}…`);
  });
  it("cuts other chart labels over 18 characters to 15 plus '...'", () => {
    expect(chartLabel('Fresh Aquatic Ozon')).toBe('Fresh Aquatic Ozon');
    expect(chartLabel('Fresh Aquatic Ozonic')).toBe('Fresh Aquatic O...');
  });
});
