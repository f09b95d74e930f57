import {
  TENDENCIES_DECK_FILE_NAME,
  TENDENCY_FIELD_LABELS,
  type MetricSearchRequest,
  type TendenciesRequest,
  type TendenciesResponse,
} from '@accord/contracts';
import { Alert, Box, Button, Card, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { DownloadButton } from '../../../components/download-button.tsx';
import { SlidesButton } from '../../../components/slides-button.tsx';
import { useDownloadSlidesMutation } from '../api/download-slides.ts';
import { EChart, encodeHTML } from '../../../components/charts/chart.tsx';
import { memo, useEffect, useState, type ReactNode } from 'react';
import { useSession } from '../../../lib/session.ts';
import { useDownloadTendenciesMutation, useTendenciesQuery } from '../api/tendencies.ts';
import {
  TENDENCY_COUNT_OPTIONS,
  TENDENCY_TYPES,
  chartLabel,
  formatPercentage,
  isTendencyCount,
  isTendencyField,
  isTendencyType,
  keptTendencies,
  tendenciesBody,
  tendenciesDownloadBody,
  tendencyFieldOptions,
  type TendencyCount,
  type TendencyField,
  type TendencyType,
} from '../utils/attributes-tendencies.ts';
import {
  SEARCH_ROWS_FAILED,
  SEARCH_ROWS_PENDING,
  SidePanelLayout,
  TabMessage,
} from './top-attributes-tab.tsx';
import { useMetricSearchProductsQuery } from '../api/metric-pages.ts';

export const TENDENCIES_MESSAGES = {
  chooseSettings: 'Select filters in order to see tendencies data.',
  noData: 'No data available for provided filters.',
  failed: 'The tendencies could not be loaded.',
  running: 'Counting the fragrances…',
} as const;

const BAR_HEIGHT = 28;

/**
 * Horizontal bars of the fragrances counted per value, most frequent at the top. The table below holds
 * the same numbers, so the chart is hidden from assistive technology.
 */
const TendenciesChart = memo(function TendenciesChart({ rows }: { rows: TendenciesResponse['table_data'] }) {
  const shown = [...rows].reverse();
  const option = {
    animation: false,
    grid: { left: 8, right: 40, top: 8, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'item',
      formatter: (params: { dataIndex: number }) => {
        const row = shown[params.dataIndex]!;
        return `${encodeHTML(row.name)}: ${row.count} (${formatPercentage(row.percentage)})`;
      },
    },
    xAxis: { type: 'value', minInterval: 1, splitNumber: 4 },
    yAxis: {
      type: 'category',
      data: shown.map((row) => chartLabel(row.name)),
      axisLabel: { width: 130, overflow: 'truncate' },
    },
    series: [
      {
        type: 'bar',
        data: shown.map((row) => row.count),
        itemStyle: { color: '#7d4aa8', borderRadius: [0, 3, 3, 0] },
        barMaxWidth: 18,
        label: { show: true, position: 'right' },
      },
    ],
  };
  return (
    <div aria-hidden="true" data-testid="tendencies-chart">
      <EChart
        option={option}
        notMerge
        style={{ height: Math.max(120, shown.length * BAR_HEIGHT + 40), width: '100%' }}
      />
    </div>
  );
});

function TendenciesTable({ rows, field }: { rows: TendenciesResponse['table_data']; field: TendencyField }) {
  const label = `Fragrances by ${TENDENCY_FIELD_LABELS[field].toLowerCase()}`;
  return (
    <Box
      role="region"
      aria-label={`${label}, scrollable`}
      tabIndex={0}
      style={{ overflowX: 'auto', borderRadius: 'var(--mantine-radius-md)' }}
    >
      <Table
        striped
        withTableBorder
        verticalSpacing="xs"
        fz="sm"
        aria-label={label}
        miw={300}
        horizontalSpacing="xs"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{TENDENCY_FIELD_LABELS[field]}</Table.Th>
            <Table.Th ta="right">Number of fragrances</Table.Th>
            <Table.Th ta="right">Percentage of fragrances</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.name}>
              <Table.Th scope="row" fw={500} style={{ overflowWrap: 'anywhere' }}>
                {row.name}
              </Table.Th>
              <Table.Td ta="right">{row.count}</Table.Td>
              <Table.Td ta="right">{formatPercentage(row.percentage)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Box>
  );
}

interface Run {
  requestKey: string;
  body: TendenciesRequest;
  field: TendencyField;
  count: TendencyCount;
}

/**
 * The Creative & Olfactive Tendencies tab of Advanced Analytics (document 3 sections 2.1, 3.2, 5 and
 * 7): how many of the search's fragrances carry each value of a fragrance field, as a bar chart of
 * counts and a table, with the fragrance_tendencies.xlsx download.
 */
export function TendenciesTab({
  request,
  searchJobId,
  onCount,
}: {
  request: MetricSearchRequest;
  /** The job of the page's search, once queued: its rows are the fragrances counted. */
  searchJobId?: string;
  /** The number of values listed (null until a run answers), for the tab's count badge. */
  onCount?: (count: number | null) => void;
}) {
  const { permissions } = useSession();
  const [count, setCount] = useState<TendencyCount | null>(null);
  const [type, setType] = useState<TendencyType | null>(null);
  const [field, setField] = useState<TendencyField | null>(null);
  const [run, setRun] = useState<Run | null>(null);
  const requestKey = JSON.stringify(request);
  // A new search makes the last run's counts stale: they belong to other filters.
  const current = run && run.requestKey === requestKey ? run : null;
  const tendencies = useTendenciesQuery(current?.body ?? null);
  const download = useDownloadTendenciesMutation();
  // A fragrance search counts exactly the fragrances it found (a Best-10 search, its 10).
  const fragranceSearch = (request.type ?? 'fragrances') === 'fragrances';
  const searched = useMetricSearchProductsQuery(fragranceSearch ? searchJobId : undefined);
  const searchedReady = !fragranceSearch || searched.data !== undefined;
  const canRun = count !== null && type !== null && field !== null && searchedReady;
  const slides = useDownloadSlidesMutation();
  const listed =
    current && tendencies.data ? keptTendencies(tendencies.data.table_data, current.count).length : null;
  useEffect(() => {
    onCount?.(listed);
  }, [listed, onCount]);

  function runCount() {
    if (count === null || field === null || !searchedReady) return;
    const body = tendenciesBody(request, { count, field }, searched.data?.products);
    setRun({ requestKey, body, field, count });
  }

  const panel = (
    <Stack gap="sm">
      <Select
        label="Count"
        placeholder="How many values"
        data={TENDENCY_COUNT_OPTIONS}
        value={count}
        onChange={(value) => setCount(isTendencyCount(value) ? value : null)}
        allowDeselect={false}
      />
      <Select
        label="Metadata Type"
        placeholder="Choose a type"
        data={TENDENCY_TYPES.map((entry) => ({ value: entry.value, label: entry.label }))}
        value={type}
        onChange={(value) => {
          setType(isTendencyType(value) ? value : null);
          setField(null);
        }}
        allowDeselect={false}
      />
      <Select
        label="Metadata"
        placeholder={type ? 'Choose a field' : 'Choose a type first'}
        data={tendencyFieldOptions(type)}
        value={field}
        onChange={(value) => setField(isTendencyField(type, value) ? value : null)}
        disabled={type === null}
        allowDeselect={false}
      />
      <Button
        onClick={runCount}
        disabled={!canRun}
        loading={tendencies.isFetching}
        leftSection={<IconPlayerPlay size={16} aria-hidden="true" />}
      >
        Run
      </Button>
      {!searchedReady ? (
        <Text size="xs" c="dimmed" role="status">
          {searched.isError ? SEARCH_ROWS_FAILED : SEARCH_ROWS_PENDING}
        </Text>
      ) : null}
    </Stack>
  );

  let body: ReactNode;
  if (!current) {
    body = <TabMessage>{TENDENCIES_MESSAGES.chooseSettings}</TabMessage>;
  } else if (tendencies.isPending) {
    body = <TabMessage busy>{TENDENCIES_MESSAGES.running}</TabMessage>;
  } else if (tendencies.isError) {
    body = (
      <Alert color="red" variant="light" title={TENDENCIES_MESSAGES.failed}>
        Please run it again.
      </Alert>
    );
  } else {
    const { total } = tendencies.data;
    const rows = keptTendencies(tendencies.data.table_data, current.count);
    const fieldLabel = TENDENCY_FIELD_LABELS[current.field];
    body = (
      <Card withBorder radius="md" padding="md" component="section" aria-label="Tendencies results">
        <Stack gap="sm">
          <Group justify="space-between" align="flex-start" wrap="nowrap">
            <div>
              <Title order={3} fz="md">
                Fragrances by {fieldLabel.toLowerCase()}
              </Title>
              <Text size="sm" c="dimmed">
                {total} {total === 1 ? 'fragrance' : 'fragrances'} counted
                {rows.length > 0 ? ` · ${rows.length} ${rows.length === 1 ? 'value' : 'values'} shown` : ''}
              </Text>
            </div>
            {permissions.allowDownload && rows.length > 0 ? (
              <Group gap="xs" wrap="nowrap">
                <SlidesButton
                  fileName={TENDENCIES_DECK_FILE_NAME}
                  label="Download slides of the tendencies"
                  loading={slides.isPending}
                  onClick={() =>
                    slides.mutate({
                      kind: 'tendencies',
                      body: tendenciesDownloadBody(current.body, current.count),
                    })
                  }
                />
                <DownloadButton
                  tooltip="Download the tendencies"
                  label="Download the tendencies"
                  loading={download.isPending}
                  onClick={() => download.mutate(tendenciesDownloadBody(current.body, current.count))}
                />
              </Group>
            ) : null}
          </Group>
          {rows.length === 0 ? (
            <Text c="dimmed" size="sm">
              {TENDENCIES_MESSAGES.noData}
            </Text>
          ) : (
            <>
              <TendenciesChart rows={rows} />
              <TendenciesTable rows={rows} field={current.field} />
              <Text size="xs" c="dimmed">
                {current.field === 'dominant_note'
                  ? 'A fragrance counts once for each of its dominant notes, so the percentages may add up to more than 100%. '
                  : ''}
                Fragrances without a value count as No tag.
              </Text>
            </>
          )}
        </Stack>
      </Card>
    );
  }

  return (
    <SidePanelLayout title="Tendency settings" panel={panel}>
      {body}
    </SidePanelLayout>
  );
}
