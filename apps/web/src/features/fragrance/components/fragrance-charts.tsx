import type { FragranceResponse, FragranceTestMetric } from '@accord/contracts';
import { Text, VisuallyHidden } from '@mantine/core';
import { EChart } from '../../../components/charts/chart.tsx';
import { memo } from 'react';
import { formatMean, groupMeans, METRIC_LABELS } from '../utils/fragrance-format.ts';

const ACCENT = '#7d4aa8';
const MUTED = '#868e96';
/** The harmonised scale's ends: every mean lies between them. */
const SCALE = { min: 1, max: 5 };

/** The values a chart draws, read out for assistive technology (the chart itself is hidden from it). */
function ChartValues({ caption, rows }: { caption: string; rows: [string, string][] }) {
  return (
    <VisuallyHidden>
      <table>
        <caption>{caption}</caption>
        <tbody>
          {rows.map(([key, value]) => (
            <tr key={key}>
              <th scope="row">{key}</th>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </VisuallyHidden>
  );
}

/** What a chart says when no verified test answered the metric. */
function NoAnswers({ metric }: { metric: FragranceTestMetric }) {
  return (
    <Text size="sm" c="dimmed">
      No verified test has answers for {METRIC_LABELS[metric].toLowerCase()}.
    </Text>
  );
}

/**
 * A metric's mean by market (lead country of the studies, pooled answers), with the number of tests
 * behind each bar and the pooled estimate as a line.
 */
export const MarketChart = memo(function MarketChart({
  data,
  metric,
}: {
  data: FragranceResponse;
  metric: FragranceTestMetric;
}) {
  const groups = data.by_market.filter((group) => group.scores[metric]);
  if (groups.length === 0) return <NoAnswers metric={metric} />;
  const means = groupMeans(groups, metric);
  const pooled = data.pooled.find((entry) => entry.metric === metric)?.estimate ?? null;
  const option = {
    animation: false,
    grid: { left: 8, right: 48, top: 32, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'item',
      formatter: (params: { dataIndex: number }) => {
        const group = groups[params.dataIndex]!;
        const score = group.scores[metric]!;
        return `${group.key}: ${formatMean(score.mean)} (${group.tests} ${group.tests === 1 ? 'test' : 'tests'}, n = ${score.n})`;
      },
    },
    xAxis: {
      type: 'category',
      data: groups.map((group) => group.key),
      axisLabel: { interval: 0, rotate: groups.length > 4 ? 30 : 0 },
    },
    yAxis: {
      type: 'value',
      min: SCALE.min,
      max: SCALE.max,
      name: 'Mean (1-5)',
      nameTextStyle: { align: 'left' },
    },
    series: [
      {
        type: 'bar',
        data: means,
        itemStyle: { color: ACCENT, borderRadius: [3, 3, 0, 0] },
        barMaxWidth: 36,
        label: {
          show: true,
          position: 'top',
          formatter: (params: { value: number }) => formatMean(params.value),
        },
        ...(pooled !== null
          ? {
              markLine: {
                symbol: 'none',
                silent: true,
                lineStyle: { color: MUTED, type: 'dashed' },
                label: { formatter: 'Pooled', position: 'insideEndTop' },
                data: [{ yAxis: Math.round(pooled * 100) / 100 }],
              },
            }
          : {}),
      },
    ],
  };
  return (
    <>
      <div aria-hidden="true" data-testid="market-chart">
        <EChart option={option} notMerge style={{ height: 280, width: '100%' }} />
      </div>
      <ChartValues
        caption={`${METRIC_LABELS[metric]} mean by market`}
        rows={groups.map((group, index) => [
          group.key,
          `${formatMean(means[index])} (${group.tests} ${group.tests === 1 ? 'test' : 'tests'})`,
        ])}
      />
    </>
  );
});

/** A metric's mean by year (pooled answers of the year's tests) and each test's own mean. */
export const TrendChart = memo(function TrendChart({
  data,
  metric,
}: {
  data: FragranceResponse;
  metric: FragranceTestMetric;
}) {
  const groups = data.by_year.filter((group) => group.scores[metric]);
  if (groups.length === 0) return <NoAnswers metric={metric} />;
  const first = Number(groups[0]!.key);
  const last = Number(groups[groups.length - 1]!.key);
  const years = Array.from({ length: last - first + 1 }, (_, index) => String(first + index));
  const byYear = new Map(groups.map((group) => [group.key, group]));
  const tests = data.tests.filter((test) => test.pooled && test.scores[metric]);
  const option = {
    animation: false,
    grid: { left: 8, right: 24, top: 56, bottom: 8, containLabel: true },
    legend: { data: ['Mean of the year', 'One test'], top: 0 },
    tooltip: { trigger: 'item' },
    xAxis: { type: 'category', data: years, boundaryGap: false },
    yAxis: {
      type: 'value',
      min: SCALE.min,
      max: SCALE.max,
      name: 'Mean (1-5)',
      nameTextStyle: { align: 'left' },
    },
    series: [
      {
        name: 'Mean of the year',
        type: 'line',
        connectNulls: true,
        data: years.map((year) => {
          const mean = byYear.get(year)?.scores[metric]?.mean;
          return mean === undefined || mean === null ? null : Math.round(mean * 100) / 100;
        }),
        itemStyle: { color: ACCENT },
        symbolSize: 8,
      },
      {
        name: 'One test',
        type: 'scatter',
        data: tests.map((test) => ({
          value: [String(test.year), Math.round((test.scores[metric]!.mean ?? 0) * 100) / 100],
          name: `${test.c_mi_number} · ${test.market ?? '-'}`,
        })),
        itemStyle: { color: MUTED, opacity: 0.8 },
        symbolSize: 7,
        tooltip: {
          formatter: (params: { name: string; value: [string, number] }) =>
            `${params.name}: ${formatMean(params.value[1])} (${params.value[0]})`,
        },
      },
    ],
  };
  return (
    <>
      <div aria-hidden="true" data-testid="trend-chart">
        <EChart option={option} notMerge style={{ height: 280, width: '100%' }} />
      </div>
      <ChartValues
        caption={`${METRIC_LABELS[metric]} mean by year`}
        rows={groups.map((group) => [
          group.key,
          `${formatMean(group.scores[metric]!.mean)} (${group.tests} ${group.tests === 1 ? 'test' : 'tests'})`,
        ])}
      />
    </>
  );
});
