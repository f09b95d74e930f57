import { Group, Paper, Select, Text, Title } from '@mantine/core';
import type { MetricSearchPage } from '@accord/contracts';
import { useId, useMemo, useState } from 'react';
import { LOW_BASE } from '@accord/contracts';
import { useMediaQuery } from '@mantine/hooks';
import { EChart, encodeHTML } from '../../../components/charts/chart.tsx';
import { barColour, barLabel, compactBarLabel, isShareColumn, rankedBars } from '../utils/ranked-chart.ts';

type Row = MetricSearchPage['rows'][number];
type Column = MetricSearchPage['columns'][number];

const BAR_HEIGHT = 26;

const columnLabel = (column: Column) => `${column.aggregation_label} ${column.label}`;

/**
 * The ranked bar chart of the metrics tab: the rows of the page shown, in the table's order, by the
 * metric chosen, each bar with its value, mark, base n and low-base flag; with a selection, the
 * selected rows stand out and the others fade.
 */
export function RankedChart({
  rows,
  columns,
  isSelected,
  anySelected,
  order,
  rowsText,
}: {
  rows: readonly Row[];
  columns: readonly Column[];
  isSelected: (row: Row) => boolean;
  anySelected: boolean;
  /** The table's order in words. */
  order: string;
  /** Which rows ("fragrances 1-50 of 120"). */
  rowsText: string;
}) {
  const titleId = useId();
  const [chosen, setChosen] = useState<string | null>(null);
  // A phone keeps room for the bars: shorter names and labels.
  const narrow = useMediaQuery('(max-width: 48em)') ?? false;
  const column = columns.find((entry) => entry.key === chosen) ?? columns[0];
  const bars = useMemo(
    () => (column ? rankedBars(rows, column, isSelected) : []),
    [rows, column, isSelected],
  );
  if (!column) return null;
  const drawn = bars.filter((bar) => bar.value !== null);
  const missing = bars.length - drawn.length;
  const share = isShareColumn(column);
  // A name the page shows twice (the same fragrance in two studies) carries its CMI #.
  const seen = new Set<string>();
  const repeated = new Set(drawn.map((bar) => bar.name).filter((name) => seen.has(name) || !seen.add(name)));
  const option = {
    animation: false,
    aria: { enabled: false },
    grid: { left: 8, right: narrow ? 96 : 190, top: 8, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'item',
      formatter: (params: { dataIndex: number }) => {
        const bar = drawn[params.dataIndex]!;
        return `${encodeHTML(bar.name)}: ${encodeHTML(barLabel(bar))}`;
      },
    },
    xAxis: {
      type: 'value',
      min: 0,
      ...(share ? { max: 100 } : { max: 5 }),
      axisLabel: { hideOverlap: true, ...(share ? { formatter: '{value} %' } : {}) },
      splitNumber: narrow ? 2 : 5,
    },
    yAxis: {
      type: 'category',
      inverse: true,
      data: drawn.map((bar) => (repeated.has(bar.name) ? `${bar.name} (${bar.cmi})` : bar.name)),
      axisLabel: { width: narrow ? 90 : 230, overflow: 'truncate', fontSize: narrow ? 10 : 12 },
    },
    series: [
      {
        type: 'bar',
        barMaxWidth: 18,
        data: drawn.map((bar) => ({
          value: bar.value,
          itemStyle: {
            color: barColour(bar),
            opacity: anySelected && !bar.selected ? 0.3 : 1,
            borderRadius: [0, 3, 3, 0],
          },
          // The label stays legible on a faded bar.
          label: { formatter: narrow ? compactBarLabel(bar) : barLabel(bar), opacity: 1 },
        })),
        label: { show: true, position: 'right', fontSize: narrow ? 10 : 11, color: '#212529' },
      },
    ],
  };
  return (
    <Paper withBorder radius="md" p="sm" component="section" aria-labelledby={titleId}>
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm" mb="xs">
        <div>
          <Title order={3} size="h6" id={titleId}>
            Ranked: {columnLabel(column)}
          </Title>
          <Text size="xs" c="dimmed">
            {rowsText} · {order}
            {anySelected ? ' · selected rows in full colour' : ''}
          </Text>
        </div>
        <Select
          label="Chart metric"
          size="xs"
          w={{ base: '100%', xs: 260 }}
          data={columns.map((entry) => ({ value: entry.key, label: columnLabel(entry) }))}
          value={column.key}
          onChange={setChosen}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
      </Group>
      {drawn.length === 0 ? (
        <Text size="sm" c="dimmed" role="status">
          No values of this metric on this page.
        </Text>
      ) : (
        <div
          role="img"
          aria-label={`Bar chart of ${columnLabel(column)}: ${drawn.map((bar) => `${bar.name} ${barLabel(bar)}`).join('; ')}`}
          data-testid="ranked-chart"
        >
          <EChart
            option={option}
            notMerge
            style={{ height: drawn.length * BAR_HEIGHT + 48, width: '100%' }}
          />
        </div>
      )}
      <Text size="xs" c="dimmed" mt={4}>
        Green bar: a significant difference that is good news, red: bad news (a higher bottom box is bad
        news), ▲ higher, ▼ lower, at the level shown; orange bar and *: low base (below {LOW_BASE} answers);
        n: base of each bar.
        {missing > 0 ? ` ${missing} without a value have no bar.` : ''}
      </Text>
    </Paper>
  );
}
