import { describe, expect, it } from 'vitest';
import {
  aggregationAbbreviation,
  baseText,
  chartKindOf,
  formatColumnValue,
  formatMetricValue,
  histogramBins,
  histogramLabels,
  orderChartMetrics,
  shortenLabel,
  summaryBars,
} from './metrics-format.ts';

describe('aggregationAbbreviation', () => {
  it.each([
    ['top_box', 'TB'],
    ['top_2_box', 'T2B'],
    ['mean', 'M'],
    ['bottom_box', 'BB'],
    ['bottom_2_box', 'B2B'],
    ['just_right', 'JAR/N'],
    ['variance', 'VAR'],
    ['hi_yes', 'HiY'],
    ['hi_no', 'HiN'],
    ['irt_yes', 'YES'],
    ['irt_no', 'NO'],
  ])('%s reads %s', (aggregation, label) => {
    expect(aggregationAbbreviation(aggregation)).toBe(label);
  });
});

describe('formatMetricValue', () => {
  it('shows means and variances with 2 decimals and shares as rounded percents', () => {
    expect(formatMetricValue('mean', 3.456)).toBe('3.46');
    expect(formatMetricValue('variance', 0.5)).toBe('0.50');
    expect(formatMetricValue('top_2_box', 0.6672)).toBe('67%');
    expect(formatMetricValue('top_box', 0.005)).toBe('1%');
  });
  it('shows a dash when there is no value', () => {
    expect(formatMetricValue('mean', null)).toBe('-');
    expect(formatMetricValue('top_box', undefined)).toBe('-');
    expect(formatMetricValue('top_box', Number.NaN)).toBe('-');
  });
});

describe('baseText', () => {
  it('flags a base below 30', () => {
    expect(baseText(150)).toBe('Base n = 150');
    expect(baseText(29)).toBe('Base n = 29 (low base, below 30)');
    expect(baseText(undefined)).toBe('Base n = 0 (low base, below 30)');
  });
});

describe('orderChartMetrics', () => {
  it('orders liking, purchase_intention, strength, then the others in column order', () => {
    const columns = [
      { metric: 'long_lasting', aggregation: 'top_2_box' },
      { metric: 'strength', aggregation: 'mean' },
      { metric: 'fresh', aggregation: 'top_2_box' },
      { metric: 'purchase_intention', aggregation: 'top_box' },
      { metric: 'good_for_every_day_use', aggregation: 'mean' },
      { metric: 'liking', aggregation: 'top_2_box' },
      { metric: 'liking', aggregation: 'mean' },
      { metric: 'attention', aggregation: 'eeg_mean' },
    ];
    expect(orderChartMetrics(columns)).toEqual([
      { metric: 'liking', kind: 'bars' },
      { metric: 'purchase_intention', kind: 'bars' },
      { metric: 'strength', kind: 'bars' },
      { metric: 'long_lasting', kind: 'bars' },
      { metric: 'good_for_every_day_use', kind: 'bars' },
      { metric: 'attention', kind: 'histogram' },
    ]);
  });
  it('charts no metric whose columns are all implicit aggregations, nor plain attribute names', () => {
    const columns = [
      { metric: 'liking_implicit', aggregation: 'irt_yes' },
      { metric: 'liking_implicit', aggregation: 'hi_no' },
      { metric: 'fresh', aggregation: 'top_2_box' },
    ];
    expect(orderChartMetrics(columns)).toEqual([]);
    expect(chartKindOf('liking_implicit', columns)).toBeNull();
    expect(chartKindOf('unknown', columns)).toBeNull();
  });
  it('gives every genisys metric a histogram', () => {
    for (const metric of ['hfd_hedonic', 'addiction', 'cogproc', 'attention', 'relaxation', 'energizing'])
      expect(chartKindOf(metric, [{ metric, aggregation: 'eeg_mean' }])).toBe('histogram');
  });
});

