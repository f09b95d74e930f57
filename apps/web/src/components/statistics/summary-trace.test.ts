import { describe, expect, it } from 'vitest';
import { summaryCellTrace } from './summary-trace.ts';

const headers = ['Question', 'Statistic', 'A: 101', 'B: 102'];
const context = { productIds: [11, null], metrics: new Set(['liking']) };

describe('summary cells traced', () => {
  it('traces a number of a mapped question under its column’s product', () => {
    expect(
      summaryCellTrace(['liking: Overall liking (Q1)', 'Top 2 box', 0.62, 0.5], 2, headers, context),
    ).toEqual({
      request: { products: [11], metric: 'liking', aggregation: 'top_2_box' },
      label: 'A: 101, liking: Overall liking (Q1), Top 2 box',
    });
    expect(
      summaryCellTrace(['liking: Overall liking (Q1)', 'Base (n)', 80, 70], 2, headers, context)?.request
        .aggregation,
    ).toBe('mean');
    expect(
      summaryCellTrace(['liking: Overall liking (Q1)', 'Too weak', 0.1, 0.2], 2, headers, context)?.request
        .aggregation,
    ).toBe('bottom_box');
  });

  it('leaves other cells alone', () => {
    const row = ['liking: Overall liking (Q1)', 'Mean', 3.9, 3.1];
    expect(summaryCellTrace(row, 1, headers, context)).toBeNull();
    expect(summaryCellTrace(row, 3, headers, context)).toBeNull();
    expect(summaryCellTrace(['Q7: Other question', 'Mean', 3.9, 3.1], 2, headers, context)).toBeNull();
    expect(
      summaryCellTrace(['liking: Overall liking (Q1)', 'Strong', 0.3, 0.2], 2, headers, context),
    ).toBeNull();
    expect(
      summaryCellTrace(['liking: Overall liking (Q1)', 'Significance 95%', 'B', ''], 2, headers, context),
    ).toBeNull();
    expect(
      summaryCellTrace(['liking: Overall liking (Q1)', 'Mean', null, 3.1], 2, headers, context),
    ).toBeNull();
  });
});
