/**
 * ECharts on its tree-shaken core, with every chart kind and component the screens draw registered
 * once. Loaded only through ./chart.tsx, so the library arrives after the screen is painted and only
 * on screens that show a chart.
 */
import { BarChart, CustomChart, LineChart, ScatterChart } from 'echarts/charts';
import {
  AriaComponent,
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  MarkPointComponent,
  TooltipComponent,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import type { EChartProps } from './chart.tsx';

echarts.use([
  BarChart,
  CustomChart,
  LineChart,
  ScatterChart,
  AriaComponent,
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  MarkPointComponent,
  TooltipComponent,
  SVGRenderer,
]);

export default function EChartsCoreChart(props: EChartProps) {
  return <ReactEChartsCore echarts={echarts} {...props} />;
}
