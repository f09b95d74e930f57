/**
 * The one import point of charts: a chart whose library (ECharts, the largest part of the web app)
 * is loaded on first use, after the screen around it has been painted. Until it has arrived, an empty
 * box of the chart's size keeps the layout still.
 */
import type { EChartsReactProps } from 'echarts-for-react/esm/types';
import { lazy, Suspense } from 'react';

export type EChartProps = Omit<EChartsReactProps, 'echarts'>;

const EChartsCoreChart = lazy(() => import('./echarts-core-chart.tsx'));

export function EChart(props: EChartProps) {
  return (
    <Suspense fallback={<div style={props.style} className={props.className} />}>
      <EChartsCoreChart {...props} />
    </Suspense>
  );
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for an HTML tooltip, as ECharts' format.encodeHTML does, without loading ECharts. */
export function encodeHTML(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}
