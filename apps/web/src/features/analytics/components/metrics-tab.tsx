import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  ColorSwatch,
  Group,
  Loader,
  MultiSelect,
  Paper,
  ScrollArea,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import type {
  FieldDefinition,
  MetricSearchRequest,
  MetricSearchResult,
  SignificanceRequest,
  TraceRequest,
} from '@accord/contracts';
import { TEXT_LIMITS } from '@accord/contracts';
import { textLimit } from '../../../components/text-limit.ts';
import {
  IconArrowDownRight,
  IconArrowUpRight,
  IconArrowsMaximize,
  IconChartHistogram,
  IconArrowsMinimize,
  IconSearch,
} from '@tabler/icons-react';
import { FragranceTestsIcon } from '../../../components/fragrance/fragrance-tests-link.tsx';
import { DownloadButton } from '../../../components/download-button.tsx';
import { NormButton } from '../../../components/norms/norm-button.tsx';
import { TraceButton } from '../../../components/trace/trace-drawer.tsx';
import { useEffect, useMemo, useRef, useState } from 'react';
import { paths } from '../../../config/paths.ts';
import { useDownloadMetricsMutation, useXlsxFiltersQuery } from '../api/download-metrics.ts';
import { useMetricSearchQuery } from '../api/metric-search.ts';
import { useSignificanceQuery } from '../api/significance.ts';
import { baseText, formatMetricValue } from '../utils/metrics-format.ts';
import {
  levelPercent,
  markOf,
  markText,
  rowMatches,
  significanceTags,
  type SignificanceFilter,
} from '../utils/significance.ts';
import { MetricCharts } from './metric-charts.tsx';
import {
  conditionsOf,
  emptyResultsFilter,
  ResultsFilter,
  type ResultsFilterForm,
} from './results-filter.tsx';

export const NO_DATA_AFTER_FILTERING = 'No data found after filtering. Please change filters and try again.';
export const NO_DATA = 'No data';
export const SIGNIFICANCE_NEEDS_METRIC = 'You need to check at least one metric to calculate significance.';

/** Significance is recalculated this long after the list it covers changes (document 3 section 4.1). */
const SIGNIFICANCE_REFRESH_MS = 1000;

const CALCULATIONS = [
  { value: 'avg', label: 'Selection vs Average' },
  { value: 'rest', label: 'Selection vs Average of the rest' },
];

type Row = MetricSearchResult['results'][number];
type Column = MetricSearchResult['columns'][number];

function rowName(row: Row): string {
  return row.name ?? row.prod;
}

/** The profile link of a row: a new tab with the chosen metric names as a JSON list. */
function profileHref(row: Row, metricNames: string[]): string {
  const base =
    row.kind === 'concept'
      ? paths.conceptProfile.href(row.study_id, row.prod)
      : paths.fragranceProfile.href(row.study_id, row.prod);
  return `${base}?attributes=${encodeURIComponent(JSON.stringify(metricNames))}`;
}

function ValueCell({
  row,
  column,
  significance,
  trace,
}: {
  row: Row;
  column: Column;
  significance: Record<string, unknown> | undefined;
  /** What "How was this computed?" traces for this cell. */
  trace: TraceRequest;
}) {
  const value = row.values[column.key];
  const base = row.bases[column.key];
  const low = row.low_base.includes(column.key);
  const mark = markOf(significance, column.key);
  const significant = mark && mark.level !== null && mark.table !== null;
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      <Tooltip label={baseText(base)} withArrow openDelay={150}>
        <Text
          span
          size="sm"
          tabIndex={0}
          c={low ? 'orange.9' : undefined}
          fs={low ? 'italic' : undefined}
          data-testid={`value-${row.id}-${column.key}`}
          style={{ cursor: 'help' }}
        >
          {formatMetricValue(column.aggregation, value)}
          {low ? '*' : ''}
        </Text>
      </Tooltip>
      {significant ? (
        <Tooltip label={markText(mark)} withArrow multiline maw={260}>
          <Badge
            size="sm"
            radius="sm"
            variant="filled"
            color={mark.table === 'mt' ? '#1b5e20' : '#8e1b1b'}
            tabIndex={0}
            data-testid={`mark-${row.id}-${column.key}`}
            leftSection={
              mark.table === 'mt' ? (
                <IconArrowUpRight size={12} aria-hidden="true" />
              ) : (
                <IconArrowDownRight size={12} aria-hidden="true" />
              )
            }
          >
            {levelPercent(mark.level!)}
          </Badge>
        </Tooltip>
      ) : null}
      {value !== null && value !== undefined ? (
        <TraceButton
          request={trace}
          label={`${rowName(row)}, ${column.label} ${column.aggregation_label}`}
          testId={`trace-${row.id}-${column.key}`}
        />
      ) : null}
    </Group>
  );
}

