import type { MetricSearchPage } from '@accord/contracts';
import { describe, expect, it } from 'vitest';
import { barColour, barLabel, compactBarLabel, rankedBars, RANKED_COLOURS } from './ranked-chart.ts';

type Row = MetricSearchPage['rows'][number];
type Column = MetricSearchPage['columns'][number];

const column = { key: 'liking.top_2_box', metric: 'liking', aggregation: 'top_2_box' } as Column;
const mean = { key: 'liking.mean', metric: 'liking', aggregation: 'mean' } as Column;

function row(id: number, values: Record<string, number | null>, extra: Partial<Row> = {}): Row {
  return {
    id,
    name: `Fragrance ${id}`,
    prod: `P${id}`,
    values,
    bases: { 'liking.top_2_box': 40 + id, 'liking.mean': 40 + id },
    low_base: [],
    marks: {},
    selected: false,
    ...extra,
  } as unknown as Row;
}

describe('rankedBars', () => {
  it('keeps the page order and values the bars as the table writes them', () => {
    const rows = [
      row(2, { 'liking.top_2_box': 0.456, 'liking.mean': 3.914 }),
      row(1, { 'liking.top_2_box': null }),
    ];
    const bars = rankedBars(rows, column, () => false);
    expect(bars.map((bar) => [bar.id, bar.value, bar.text])).toEqual([
      [2, 46, '46%'],
      [1, null, '-'],
    ]);
    expect(rankedBars(rows, mean, () => false)[0]!).toMatchObject({ value: 3.91, text: '3.91' });
  });

  it('carries marks, low bases and the selection into colour and label', () => {
    const rows = [
      row(
        1,
        { 'liking.top_2_box': 0.7 },
        {
          marks: {
            'liking.top_2_box': { level: 0.05, table: 'mt', test: 'one-sample-z', p_value: 0.02, n: 41 },
          },
          selected: true,
        },
      ),
      row(2, { 'liking.top_2_box': 0.2 }, { low_base: ['liking.top_2_box'] }),
      row(
        3,
        { 'liking.top_2_box': 0.3 },
        {
          marks: {
            'liking.top_2_box': { level: null, table: null, test: 'one-sample-z', p_value: 0.4, n: 43 },
          },
        },
      ),
    ];
    const bars = rankedBars(rows, column, (r) => r.selected);
    expect(bars.map(barLabel)).toEqual(['70% ▲ 95% · n 41', '20%* · n 42 low base', '30% · n 43']);
    expect(bars.map(barColour)).toEqual([RANKED_COLOURS.good, RANKED_COLOURS.lowBase, RANKED_COLOURS.plain]);
    expect(bars.map(compactBarLabel)).toEqual(['70% ▲95 n41', '20%* n42', '30% n43']);
    expect(bars.map((bar) => bar.selected)).toEqual([true, false, false]);
  });
});
