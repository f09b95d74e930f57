import type { DriversResponse } from '@accord/contracts';
import { EChart } from '../../../components/charts/chart.tsx';
import { memo, useMemo } from 'react';

const BAR = '#7fb3d5';
const WHISKER = '#33414d';

/**
 * The attributes ranked by pooled correlation with liking: one bar each (strongest at the top) with
 * its Hartung-Knapp 95 % interval as a whisker.
 */
export const DriversChart = memo(function DriversChart({ drivers }: { drivers: DriversResponse }) {
  const attributes = drivers.attributes;
  const height = Math.max(220, 36 + attributes.length * 28);
  const option = useMemo(() => {
    const labels = attributes.map((attribute) => attribute.metric.label);
    const low = Math.min(0, ...attributes.map((attribute) => attribute.ci_low ?? attribute.r));
    const high = Math.max(...attributes.map((attribute) => attribute.ci_high ?? attribute.r));
    return {
      animation: false,
      aria: { enabled: true },
      grid: { left: 8, right: 24, top: 8, bottom: 36, containLabel: true },
      tooltip: {
        trigger: 'axis',
        axisPointer: { type: 'shadow' },
        formatter: (params: { dataIndex: number }[]) => {
          const attribute = attributes[params[0]?.dataIndex ?? 0];
          if (!attribute) return '';
          const interval =
            attribute.ci_low === null
              ? ''
              : ` (95 % interval ${attribute.ci_low.toFixed(2)} to ${attribute.ci_high!.toFixed(2)})`;
          return `${attribute.metric.label}: r = ${attribute.r.toFixed(2)}${interval}, ${attribute.studies} studies`;
        },
      },
      xAxis: {
        type: 'value',
        min: Math.floor(low * 10) / 10,
        max: Math.min(1, Math.ceil(high * 10 + 0.5) / 10),
        name: `Pooled correlation with ${drivers.liking.label}`,
        nameLocation: 'middle',
        nameGap: 24,
      },
      yAxis: { type: 'category', data: labels, inverse: true, axisTick: { show: false } },
      series: [
        {
          type: 'bar',
          name: 'Pooled r',
          data: attributes.map((attribute) => attribute.r),
          itemStyle: { color: BAR },
          barWidth: '60%',
        },
        {
          type: 'custom',
          name: '95 % interval',
          data: attributes.map((attribute, index) => [index, attribute.ci_low, attribute.ci_high]),
          renderItem: (
            _params: unknown,
            api: {
              value: (index: number) => number | null;
              coord: (point: [number, number]) => [number, number];
              size: (value: [number, number]) => [number, number];
            },
          ) => {
            const lowValue = api.value(1);
            const highValue = api.value(2);
            if (lowValue === null || highValue === null || Number.isNaN(lowValue)) return null;
            const index = api.value(0) ?? 0;
            const [x0, y] = api.coord([lowValue, index]);
            const [x1] = api.coord([highValue, index]);
            const cap = api.size([0, 1])[1] * 0.2;
            const style = { stroke: WHISKER, lineWidth: 1.5 };
            return {
              type: 'group',
              children: [
                { type: 'line', shape: { x1: x0, y1: y, x2: x1, y2: y }, style },
                { type: 'line', shape: { x1: x0, y1: y - cap, x2: x0, y2: y + cap }, style },
                { type: 'line', shape: { x1: x1, y1: y - cap, x2: x1, y2: y + cap }, style },
              ],
            };
          },
          z: 3,
        },
      ],
    };
  }, [attributes, drivers.liking.label]);
  return (
    <div
      role="img"
      aria-label={`Attributes ranked by pooled correlation with ${drivers.liking.label}: ${attributes
        .map((attribute) => `${attribute.metric.label} ${attribute.r.toFixed(2)}`)
        .join(', ')}`}
    >
      <EChart option={option} notMerge style={{ height, width: '100%' }} />
    </div>
  );
});