/**
 * The metrics tab (document 3 section 2.1): the fragrances or concepts found, with selection,
 * search, expand/collapse, significance, the respondent filter of the selection, the spreadsheet
 * download and the charts.
 */
export function MetricsTab({
  request,
  noCache,
  demographics,
  kindLabel,
}: {
  request: MetricSearchRequest;
  noCache: boolean;
  demographics: FieldDefinition[];
  /** 'fragrances' or 'concepts'. */
  kindLabel: string;
}) {
  const main = useMetricSearchQuery(request, noCache);
  const [filteredRequest, setFilteredRequest] = useState<MetricSearchRequest | null>(null);
  const filtered = useMetricSearchQuery(filteredRequest, noCache);
  const isFiltered = filteredRequest !== null;
  const answer = isFiltered ? filtered.data : main.data;
  const result = answer?.result;
  const loading = isFiltered ? filtered.isFetching : main.isFetching;

  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [search, setSearch] = useState('');
  const [expanded, setExpanded] = useState(true);
  /** The column option "Norm": each row's percentile within its category norm, one click away. */
  const [showNorm, setShowNorm] = useState(false);
  const [form, setForm] = useState<ResultsFilterForm>(emptyResultsFilter);
  const [calculation, setCalculation] = useState<'avg' | 'rest'>('avg');
  const [significanceOn, setSignificanceOn] = useState(false);
  const [significanceRequest, setSignificanceRequest] = useState<SignificanceRequest | null>(null);
  const [markFilter, setMarkFilter] = useState<SignificanceFilter>('all');
  const significance = useSignificanceQuery(significanceRequest);
  const xlsxFilters = useXlsxFiltersQuery();
  const [chosenXlsx, setChosenXlsx] = useState<string[] | null>(null);
  const download = useDownloadMetricsMutation();

  const columns = useMemo(() => result?.columns ?? [], [result]);
  const rows = useMemo(() => result?.results ?? [], [result]);
  const confidenceMetrics = request.q.metrics.metricsList.filter((entry) => entry.confidence);
  const canCalculate = confidenceMetrics.length > 0 && rows.length >= 2;
  const metricNames = useMemo(() => [...new Set(columns.map((column) => column.metric))], [columns]);

  const buildSignificance = (calc: 'avg' | 'rest'): SignificanceRequest | null => {
    if (rows.length < 2 || confidenceMetrics.length === 0) return null;
    const source = isFiltered ? filteredRequest : request;
    return {
      data: rows.map((row) => ({ id: row.id, c_mi_number: row.c_mi_number, prod: row.prod })),
      calculation: calc,
      metrics: request.q.metrics.metricsList.map((entry) => ({
        field: entry.metric,
        aggregation: entry.aggregation,
        confidence: entry.confidence ?? false,
      })),
      demographics: request.q.demographics,
      demographics_fragrances: source?.demographics_fragrances ?? [],
    };
  };

  // A new list (the selection filtered, or a new search) recalculates significance 1 s later.
  const jobId = answer?.jobId;
  const lastJob = useRef<string | undefined>(jobId);
  useEffect(() => {
    if (jobId === lastJob.current) return;
    lastJob.current = jobId;
    if (!significanceOn) return;
    const timer = window.setTimeout(
      () => setSignificanceRequest(buildSignificance(calculation)),
      SIGNIFICANCE_REFRESH_MS,
    );
    return () => window.clearTimeout(timer);
    // Only a new list triggers this; the other values are read as they are then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [jobId]);

  const marksById = useMemo(() => {
    const map = new Map<number, Record<string, unknown>>();
    for (const row of significance.data?.results ?? []) map.set(row.id, row as Record<string, unknown>);
    return map;
  }, [significance.data]);
  const showMarks = significanceRequest !== null && significance.data !== undefined;
  // The download carries the marks shown, once they cover the list shown (not while recalculating).
  const marksCoverList =
    showMarks &&
    !significance.isFetching &&
    significanceRequest.data.length === rows.length &&
    significanceRequest.data.every((product, index) => product.id === rows[index]?.id);
  const tags = showMarks ? significanceTags([...marksById.values()], rows.length) : [];

  // The trace of a cell: its product under the filters of the list shown, and the significance
  // calculation behind its mark when it carries one.
  const traceOf = (row: Row, column: Column): TraceRequest => {
    const marked = showMarks && significanceRequest && markOf(marksById.get(row.id), column.key);
    return {
      products: [row.id],
      metric: column.metric,
      aggregation: column.aggregation,
      demographics: request.q.demographics ?? {},
      demographics_fragrances: (isFiltered ? filteredRequest : request)?.demographics_fragrances ?? [],
      ...(marked
        ? {
            significance: {
              calculation: significanceRequest.calculation,
              products: significanceRequest.data.map((entry) => entry.id),
            },
          }
        : {}),
    };
  };

  const needle = search.trim().toLowerCase();
  const visible = rows.filter((row) => {
    if (needle && !rowName(row).toLowerCase().includes(needle)) return false;
    if (showMarks && markFilter !== 'all' && !rowMatches(marksById.get(row.id), markFilter)) return false;
    return true;
  });
  const allSelected = rows.length > 0 && rows.every((row) => selected.has(row.id));
  const shownColumns = expanded
    ? columns
    : columns.filter((column) => column.key === 'liking.top_2_box').slice(0, 1);

  const runFilter = () => {
    const chosen = rows.filter((row) => selected.has(row.id));
    if (chosen.length === 0) return;
    setFilteredRequest({
      ...request,
      fragrances: chosen.map((row) => ({ id: row.id, c_mi_number: row.c_mi_number, prod: row.prod })),
      demographics_fragrances: conditionsOf(form),
    });
  };

  const xlsxChosen = chosenXlsx ?? xlsxFilters.data?.chosenXlsxFilters ?? [];

  if (main.isPending && !isFiltered) {
    return (
      <Group gap="sm" py="lg">
        <Loader size="sm" aria-label="Loading results" />
        <Text c="dimmed">Running the search…</Text>
      </Group>
    );
  }
  if (main.isError && !isFiltered) {
    return (
      <Alert color="red" variant="light" title="The search could not be completed">
        {main.error.message}
      </Alert>
    );
  }
  const emptyText = isFiltered ? NO_DATA_AFTER_FILTERING : NO_DATA;
  // A filter keeps the chosen products but may leave no respondent: every value is then missing.
  const noneLeft =
    rows.length === 0 ||
    (isFiltered && !rows.some((row) => Object.values(row.values).some((value) => value !== null)));

  return (
    <Stack gap="md">
      <Paper withBorder radius="md" p="sm" component="section" aria-labelledby="significance-title">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Title order={3} size="h6" id="significance-title" mb={8}>
            Significance
          </Title>
          <Select
            label="Compare"
            data={CALCULATIONS}
            value={calculation}
            onChange={(value) => {
              const next = (value as 'avg' | 'rest' | null) ?? 'avg';
              setCalculation(next);
              if (significanceOn) setSignificanceRequest(buildSignificance(next));
            }}
            allowDeselect={false}
            w={{ base: '100%', xs: 280 }}
            comboboxProps={{ withinPortal: true }}
          />
          <Tooltip label={SIGNIFICANCE_NEEDS_METRIC} disabled={confidenceMetrics.length > 0} withArrow>
            <Button
              onClick={() => {
                if (!canCalculate) return;
                setSignificanceOn(true);
                setSignificanceRequest(buildSignificance(calculation));
              }}
              data-disabled={!canCalculate || undefined}
              aria-disabled={!canCalculate}
              loading={significance.isFetching}
            >
              Calculate
            </Button>
          </Tooltip>
        </Group>
        {showMarks ? (
          <Group gap={6} mt="sm" role="group" aria-label="Show products by significance">
            {tags.map((tag) => {
              const active = markFilter === tag.value;
              return (
                <Button
                  key={tag.value}
                  size="compact-sm"
                  radius="xl"
                  color={tag.color}
                  autoContrast
                  variant={active ? 'filled' : 'default'}
                  leftSection={active ? null : <ColorSwatch color={tag.color} size={10} aria-hidden="true" />}
                  aria-pressed={active}
                  onClick={() => setMarkFilter(tag.value)}
                >
                  {tag.label} ({tag.count})
                </Button>
              );
            })}
          </Group>
        ) : null}
        {significance.isError ? (
          <Text size="sm" c="red.9" mt="xs" role="alert">
            {significance.error.message}
          </Text>
        ) : null}
      </Paper>

      <ResultsFilter
        definitions={demographics}
        form={form}
        onChange={setForm}
        selectedCount={selected.size}
        onFilter={runFilter}
        onReset={() => setFilteredRequest(null)}
        filtered={isFiltered}
        busy={isFiltered && filtered.isFetching}
        kindLabel={kindLabel}
      />

      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <Group gap="xs">
          <Title order={3} size="h5">
            Analytics Results
          </Title>
          <DownloadButton
            tooltip="Download fragrance_metrics.xlsx"
            label="Download the results"
            onClick={() =>
              answer &&
              download.mutate({
                jobId: answer.jobId,
                filters: xlsxChosen,
                significance: marksCoverList ? significance.data?.jobId : null,
              })
            }
            loading={download.isPending}
            disabled={!answer || rows.length === 0}
          />
          {loading ? <Loader size="xs" aria-label="Loading results" /> : null}
        </Group>
        <MultiSelect
          label="Filter results"
          data={xlsxFilters.data?.xlsxFilters ?? []}
          value={xlsxChosen}
          onChange={setChosenXlsx}
          w={{ base: '100%', xs: 360 }}
          comboboxProps={{ withinPortal: true }}
        />
      </Group>

      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="wrap">
          <Button
            variant="default"
            size="compact-md"
            onClick={() => setSelected(allSelected ? new Set() : new Set(rows.map((row) => row.id)))}
            disabled={rows.length === 0}
          >
            {allSelected ? 'Deselect all' : 'Select all'}
          </Button>
          <Text size="sm" c="dimmed" role="status">
            {selected.size} of {rows.length} selected
          </Text>
        </Group>
        <Group gap="sm">
          <TextInput
            aria-label="Search query"
            placeholder="Search query"
            leftSection={<IconSearch size={14} aria-hidden="true" />}
            value={search}
            {...textLimit(search, TEXT_LIMITS.filterText)}
            onChange={(event) => setSearch(event.currentTarget.value)}
            w={{ base: 180, xs: 240 }}
          />
          <Button
            variant="subtle"
            size="compact-md"
            onClick={() => setExpanded((value) => !value)}
            aria-pressed={expanded}
            leftSection={
              expanded ? (
                <IconArrowsMinimize size={14} aria-hidden="true" />
              ) : (
                <IconArrowsMaximize size={14} aria-hidden="true" />
              )
            }
          >
            {expanded ? 'Collapse' : 'Expand'}
          </Button>
          <Button
            variant="subtle"
            size="compact-md"
            onClick={() => setShowNorm((value) => !value)}
            aria-pressed={showNorm}
            leftSection={<IconChartHistogram size={14} aria-hidden="true" />}
          >
            Norm
          </Button>
        </Group>
      </Group>

      {noneLeft || visible.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg" role="status">
          {noneLeft ? emptyText : NO_DATA}
        </Text>
      ) : (
        <ScrollArea.Autosize mah={560} type="auto" offsetScrollbars>
          <Table
            striped
            highlightOnHover
            stickyHeader
            verticalSpacing={6}
            aria-label={`${kindLabel} found`}
            // A narrow screen scrolls the table sideways rather than squeezing the names letter by letter.
            miw={(expanded ? 360 : 240) + shownColumns.length * 120}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <VisuallyHidden>Selected</VisuallyHidden>
                </Table.Th>
                <Table.Th>Name</Table.Th>
                {expanded ? <Table.Th>CMI #</Table.Th> : null}
                {shownColumns.map((column) => (
                  <Table.Th key={column.key} ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {column.aggregation_label} {column.label}
                  </Table.Th>
                ))}
                {showNorm ? <Table.Th w={56}>Norm</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {visible.map((row) => {
                const name = rowName(row);
                return (
                  <Table.Tr key={row.id} h={40}>
                    <Table.Td>
                      <Checkbox
                        aria-label={`Select ${name} (${row.c_mi_number})`}
                        checked={selected.has(row.id)}
                        onChange={(event) => {
                          const next = new Set(selected);
                          if (event.currentTarget.checked) next.add(row.id);
                          else next.delete(row.id);
                          setSelected(next);
                        }}
                      />
                    </Table.Td>
                    <Table.Td miw={160} maw={320}>
                      <Tooltip
                        label={`${row.c_mi_number} · ${row.category ?? '-'} · ${name}`}
                        withArrow
                        openDelay={200}
                        multiline
                        maw={320}
                      >
                        <Anchor
                          href={profileHref(row, metricNames)}
                          target="_blank"
                          rel="noopener"
                          size="sm"
                          style={{ overflowWrap: 'break-word' }}
                        >
                          {name}
                        </Anchor>
                      </Tooltip>
                      {row.kind === 'fragrance' ? (
                        <FragranceTestsIcon code={row.sap_code} name={name} newTab />
                      ) : null}
                    </Table.Td>
                    {expanded ? (
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        <Text size="sm">{row.c_mi_number}</Text>
                      </Table.Td>
                    ) : null}
                    {shownColumns.map((column) => (
                      <Table.Td key={column.key}>
                        <ValueCell
                          row={row}
                          column={column}
                          significance={showMarks ? marksById.get(row.id) : undefined}
                          trace={traceOf(row, column)}
                        />
                      </Table.Td>
                    ))}
                    {showNorm ? (
                      <Table.Td>
                        <NormButton
                          product={{ id: row.id, kind: row.kind }}
                          productLabel={name}
                          measures={shownColumns.map((column) => ({
                            metric: column.metric,
                            aggregation: column.aggregation,
                            label: `${column.aggregation_label} ${column.label}`,
                          }))}
                        />
                      </Table.Td>
                    ) : null}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      )}
      {result && rows.length > 0 ? (
        <Text size="xs" c="dimmed">
          Hover or focus a value to see its base n; * marks a low base (below 30 answers). All scores and
          metrics have been harmonized to a common 5 point scale.
        </Text>
      ) : null}
      {result && !noneLeft ? <MetricCharts result={result} /> : null}
    </Stack>
  );
}
