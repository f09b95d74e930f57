import type { NormResponse } from '@accord/contracts';
import { Box, Group, Text } from '@mantine/core';
import { EChart } from '../charts/chart.tsx';
import { memo, useMemo } from 'react';
import { formatNormScore } from './norm-format.ts';

const BAR = '#7fb3d5';
const PERCENTILE = '#5c6770';
const STANDARD = '#b35900';

/**
 * The distribution of a norm: one bar per bin on a value axis (bars touch, as a histogram's do), the
 * percentiles as dashed lines and the action standards as solid ones, each named at its top and
 * in full in the legend under the chart.
 */
export const NormChart = memo(function NormChart({
  norm,
  height = 320,
}: {
  norm: NormResponse;
  height?: number;
}) {
  const option = useMemo(() => {
    const format = (value: number) => formatNormScore(norm, value);
    const first = norm.histogram[0]?.from ?? 0;
    const last = norm.histogram.at(-1)?.to ?? 1;
    // Short names at the lines' tops, staggered over three heights so that close lines stay legible;
    // the full names (action standards) are in the legend under the chart and in the tooltip.
    const lines = norm.lines.map((line, index) => ({
      name: `${line.label}: ${format(line.value)}`,
      xAxis: line.value,
      lineStyle: {
        color: line.action_standard ? STANDARD : PERCENTILE,
        type: line.action_standard ? 'solid' : 'dashed',
        width: line.action_standard ? 2 : 1,
      },
      label: {
        formatter: `P${line.key.slice(1)}`,
        distance: 4 + (index % 3) * 14,
        color: line.action_standard ? STANDARD : PERCENTILE,
        fontSize: 11,
        fontWeight: line.action_standard ? 'bold' : 'normal',
      },
    }));
    return {
      animation: false,
      aria: { enabled: true },
      grid: { left: 48, right: 32, top: 72, bottom: 40 },
      tooltip: {
        trigger: 'item',
        formatter: (params: { data?: [number, number, number] }) =>
          params.data
            ? `${format(params.data[0])} to ${format(params.data[1])}: ${params.data[2]} ${norm.base.kind}s`
            : '',
      },
      xAxis: {
        type: 'value',
        min: first,
        max: last,
        axisLabel: { formatter: format },
        name: `${norm.metric.label} (${norm.aggregation.label})`,
        nameLocation: 'middle',
        nameGap: 26,
      },
      yAxis: {
        type: 'value',
        name: `${norm.base.kind === 'concept' ? 'Concepts' : 'Fragrances'}`,
        minInterval: 1,
      },
      series: [
        {
          type: 'custom',
          name: 'Distribution',
          data: norm.histogram.map((bin) => [bin.from, bin.to, bin.count]),
          encode: { x: [0, 1], y: 2 },
          renderItem: (
            _params: unknown,
            api: { value: (index: number) => number; coord: (point: [number, number]) => [number, number] },
          ) => {
            const [x0, y0] = api.coord([api.value(0), 0]);
            const [x1, y1] = api.coord([api.value(1), api.value(2)]);
            return {
              type: 'rect',
              shape: { x: x0 + 0.5, y: y1, width: Math.max(1, x1 - x0 - 1), height: y0 - y1 },
              style: { fill: BAR },
            };
          },
          markLine: { symbol: 'none', data: lines, tooltip: { formatter: '{b}' } },
        },
      ],
    };
  }, [norm]);
  return (
    <div
      role="img"
      aria-label={`Histogram of ${norm.products ?? 0} ${norm.base.kind} scores with ${norm.lines.map((line) => `${line.label} at ${formatNormScore(norm, line.value)}`).join(', ')}`}
    >
      <EChart option={option} notMerge style={{ height, width: '100%' }} />
      <Group gap="md" mt={4} aria-hidden="true">
        {norm.lines.map((line) => (
          <Group key={line.key} gap={6} wrap="nowrap">
            <Box
              w={18}
              style={{
                borderTop: `${line.action_standard ? 2 : 1}px ${line.action_standard ? 'solid' : 'dashed'} ${line.action_standard ? STANDARD : PERCENTILE}`,
              }}
            />
            <Text
              size="xs"
              c={line.action_standard ? STANDARD : 'dimmed'}
              fw={line.action_standard ? 700 : 400}
            >
              {line.label} {formatNormScore(norm, line.value)}
            </Text>
          </Group>
        ))}
      </Group>
    </div>
  );
});
