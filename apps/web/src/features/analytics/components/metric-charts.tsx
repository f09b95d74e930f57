import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { MetricSearchPage } from '@accord/contracts';
import { EChart } from '../../../components/charts/chart.tsx';
import { memo } from 'react';
import {
  histogramLabels,
  type HistogramBin,
  orderChartMetrics,
  shortenLabel,
  summaryBars,
  IMPLICIT_AGGREGATIONS,
} from '../utils/metrics-format.ts';

const PLUM = '#7d4aa8';

function HorizontalBars({ bars }: { bars: ReturnType<typeof summaryBars> }) {
  const rows = [...bars].reverse();
  const option = {
    animation: false,
    grid: { left: 8, right: 56, top: 8, bottom: 8, containLabel: true },
    tooltip: { trigger: 'item', formatter: '{b}: {c} %' },
    xAxis: { type: 'value', max: 100, axisLabel: { formatter: '{value} %' }, splitNumber: 4 },
    yAxis: {
      type: 'category',
      data: rows.map((row) => shortenLabel(row.label, true)),
      axisLabel: { width: 120, overflow: 'truncate' },
    },
    series: [
      {
        type: 'bar',
        data: rows.map((row) => row.percent),
        itemStyle: { color: PLUM, borderRadius: [0, 3, 3, 0] },
        barMaxWidth: 18,
        label: { show: true, position: 'right', formatter: '{c} %' },
      },
    ],
  };
  return <EChart option={option} notMerge style={{ height: 150, width: '100%' }} />;
}

function Histogram({ bins, labels, axisName }: { bins: HistogramBin[]; labels: string[]; axisName: string }) {
  const option = {
    animation: false,
    grid: { left: 28, right: 8, top: 16, bottom: 8, containLabel: true },
    tooltip: { trigger: 'item', formatter: `{b}: {c}` },
    xAxis: {
      type: 'category',
      data: labels,
      axisLabel: { rotate: 30, fontSize: 10 },
    },
    yAxis: {
      type: 'value',
      minInterval: 1,
      name: axisName,
      nameLocation: 'middle',
      nameGap: 28,
      nameTextStyle: { fontSize: 11 },
    },
    series: [
      { type: 'bar', data: bins.map((bin) => bin.count), itemStyle: { color: PLUM }, barCategoryGap: '8%' },
    ],
  };
  return <EChart option={option} notMerge style={{ height: 200, width: '100%' }} />;
}

/**
 * Charts of the results (document 3 section 2.1): horizontal bars of the pooled boxes for liking,
 * purchase_intention, strength and metrics named with an underscore; 8-bin histograms of the
 * products' values for the EEG metrics; none for implicit aggregations. The numbers are in the
 * table too, so each chart carries a text summary for assistive technology. The server sends the
 * pooled summary and the histogram bins of every row with the first page.
 */
export const MetricCharts = memo(function MetricCharts({
  result,
}: {
  result: Pick<MetricSearchPage, 'type' | 'columns' | 'summary' | 'histograms' | 'total'>;
}) {
  const charts = orderChartMetrics(result.columns);
  if (charts.length === 0 || result.total === 0) return null;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid="metric-charts">
      {charts.map(({ metric, kind }) => {
        const column = result.columns.find(
          (entry) => entry.metric === metric && !IMPLICIT_AGGREGATIONS.has(entry.aggregation),
        )!;
        const label = column.label;
        if (kind === 'histogram') {
          const bins = result.histograms[column.key] ?? [];
          const counted = bins.reduce((sum, bin) => sum + bin.count, 0);
          const labels = histogramLabels(bins);
          const axisName = `Number of ${result.type}`;
          return (
            <Paper key={metric} withBorder radius="md" p="sm" component="figure" m={0}>
              <Stack gap={4}>
                <Title order={4} size="h6" component="figcaption">
                  {label} ({column.aggregation_label}) distribution
                </Title>
                {bins.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    No data
                  </Text>
                ) : (
                  <>
                    <Text size="xs" c="dimmed">
                      {counted} {result.type}, {labels[0]!.split('–')[0]} to{' '}
                      {labels.at(-1)!.split('–').at(-1)}
                    </Text>
                    <div aria-hidden="true">
                      <Histogram bins={bins} labels={labels} axisName={axisName} />
                    </div>
                  </>
                )}
              </Stack>
            </Paper>
          );
        }
        const bars = summaryBars(metric, result.summary[metric] ?? undefined);
        return (
          <Paper key={metric} withBorder radius="md" p="sm" component="figure" m={0}>
            <Stack gap={4}>
              <Title order={4} size="h6" component="figcaption">
                {label}
              </Title>
              {bars.length === 0 ? (
                <Text size="sm" c="dimmed">
                  No data
                </Text>
              ) : (
                <>
                  <Text size="xs" c="dimmed">
                    {bars.map((bar) => `${bar.label} ${bar.percent} %`).join(' · ')}
                  </Text>
                  <div aria-hidden="true">
                    <HorizontalBars bars={bars} />
                  </div>
                </>
              )}
            </Stack>
          </Paper>
        );
      })}
    </SimpleGrid>
  );
});