describe('summaryBars', () => {
  const summary = {
    top_2_box: 0.6672,
    just_right: 0.2371,
    bottom_2_box: 0.0957,
    mean: 3.6,
    'top_2_box.count': 86,
  };
  it('shows Top 2 Box, Neutral and Bottom 2 Box in percent', () => {
    expect(summaryBars('liking', summary)).toEqual([
      { aggregation: 'top_2_box', label: 'Top 2 Box', percent: 66.7, count: 86 },
      { aggregation: 'just_right', label: 'Neutral', percent: 23.7, count: null },
      { aggregation: 'bottom_2_box', label: 'Bottom 2 Box', percent: 9.6, count: null },
    ]);
  });
  it('reads strength as Strong, Just right and Weak', () => {
    expect(summaryBars('strength', summary).map((bar) => bar.label)).toEqual([
      'Strong',
      'Just right',
      'Weak',
    ]);
  });
  it('leaves out boxes without a value (no neutral on binary scales)', () => {
    expect(
      summaryBars('feminine_scent', { top_2_box: 0.4, just_right: null, bottom_2_box: 0.6 }),
    ).toHaveLength(2);
    expect(summaryBars('liking', undefined)).toEqual([]);
  });
});

describe('histogramLabels', () => {
  it('shows two decimals when they tell the edges apart', () => {
    expect(histogramLabels(histogramBins([0, 1, 2, 3, 4, 5, 6, 7, 8]))).toEqual([
      '0.00–1.00',
      '1.00–2.00',
      '2.00–3.00',
      '3.00–4.00',
      '4.00–5.00',
      '5.00–6.00',
      '6.00–7.00',
      '7.00–8.00',
    ]);
  });
  it('adds decimals when values are close, so no label repeats or reads "0.51–0.51"', () => {
    const labels = histogramLabels(histogramBins([0.512, 0.5135, 0.514, 0.516, 0.5185]));
    expect(labels).toHaveLength(8);
    expect(new Set(labels).size).toBe(8);
    for (const label of labels) {
      const [from, to] = label.split('–');
      expect(from).not.toBe(to);
    }
    expect(labels[0]).toBe('0.5120–0.5128');
  });
  it('names a single value once', () => {
    expect(histogramLabels(histogramBins([2.5, 2.5]))).toEqual(['2.50']);
  });
});

describe('histogramBins', () => {
  it('splits the range into 8 equal bins, the last one closed', () => {
    const bins = histogramBins([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(bins).toHaveLength(8);
    expect(bins[0]).toEqual({ from: 0, to: 1, count: 1 });
    expect(bins[7]).toEqual({ from: 7, to: 8, count: 2 });
    expect(bins.reduce((sum, bin) => sum + bin.count, 0)).toBe(9);
  });
  it('skips missing values', () => {
    expect(histogramBins([null, undefined, Number.NaN])).toEqual([]);
    expect(histogramBins([1, null, 3]).reduce((sum, bin) => sum + bin.count, 0)).toBe(2);
  });
  it('puts a single distinct value in one bin', () => {
    expect(histogramBins([2.5, 2.5, 2.5])).toEqual([{ from: 2.5, to: 2.5, count: 3 }]);
  });
});

describe('shortenLabel', () => {
  it('cuts side labels over 28 characters to 25 plus an ellipsis and others over 18 to 15 plus ...', () => {
    expect(shortenLabel('a'.repeat(28), true)).toBe('a'.repeat(28));
    expect(shortenLabel('a'.repeat(29), true)).toBe(`${'a'.repeat(25)}…`);
    expect(shortenLabel('a'.repeat(18))).toBe('a'.repeat(18));
    expect(shortenLabel('a'.repeat(19))).toBe(`${'a'.repeat(15)}...`);
  });
});

describe('yes/no (CATA) columns', () => {
  it('read as shares whatever the aggregation, never a mean', () => {
    expect(formatColumnValue({ aggregation: 'mean', yes_no: true }, 0.425)).toBe('43%');
    expect(formatColumnValue({ aggregation: 'mean' }, 3.7)).toBe('3.70');
    expect(formatColumnValue({ aggregation: 'bottom_2_box', yes_no: true }, null)).toBe('-');
  });
  it('chart their shares selected and not selected', () => {
    expect(
      summaryBars('feminine_scent', {
        selected: 0.4251,
        'selected.count': 85,
        not_selected: 0.5749,
        'not_selected.count': 115,
        'answers.count': 200,
      }),
    ).toEqual([
      { aggregation: 'selected', label: 'Selected', percent: 42.5, count: 85 },
      { aggregation: 'not_selected', label: 'Not selected', percent: 57.5, count: 115 },
    ]);
  });
});
