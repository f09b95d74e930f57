import type { ProfileRow } from '@accord/contracts';
import { describe, expect, it } from 'vitest';
import {
  baseText,
  filterProfileRows,
  formatProfileValue,
  hasBinaryScale,
  isHighlighted,
  parseHighlighted,
  headerValue,
  metricLabel,
  profileColumns,
  splitProfileRows,
  timeSeriesMetrics,
} from './profile-format.ts';

function row(metric: string, type: string, overrides: Partial<ProfileRow> = {}): ProfileRow {
  return {
    metric,
    metric_name: metric.replace(/_/g, ' '),
    metric_type: type,
    mean: 3.456,
    top_box: 0.125,
    top_2_box: 0.5,
    just_right: 0.3,
    bottom_box: 0.05,
    bottom_2_box: 0.2,
    selected: null,
    is_binary_scale: false,
    n: 150,
    ...overrides,
  };
}

describe('formatProfileValue', () => {
  it.each([
    [4.156666, 'mean', '4.16'],
    [3, 'mean', '3.00'],
    [0.4266, 'top_box', '43%'],
    [0.125, 'top_2_box', '13%'],
    [0.005, 'just_right', '1%'],
    [0, 'bottom_box', '0%'],
    [1, 'bottom_2_box', '100%'],
    [null, 'just_right', '-'],
    [undefined, 'mean', '-'],
    [Number.NaN, 'mean', '-'],
    ['N/A', 'mean', 'N/A'],
    ['N/A', 'top_box', 'N/A'],
  ] as const)('%s as %s shows %s', (value, key, expected) => {
    expect(formatProfileValue(value, key)).toBe(expected);
  });
});

describe('profileColumns', () => {
  const labels = (kind: Parameters<typeof profileColumns>[0]) => profileColumns(kind).map((c) => c.label);

  it('heads the strength boxes Too strong, Strong, Just right, Too weak, Weak', () => {
    const columns = profileColumns('strength');
    const byKey = Object.fromEntries(columns.map((column) => [column.key, column.label]));
    expect(byKey).toMatchObject({
      top_box: 'Too strong',
      top_2_box: 'Strong',
      bottom_box: 'Too weak',
      bottom_2_box: 'Weak',
    });
    expect(labels('strength')).not.toContain('Neutral');
  });

  it('heads just_right Neutral in the other tables, in the order of the specification', () => {
    for (const kind of ['performance', 'attributes', 'other'] as const) {
      expect(profileColumns(kind).map((column) => column.key)).toEqual([
        'metric_type',
        'metric_name',
        'mean',
        'top_box',
        'top_2_box',
        'just_right',
        'bottom_box',
        'bottom_2_box',
      ]);
      expect(labels(kind)).toEqual([
        'Type',
        'Metric',
        'Mean',
        'Top Box',
        'Top 2 Box',
        'Neutral',
        'Bottom Box',
        'Bottom 2 Box',
      ]);
    }
  });

  it('gives the Genisys table means only', () => {
    expect(labels('genisys')).toEqual(['Type', 'Metric', 'Mean']);
  });
});

describe('rows', () => {
  const rows = [
    row('liking', 'Performance'),
    row('purchase_intention', 'Performance'),
    row('strength', 'Performance'),
    row('fresh', 'Attribute'),
    row('feminine', 'Attribute', { is_binary_scale: true, just_right: null }),
    row('hfd_hedonic', 'EEG', { top_box: null }),
    row('irt', 'Implicit'),
  ];

  it('splits performance, strength, attributes, Genisys and other rows', () => {
    const tables = splitProfileRows(rows);
    expect(tables.performance.map((r) => r.metric)).toEqual(['liking', 'purchase_intention']);
    expect(tables.strength.map((r) => r.metric)).toEqual(['strength']);
    expect(tables.attributes.map((r) => r.metric)).toEqual(['fresh', 'feminine']);
    expect(tables.genisys.map((r) => r.metric)).toEqual(['hfd_hedonic']);
    expect(tables.other.map((r) => r.metric)).toEqual(['irt']);
  });

  it('filters by name, key or type, ignoring case and blanks', () => {
    expect(filterProfileRows(rows, '  ')).toHaveLength(rows.length);
    expect(filterProfileRows(rows, 'PURCHASE').map((r) => r.metric)).toEqual(['purchase_intention']);
    expect(filterProfileRows(rows, 'eeg').map((r) => r.metric)).toEqual(['hfd_hedonic']);
    expect(filterProfileRows(rows, 'nothing like it')).toEqual([]);
  });

  it('marks binary scales with a star and tells when the footnote is needed', () => {
    expect(metricLabel(rows[4]!)).toBe('feminine*');
    expect(metricLabel(rows[3]!)).toBe('fresh');
    expect(hasBinaryScale(rows)).toBe(true);
    expect(hasBinaryScale(rows.slice(0, 3))).toBe(false);
  });

  it('gives every row its base', () => {
    expect(baseText(rows[0]!)).toBe('Base: n = 150');
    expect(baseText(row('strength', 'Performance', { mean: 'N/A', n: 0 }))).toBe(
      'No answers for this metric (n = 0)',
    );
  });
});

describe('headerValue', () => {
  it.each([
    [null, '-'],
    [undefined, '-'],
    ['', '-'],
    ['nan', '-'],
    ['NaN', '-'],
    [' Fine Fragrance ', 'Fine Fragrance'],
  ])('%j shows %j', (value, expected) => {
    expect(headerValue(value)).toBe(expected);
  });
});

describe('timeSeriesMetrics', () => {
  it('lists the metrics with points only', () => {
    expect(timeSeriesMetrics({})).toEqual([]);
    expect(timeSeriesMetrics({ attention: { '0': 0.4, '1': 0.5 }, relaxation: {} })).toEqual(['attention']);
  });
});

describe('parseHighlighted', () => {
  it.each([
    [null, []],
    ['', []],
    ['not json', []],
    ['{"a":1}', []],
    ['["fresh", 3, "Overall Liking"]', ['fresh', 'overall liking']],
  ])('%j highlights %j', (raw, expected) => {
    expect([...parseHighlighted(raw)]).toEqual(expected);
  });

  it('matches a row by its metric key or name, ignoring case', () => {
    const highlighted = parseHighlighted('["FRESH", "overall liking"]');
    expect(isHighlighted(row('fresh', 'Attribute'), highlighted)).toBe(true);
    expect(isHighlighted(row('liking', 'Performance', { metric_name: 'Overall Liking' }), highlighted)).toBe(
      true,
    );
    expect(isHighlighted(row('clean', 'Attribute'), highlighted)).toBe(false);
  });
});
