import type { ProfileResponse } from '@accord/contracts';
import { MultiSelect, Stack, Text } from '@mantine/core';
import { Suspense, useState } from 'react';
import { EChart } from '../../../components/charts/chart.tsx';
import { timeSeriesLabel, timeSeriesMetrics } from '../utils/profile-format.ts';

export const NO_TIME_SERIES = 'No time series data available.';

/**
 * The metric multi-select and the time-series line chart of the chosen metrics (document 2 section 2),
 * or the text 'No time series data available.' when the study stored none. The chart sits in a figure
 * named for its metrics, so that it is found and read as one picture.
 */
export function TimeSeriesChart({
  series,
  rows,
}: {
  series: ProfileResponse['time_series'];
  /** The profile's rows, which name the metrics. */
  rows: ProfileResponse['result'];
}) {
  const metrics = timeSeriesMetrics(series);
  const label = (metric: string) => timeSeriesLabel(metric, rows);
  const [chosen, setChosen] = useState<string[]>(() => metrics.slice(0, 3));
  const shown = chosen.filter((metric) => metrics.includes(metric));
  const times = [...new Set(shown.flatMap((metric) => Object.keys(series[metric] ?? {})))].sort(
    (left, right) => Number(left) - Number(right) || left.localeCompare(right),
  );

  return (
    <Stack gap="sm">
      <MultiSelect
        label="Metrics"
        placeholder={metrics.length > 0 ? 'Choose metrics' : 'No metrics with a time series'}
        data={metrics.map((metric) => ({ value: metric, label: label(metric) }))}
        value={shown}
        onChange={setChosen}
        disabled={metrics.length === 0}
        clearable
        w={{ base: '100%', sm: 420 }}
      />
      {metrics.length === 0 ? (
        <Text c="dimmed" size="sm">
          {NO_TIME_SERIES}
        </Text>
      ) : shown.length === 0 ? (
        <Text c="dimmed" size="sm">
          Choose at least one metric to draw its time series.
        </Text>
      ) : (
        <Suspense fallback={<Text size="sm">Loading the chart…</Text>}>
          <div role="figure" aria-label={`Mean EEG score by test date: ${shown.map(label).join(', ')}`}>
            <EChart
              style={{ height: 320, width: '100%' }}
              opts={{ renderer: 'svg' }}
              option={{
                aria: { enabled: true },
                tooltip: { trigger: 'axis' },
                legend: { data: shown.map(label), top: 0, type: 'scroll' },
                grid: { left: 56, right: 16, top: 40, bottom: 56 },
                // Times are test dates (yyyy-mm-dd), which sort as text; the scores are EEG means,
                // on their own 0 to 1 axis (never a 1 to 5 scale's).
                xAxis: {
                  type: 'category',
                  data: times,
                  name: 'Test date',
                  nameLocation: 'middle',
                  nameGap: 32,
                },
                yAxis: {
                  type: 'value',
                  name: 'Mean EEG score (0 to 1)',
                  nameLocation: 'middle',
                  nameGap: 36,
                  min: 0,
                  max: 1,
                },
                series: shown.map((metric) => ({
                  name: label(metric),
                  type: 'line',
                  showSymbol: true,
                  data: times.map((time) => series[metric]?.[time] ?? null),
                })),
              }}
            />
          </div>
        </Suspense>
      )}
    </Stack>
  );
}
