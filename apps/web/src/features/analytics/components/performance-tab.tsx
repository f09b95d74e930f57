import {
  ActionIcon,
  Box,
  Button,
  Collapse,
  Group,
  Loader,
  Paper,
  ScrollArea,
  Select,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import {
  PERFORMANCE_DECK_FILE_NAME,
  PERFORMANCE_FILE_NAME,
  performanceBaseNotes,
  yesNoHeading,
  performanceValue,
  sortPerformance,
  type MetricSearchRequest,
  type MetricSearchResult,
  type PerformanceRow,
  type PerformanceSort,
} from '@accord/contracts';
import { IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand } from '@tabler/icons-react';
import { DownloadButton } from '../../../components/download-button.tsx';
import { SlidesButton } from '../../../components/slides-button.tsx';
import { SortableTh } from '../../../components/table/sortable-th.tsx';
import { EChart } from '../../../components/charts/chart.tsx';
import { useEffect, useMemo, useState } from 'react';
import { useDownloadPerformanceMutation } from '../api/download-metrics.ts';
import { useDownloadSlidesMutation } from '../api/download-slides.ts';
import { useMetricSearchFirstPageQuery } from '../api/metric-pages.ts';
import { formatMetricValue, shortenLabel } from '../utils/metrics-format.ts';
import { breakdownLabel, breakdownOptions, METADATA_TYPES } from '../utils/performance.ts';

export const SELECT_PERFORMANCE_FILTERS = 'Select filters in order to see performance data.';
export const NO_PERFORMANCE_DATA = 'No data available for provided filters.';

const COLORS = ['#7d4aa8', '#2f9e8f', '#e8890c', '#3b6fd1', '#c2255c', '#5c940d'];

type Column = MetricSearchResult['columns'][number];

function PerformanceChart({ rows, columns }: { rows: PerformanceRow[]; columns: Column[] }) {
  // A yes/no metric is a share under any aggregation but the variance.
  const shares = columns.filter((column) =>
    column.yes_no
      ? yesNoHeading(column.aggregation, column.label) !== null
      : !['mean', 'eeg_mean', 'variance'].includes(column.aggregation),
  );
  const charted = shares.length > 0 ? shares : columns.slice(0, 1);
  const percent = shares.length > 0;
  const option = {
    animation: false,
    color: COLORS,
    legend: { top: 0, type: 'scroll' },
    grid: { left: 8, right: 8, top: 36, bottom: 8, containLabel: true },
    tooltip: { trigger: 'axis' },
    xAxis: {
      type: 'category',
      data: rows.map((row) => shortenLabel(row.category.value)),
      // Slanted, and cut at a width, so that long values never run into each other on a narrow screen.
      axisLabel: {
        interval: 0,
        rotate: rows.length > 3 ? 35 : 0,
        fontSize: 11,
        width: 110,
        overflow: 'truncate',
      },
    },
    yAxis: { type: 'value', ...(percent ? { max: 100, axisLabel: { formatter: '{value} %' } } : {}) },
    series: charted.map((column) => ({
      type: 'bar',
      name:
        (column.yes_no ? yesNoHeading(column.aggregation, column.label) : null) ??
        `${column.aggregation_label} ${column.label}`,
      data: rows.map((row) => {
        const value = performanceValue(row, column.key);
        if (value === null) return null;
        return percent ? Math.round(value * 1000) / 10 : Math.round(value * 100) / 100;
      }),
      barMaxWidth: 28,
    })),
  };
  return (
    <div aria-hidden="true" data-testid="performance-chart">
      <EChart option={option} notMerge style={{ height: 300, width: '100%' }} />
    </div>
  );
}

/**
 * The performance tab (document 3 section 2.1): a 'Data breakdown' side panel (Metadata Type,
 * Metadata, Run), then a bar chart and a sortable table of the metrics pooled per value of the field.
 */
export function PerformanceTab({
  request,
  noCache,
  typeSingular,
  onCount,
}: {
  request: MetricSearchRequest;
  noCache: boolean;
  typeSingular: string;
  onCount?: (count: number | null) => void;
}) {
  const [panelOpen, setPanelOpen] = useState(true);
  const [category, setCategory] = useState<'metadata' | 'fragrance' | null>(null);
  const [field, setField] = useState<string | null>(null);
  const [run, setRun] = useState<MetricSearchRequest | null>(null);
  // The breakdown and columns come with the search's first page: its rows stay on the server.
  const search = useMetricSearchFirstPageQuery(run, noCache);
  const result = search.data?.page;
  const rows = useMemo(() => result?.performance ?? [], [result]);
  const columns = result?.columns ?? [];
  const [sort, setSort] = useState<PerformanceSort>({ key: 'category', desc: true });

  // New data sorts by the first metric, best first.
  const firstKey = result?.columns[0]?.key;
  useEffect(() => {
    if (firstKey) setSort({ key: firstKey, desc: true });
  }, [result, firstKey]);
  useEffect(() => {
    onCount?.(result ? rows.length : null);
  }, [result, rows.length, onCount]);

  const sorted = sortPerformance(rows, sort);
  const header = run?.data ? breakdownLabel(run.data.field) : 'Value';

  const onRun = () => {
    if (!category || !field) return;
    setRun({ ...request, data: { category, field } });
  };

  const download = useDownloadPerformanceMutation();
  const slides = useDownloadSlidesMutation();
  const jobId = search.data?.jobId;
  const exportTable = () => {
    if (jobId) download.mutate({ jobId, sort });
  };

  return (
    <Group align="flex-start" gap="md" wrap="wrap">
      <Paper
        withBorder
        radius="md"
        p="sm"
        component="aside"
        aria-labelledby="breakdown-title"
        w={{ base: '100%', sm: panelOpen ? 260 : 'auto' }}
      >
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Title order={3} size="h6" id="breakdown-title">
            Data breakdown
          </Title>
          <ActionIcon
            variant="subtle"
            onClick={() => setPanelOpen((value) => !value)}
            aria-expanded={panelOpen}
            aria-controls="breakdown-panel"
            aria-label={panelOpen ? 'Hide data breakdown' : 'Show data breakdown'}
          >
            {panelOpen ? (
              <IconLayoutSidebarLeftCollapse size={16} aria-hidden="true" />
            ) : (
              <IconLayoutSidebarLeftExpand size={16} aria-hidden="true" />
            )}
          </ActionIcon>
        </Group>
        <Collapse expanded={panelOpen} id="breakdown-panel">
          <Stack gap="sm" mt="sm">
            <Select
              label="Metadata Type"
              placeholder="Choose"
              data={METADATA_TYPES.map((entry) => ({ ...entry }))}
              value={category}
              onChange={(value) => {
                setCategory(value as 'metadata' | 'fragrance' | null);
                // A new type clears the field chosen under the old one.
                setField(null);
              }}
              comboboxProps={{ withinPortal: true }}
            />
            <Select
              label="Metadata"
              placeholder="Choose"
              data={category ? breakdownOptions(category) : []}
              value={field}
              onChange={setField}
              disabled={!category}
              comboboxProps={{ withinPortal: true }}
            />
            <Button onClick={onRun} disabled={!category || !field} loading={search.isFetching}>
              Run
            </Button>
          </Stack>
        </Collapse>
      </Paper>
      <Box style={{ flex: 1, minWidth: 0 }} miw={{ base: '100%', sm: 0 }}>
        {run === null ? (
          <Text c="dimmed" py="lg" ta="center">
            {SELECT_PERFORMANCE_FILTERS}
          </Text>
        ) : search.isPending ? (
          <Group gap="sm" py="lg" justify="center">
            <Loader size="sm" role="status" aria-label="Loading performance" />
            <Text c="dimmed">Pooling the {typeSingular.toLowerCase()} results…</Text>
          </Group>
        ) : rows.length === 0 ? (
          <Text c="dimmed" py="lg" ta="center" role="status">
            {NO_PERFORMANCE_DATA}
          </Text>
        ) : (
          <Stack gap="sm">
            <Group justify="space-between">
              <Title order={3} size="h5">
                {typeSingular} Performance by {header}
              </Title>
              <Group gap="xs">
                <SlidesButton
                  fileName={PERFORMANCE_DECK_FILE_NAME}
                  label="Download slides of the performance"
                  loading={slides.isPending}
                  onClick={() => jobId && slides.mutate({ kind: 'performance', jobId, sort })}
                />
                <DownloadButton
                  tooltip={`Download ${PERFORMANCE_FILE_NAME}`}
                  label="Download the performance table"
                  loading={download.isPending}
                  onClick={exportTable}
                />
              </Group>
            </Group>
            <PerformanceChart rows={sorted} columns={columns} />
            <ScrollArea type="auto" offsetScrollbars>
              <Table
                striped
                highlightOnHover
                aria-label={`${typeSingular} performance by ${header}`}
                miw={480}
              >
                <Table.Thead>
                  <Table.Tr>
                    <SortableTh label={header} sortKey="category" sort={sort} onSort={setSort} />
                    <SortableTh
                      label="Products"
                      sortKey="fragrances"
                      sort={sort}
                      onSort={setSort}
                      align="right"
                    />
                    {columns.map((column) => (
                      <SortableTh
                        key={column.key}
                        label={
                          (column.yes_no ? yesNoHeading(column.aggregation, column.label) : null) ??
                          `${column.aggregation_label} ${column.label}`
                        }
                        sortKey={column.key}
                        sort={sort}
                        onSort={setSort}
                        align="right"
                      />
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {sorted.map((row) => (
                    <Table.Tr key={row.category.value}>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>{row.category.value}</Table.Td>
                      <Table.Td ta="right">{row.fragrances}</Table.Td>
                      {columns.map((column) => (
                        <Table.Td key={column.key} ta="right">
                          <Tooltip label={`Base n = ${row.n[column.key] ?? 0}`} withArrow openDelay={150}>
                            <Text span size="sm" tabIndex={0}>
                              {formatMetricValue(
                                column.yes_no ? 'top_box' : column.aggregation,
                                performanceValue(row, column.key),
                              )}
                            </Text>
                          </Tooltip>
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea>
            <Stack gap={2} data-testid="performance-base">
              {performanceBaseNotes(typeSingular === 'Concept' ? 'concepts' : 'products').map((note) => (
                <Text key={note} size="xs" c="dimmed">
                  {note}
                </Text>
              ))}
            </Stack>
          </Stack>
        )}
      </Box>
    </Group>
  );
}
