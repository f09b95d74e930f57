import type { PlanResponse } from '@accord/contracts';
import { EChart } from '../../../components/charts/chart.tsx';
import { memo, useMemo } from 'react';

const LINE = '#2f6db5';
const PLAN = '#b35900';

/** A difference as the plan states it: points of a share, or on the 5-point mean. */
export function formatDifference(plan: PlanResponse, value: number): string {
  return plan.aggregation.share ? `${value.toFixed(1)} points` : value.toFixed(2);
}

/**
 * The power curve: the smallest difference detectable at the plan's power against the consumers
 * (per product monadic, in all sequential monadic), with the plan's own point marked.
 */
export const PowerCurve = memo(function PowerCurve({
  plan,
  height = 300,
}: {
  plan: PlanResponse;
  height?: number;
}) {
  const consumers = plan.design === 'monadic' ? 'Consumers per product' : 'Consumers in all';
  const option = useMemo(() => {
    const own = plan.plan;
    const x = own ? (plan.design === 'monadic' ? own.per_product! : own.total) : null;
    return {
      animation: false,
      aria: { enabled: true },
      grid: { left: 56, right: 24, top: 24, bottom: 48 },
      tooltip: {
        trigger: 'axis',
        valueFormatter: (value: number) => formatDifference(plan, value),
      },
      xAxis: {
        type: 'value',
        name: consumers,
        nameLocation: 'middle',
        nameGap: 30,
        min: 0,
      },
      yAxis: {
        type: 'value',
        name: plan.aggregation.share ? 'Detectable difference (points)' : 'Detectable difference',
        nameTextStyle: { align: 'left' },
        min: 0,
      },
      series: [
        {
          type: 'line',
          name: 'Detectable difference',
          showSymbol: false,
          smooth: true,
          lineStyle: { color: LINE, width: 2 },
          itemStyle: { color: LINE },
          data: plan.curve.map((point) => [point.consumers, point.difference]),
          markPoint:
            x === null
              ? undefined
              : {
                  symbol: 'circle',
                  symbolSize: 10,
                  itemStyle: { color: PLAN },
                  label: {
                    show: true,
                    position: 'right',
                    color: PLAN,
                    fontWeight: 'bold',
                    formatter: `The plan: ${x}`,
                  },
                  data: [{ coord: [x, plan.difference] }],
                },
        },
      ],
    };
  }, [plan, consumers]);
  const first = plan.curve[0];
  const last = plan.curve.at(-1);
  return (
    <div
      role="img"
      aria-label={
        first && last
          ? `Power curve: with ${first.consumers} ${consumers.toLowerCase()} the smallest detectable difference is ${formatDifference(plan, first.difference)}, with ${last.consumers} it is ${formatDifference(plan, last.difference)}`
          : 'Power curve'
      }
    >
      <EChart option={option} notMerge style={{ height, width: '100%' }} />
    </div>
  );
});
