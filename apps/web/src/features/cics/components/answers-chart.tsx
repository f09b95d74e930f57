import type { CicsAnswerCount } from '@accord/contracts';
import { EChart } from '../../../components/charts/chart.tsx';
import { memo } from 'react';

const ROW_HEIGHT = 30;

/**
 * Horizontal bars of the answer shares (percent of the base n), in scale order from the top. The
 * same numbers are in the table beside it, so the chart itself is hidden from assistive technology.
 */
export const AnswersChart = memo(function AnswersChart({ answers }: { answers: CicsAnswerCount[] }) {
  const rows = [...answers].reverse();
  const option = {
    animation: false,
    grid: { left: 8, right: 48, top: 8, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'item',
      formatter: (params: { dataIndex: number }) => {
        const row = rows[params.dataIndex]!;
        return `${row.label}: ${row.count} (${Math.round((row.share ?? 0) * 100)} %)`;
      },
    },
    xAxis: { type: 'value', max: 100, axisLabel: { formatter: '{value} %' }, splitNumber: 4 },
    yAxis: {
      type: 'category',
      data: rows.map((row) => row.label),
      axisLabel: { width: 140, overflow: 'truncate' },
    },
    series: [
      {
        type: 'bar',
        data: rows.map((row) => Math.round((row.share ?? 0) * 1000) / 10),
        itemStyle: { color: '#7d4aa8', borderRadius: [0, 3, 3, 0] },
        barMaxWidth: 18,
        label: { show: true, position: 'right', formatter: '{c} %' },
      },
    ],
  };
  return (
    <div aria-hidden="true" data-testid="answers-chart">
      <EChart
        option={option}
        notMerge
        style={{ height: Math.max(120, rows.length * ROW_HEIGHT + 40), width: '100%' }}
      />
    </div>
  );
});
