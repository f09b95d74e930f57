import { describe, expect, it } from 'vitest';
import { higherIsBad, markIsGood } from './significance-marks.ts';

describe('the colour of a significance mark (METRICS.md section 2)', () => {
  it('reads a higher bottom box as bad news and a lower one as good news', () => {
    for (const aggregation of ['bottom_box', 'bottom_2_box']) {
      expect(markIsGood('liking', aggregation, 'mt')).toBe(false);
      expect(markIsGood('liking', aggregation, 'let')).toBe(true);
    }
  });

  it('reads too strong and too weak shares of strength as bad news when higher', () => {
    expect(higherIsBad('strength', 'top_box')).toBe(true);
    expect(higherIsBad('strength', 'bottom_box')).toBe(true);
    expect(higherIsBad('strength', 'just_right')).toBe(false);
    expect(markIsGood('strength', 'just_right', 'mt')).toBe(true);
  });

  it('keeps higher good for means and top boxes of other metrics', () => {
    expect(markIsGood('liking', 'top_2_box', 'mt')).toBe(true);
    expect(markIsGood('liking', 'mean', 'let')).toBe(false);
    expect(higherIsBad('liking', 'top_box')).toBe(false);
  });
});
