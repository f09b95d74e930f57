import { NO_TAG, WIZARD_MESSAGES, type TendenciesResponse } from '@accord/contracts';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { type ReactNode } from 'react';
import { EChart } from '../../../components/charts/chart.tsx';
import { chartLabel } from '../utils/labels.ts';

/**
 * 'Fragrance Families frequency (in %)': one bar per family; clicking a bar (or its button below, for
 * the keyboard) asks for the family's top fragrances. The 'No tag' bar is not clickable.
 */
export function FamilyChart({
  data,
  chosen,
  onChoose,
  action,
}: {
  data: TendenciesResponse;
  chosen: string | null;
  onChoose: (family: string) => void;
  /** Beside the title: the profile's slides download. */
  action?: ReactNode;
}) {
  const rows = data.table_data;
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Title order={2} size="h4">
          {WIZARD_MESSAGES.familyChartTitle}
        </Title>
        {action}
      </Group>
      {rows.length === 0 ? (
        <Text c="dimmed">{WIZARD_MESSAGES.noFamilyData}</Text>
      ) : (
        <>
          <EChart
            style={{ height: 340, width: '100%' }}
            opts={{ renderer: 'svg' }}
            onEvents={{
              click: (event: { name?: string }) => {
                if (event.name && event.name !== NO_TAG) onChoose(event.name);
              },
            }}
            option={{
              aria: { enabled: true },
              tooltip: {
                trigger: 'axis',
                valueFormatter: (value: number) => `${value.toFixed(1)} %`,
              },
              grid: { left: 44, right: 12, top: 16, bottom: 80 },
              xAxis: {
                type: 'category',
                data: rows.map((row) => row.name),
                axisLabel: { rotate: 40, interval: 0, formatter: (value: string) => chartLabel(value) },
              },
              yAxis: { type: 'value', name: '%' },
              series: [
                {
                  type: 'bar',
                  cursor: 'pointer',
                  data: rows.map((row) => ({
                    value: Math.round(row.percentage * 10) / 10,
                    itemStyle: {
                      color: row.name === NO_TAG ? '#adb5bd' : row.name === chosen ? '#862e9c' : '#be4bdb',
                    },
                  })),
                },
              ],
            }}
          />
          <Text size="sm" c="dimmed" id="family-buttons-label">
            Click a bar, or choose a family here, to see its top fragrances ({data.total} fragrances counted):
          </Text>
          <Group gap="xs" role="group" aria-labelledby="family-buttons-label">
            {rows.map((row) => (
              <Button
                key={row.name}
                size="compact-sm"
                variant={row.name === chosen ? 'filled' : 'light'}
                disabled={row.name === NO_TAG}
                onClick={() => onChoose(row.name)}
                aria-pressed={row.name === chosen}
              >
                {row.name} ({Math.round(row.percentage)} %)
              </Button>
            ))}
          </Group>
        </>
      )}
    </Stack>
  );
}
