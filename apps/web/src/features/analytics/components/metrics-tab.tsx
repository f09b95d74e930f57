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
  Pagination,
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
import {
  CORRECTION_LABELS,
  METRIC_PAGE_SIZE,
  SIGNIFICANCE_CORRECTIONS,
  SIGNIFICANCE_NOT_TESTED,
  METRICS_DECK_FILE_NAME,
  TEXT_LIMITS,
  type SignificanceCorrection,
  type FieldDefinition,
  type MetricPageQuery,
  type MetricSearchPage,
  type MetricSearchRequest,
  type SignificanceRequest,
  type TraceRequest,
  conditionsInWords,
  respondentFiltersInWords,
} from '@accord/contracts';
import { useDebouncedValue } from '@mantine/hooks';
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
import { SlidesButton } from '../../../components/slides-button.tsx';
import { NormButton } from '../../../components/norms/norm-button.tsx';
import { TraceButton } from '../../../components/trace/trace-drawer.tsx';
import { SortableTh, type TableSort } from '../../../components/table/sortable-th.tsx';
import { useEffect, useMemo, useRef, useState } from 'react';
import { paths } from '../../../config/paths.ts';
import { useDownloadMetricsMutation, useXlsxFiltersQuery } from '../api/download-metrics.ts';
import { useDownloadSlidesMutation } from '../api/download-slides.ts';
import {
  getMetricSelection,
  useMetricPageQuery,
  useMetricSearchFirstPageQuery,
  useMetricSelectionMutation,
} from '../api/metric-pages.ts';
import { useSignificanceQuery } from '../api/significance.ts';
import { baseText, formatColumnValue } from '../utils/metrics-format.ts';
import {
  isLowBase,
  levelPercent,
  markColour,
  markText,
  marksLegend,
  significanceTags,
  type SignificanceFilter,
} from '../utils/significance.ts';
import { MetricCharts } from './metric-charts.tsx';
import { RankedChart } from './ranked-chart.tsx';
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

/** The multiplicity corrections of a Calculate (METRICS.md section 2), Benjamini-Hochberg first. */
const CORRECTIONS = SIGNIFICANCE_CORRECTIONS.map((value) => ({ value, label: CORRECTION_LABELS[value] }));

type Row = MetricSearchPage['rows'][number];
type Column = MetricSearchPage['columns'][number];
type Sort = TableSort;

/** How long the search text rests before the table asks the server again. */
const SEARCH_DEBOUNCE_MS = 300;

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
  showMarks,
  trace,
}: {
  row: Row;
  column: Column;
  showMarks: boolean;
  /** What "How was this computed?" traces for this cell. */
  trace: TraceRequest;
}) {
  const value = row.values[column.key];
  const base = row.bases[column.key];
  const low = row.low_base.includes(column.key);
  const mark = showMarks ? (row.marks[column.key] ?? null) : null;
  const significant = mark && mark.level !== null && mark.table !== null;
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      <Tooltip label={baseText(base)} withArrow openDelay={150}>
        <Text
          span
          size="sm"
          tabIndex={0}
          // Darker than orange.9, so a low base stays readable on a selected row's tint.
          c={low ? '#a34700' : undefined}
          fs={low ? 'italic' : undefined}
          data-testid={`value-${row.id}-${column.key}`}
          style={{ cursor: 'help' }}
        >
          {formatColumnValue(column, value)}
          {low ? '*' : ''}
        </Text>
      </Tooltip>
      {isLowBase(mark) ? (
        <Tooltip label={markText(mark!)} withArrow multiline maw={260}>
          <Text
            span
            size="xs"
            c="gray.7"
            tabIndex={0}
            style={{ whiteSpace: 'nowrap', cursor: 'help' }}
            data-testid={`not-tested-${row.id}-${column.key}`}
          >
            {SIGNIFICANCE_NOT_TESTED.lowBase}
          </Text>
        </Tooltip>
      ) : null}
      {significant ? (
        <Tooltip label={markText(mark)} withArrow multiline maw={320}>
          <Badge
            size="sm"
            radius="sm"
            variant="filled"
            color={markColour(column.metric, column.aggregation, mark.table!)}
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
 * download and the charts. The result stays on the server: the table shows one page at a time,
 * sorted and filtered there, and the selection ("Select all" of the matching rows included) is kept
 * with the search; significance, the filter and the download read it there.
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
  const main = useMetricSearchFirstPageQuery(request, noCache);
  const [filteredRequest, setFilteredRequest] = useState<MetricSearchRequest | null>(null);
  const filtered = useMetricSearchFirstPageQuery(filteredRequest, noCache);
  const isFiltered = filteredRequest !== null;
  const answer = isFiltered ? filtered.data : main.data;
  const jobId = answer?.jobId;

  const [pageNumber, setPageNumber] = useState(1);
  const [sort, setSort] = useState<Sort | null>(null);
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [expanded, setExpanded] = useState(true);
  /** The column option "Norm": each row's percentile within its category norm, one click away. */
  const [showNorm, setShowNorm] = useState(false);
  const [form, setForm] = useState<ResultsFilterForm>(emptyResultsFilter);
  const [calculation, setCalculation] = useState<'avg' | 'rest'>('avg');
  const [correction, setCorrection] = useState<SignificanceCorrection>('benjamini_hochberg');
  const [significanceOn, setSignificanceOn] = useState(false);
  const [significanceRequest, setSignificanceRequest] = useState<SignificanceRequest | null>(null);
  const [significanceRun, setSignificanceRun] = useState(0);
  const [markFilter, setMarkFilter] = useState<SignificanceFilter>('all');
  const significance = useSignificanceQuery(significanceRequest, significanceRun);
  const xlsxFilters = useXlsxFiltersQuery();
  const [chosenXlsx, setChosenXlsx] = useState<string[] | null>(null);
  const download = useDownloadMetricsMutation();
  const slides = useDownloadSlidesMutation();
  const selection = useMetricSelectionMutation(jobId);
  // Checkbox clicks show at once; the page read after the change confirms them.
  const [pending, setPending] = useState<Map<number, boolean>>(new Map());
  const [preparingFilter, setPreparingFilter] = useState(false);

  const showMarks = significanceRequest !== null && significance.data !== undefined;
  const rowFilter = {
    search: debouncedSearch.trim(),
    significance: showMarks ? significance.data.jobId : undefined,
    mark: showMarks ? markFilter : 'all',
  } as const;
  const pageQuery: MetricPageQuery = {
    ...rowFilter,
    offset: (pageNumber - 1) * METRIC_PAGE_SIZE,
    limit: METRIC_PAGE_SIZE,
    ...(sort ? { sort: sort.key, desc: sort.desc ? 'true' : 'false' } : {}),
  };
  const paged = useMetricPageQuery(jobId, pageQuery);
  const page = paged.data ?? answer?.page;
  const loading = (isFiltered ? filtered.isFetching : main.isFetching) || paged.isFetching;

  // Another search text, tag or order starts again at the first page.
  const rowFilterKey = JSON.stringify([rowFilter, sort]);
  const lastRowFilter = useRef(rowFilterKey);
  useEffect(() => {
    if (lastRowFilter.current === rowFilterKey) return;
    lastRowFilter.current = rowFilterKey;
    setPageNumber(1);
  }, [rowFilterKey]);

  const columns = useMemo(() => page?.columns ?? [], [page]);
  const rows = page?.rows ?? [];
  const total = page?.total ?? 0;
  const confidenceMetrics = request.q.metrics.metricsList.filter((entry) => entry.confidence);
  const canCalculate = confidenceMetrics.length > 0 && total >= 2;
  const metricNames = useMemo(() => [...new Set(columns.map((column) => column.metric))], [columns]);

  // Significance compares the selection of the list shown (every row when none is selected).
  const buildSignificance = (
    calc: 'avg' | 'rest',
    adjust: SignificanceCorrection = correction,
  ): SignificanceRequest | null => {
    if (!jobId || total < 2 || confidenceMetrics.length === 0) return null;
    const source = isFiltered ? filteredRequest : request;
    return {
      search_job: jobId,
      calculation: calc,
      correction: adjust,
      metrics: request.q.metrics.metricsList.map((entry) => ({
        field: entry.metric,
        aggregation: entry.aggregation,
        confidence: entry.confidence ?? false,
      })),
      demographics: request.q.demographics,
      demographics_fragrances: source?.demographics_fragrances ?? [],
    };
  };
  const calculate = (calc: 'avg' | 'rest', adjust: SignificanceCorrection = correction) => {
    setSignificanceRequest(buildSignificance(calc, adjust));
    setSignificanceRun((run) => run + 1);
  };

  // A new list (the selection filtered, or a new search) recalculates significance 1 s later. The
  // list a filter leaves is the selection it was asked for: it starts selected, as it was.
  const lastJob = useRef<string | undefined>(jobId);
  useEffect(() => {
    if (jobId === lastJob.current) return;
    lastJob.current = jobId;
    setPending(new Map());
    if (isFiltered && jobId) selection.mutate({ action: 'select', matching: { search: '' } });
    if (!significanceOn) return;
    const timer = window.setTimeout(() => calculate(calculation), SIGNIFICANCE_REFRESH_MS);
    return () => window.clearTimeout(timer);
    // Only a new list triggers this; the other values are read as they are then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [jobId]);

  const tags = showMarks && page?.mark_counts ? significanceTags(page.mark_counts) : [];
  const isSelected = (row: Row) => pending.get(row.id) ?? row.selected;
  const selectedCount =
    (page?.selected ?? 0) +
    rows.reduce((delta, row) => {
      const shown = pending.get(row.id);
      return shown === undefined || shown === row.selected ? delta : delta + (shown ? 1 : -1);
    }, 0);
  const allSelected = page?.all_matching_selected ?? false;
  // The products the marks were calculated over (the selection then, or every row).
  const comparedIds = useMemo(
    () => (significance.data?.results ?? []).map((entry) => entry.id),
    [significance.data],
  );
  // The download carries the marks shown, once they cover the rows it writes (not while
  // recalculating); the server checks the list again.
  const marksCoverList =
    showMarks &&
    !significance.isFetching &&
    pending.size === 0 &&
    comparedIds.length === (selectedCount > 0 ? selectedCount : total);

  // The trace of a cell: its product under the filters of the list shown, and the significance
  // calculation behind its mark when it carries one.
  const traceOf = (row: Row, column: Column): TraceRequest => {
    const mark = showMarks ? (row.marks[column.key] ?? null) : null;
    const marked = mark !== null && mark.level !== null && mark.table !== null && significanceRequest;
    return {
      products: [row.id],
      metric: column.metric,
      aggregation: column.aggregation,
      demographics: request.q.demographics ?? {},
      demographics_fragrances: (isFiltered ? filteredRequest : request)?.demographics_fragrances ?? [],
      ...(marked
        ? { significance: { calculation: significanceRequest.calculation, products: comparedIds } }
        : {}),
    };
  };
  const shownColumns = expanded
    ? columns
    : columns.filter((column) => column.key === 'liking.top_2_box').slice(0, 1);

  const toggleRow = (row: Row, checked: boolean) => {
    setPending((current) => new Map(current).set(row.id, checked));
    selection.mutate(
      { action: checked ? 'select' : 'deselect', ids: [row.id] },
      {
        onSettled: () =>
          setPending((current) => {
            const next = new Map(current);
            next.delete(row.id);
            return next;
          }),
      },
    );
  };

  const runFilter = async () => {
    if (!jobId || selectedCount === 0) return;
    setPreparingFilter(true);
    try {
      const chosen = await getMetricSelection(jobId);
      if (chosen.products.length === 0) return;
      setFilteredRequest({
        ...request,
        fragrances: chosen.products,
        demographics_fragrances: conditionsOf(form),
      });
    } finally {
      setPreparingFilter(false);
    }
  };

  const xlsxChosen = chosenXlsx ?? xlsxFilters.data?.chosenXlsxFilters ?? [];
  const sortLabel = (key: string) => {
    if (key === 'name') return 'name';
    if (key === 'c_mi_number') return 'CMI #';
    const column = columns.find((entry) => entry.key === key);
    return column ? `${column.aggregation_label} ${column.label}` : key;
  };

  if (main.isPending && !isFiltered) {
    return (
      <Group gap="sm" py="lg">
        <Loader size="sm" role="status" aria-label="Loading results" />
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
    total === 0 ||
    (isFiltered &&
      page !== undefined &&
      columns.every((column) => (page.histograms[column.key] ?? []).length === 0));
  const matching = page?.matching ?? 0;
  const pages = Math.max(1, Math.ceil(matching / METRIC_PAGE_SIZE));
  const firstShown = (pageNumber - 1) * METRIC_PAGE_SIZE + 1;

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
              if (significanceOn) calculate(next);
            }}
            allowDeselect={false}
            w={{ base: '100%', xs: 280 }}
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label="Correction"
            data={CORRECTIONS}
            value={correction}
            onChange={(value) => {
              const next = (value as SignificanceCorrection | null) ?? 'benjamini_hochberg';
              setCorrection(next);
              if (significanceOn) calculate(calculation, next);
            }}
            allowDeselect={false}
            w={{ base: '100%', xs: 370 }}
            comboboxProps={{ withinPortal: true }}
          />
          <Tooltip label={SIGNIFICANCE_NEEDS_METRIC} disabled={confidenceMetrics.length > 0} withArrow>
            <Button
              onClick={() => {
                if (!canCalculate) return;
                setSignificanceOn(true);
                calculate(calculation);
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
        {showMarks && significanceRequest ? (
          <Stack gap={2} mt="xs" data-testid="significance-legend" aria-label="Legend of the marks">
            {marksLegend(
              significanceRequest.calculation,
              significanceRequest.correction ?? 'benjamini_hochberg',
            ).map((line) => (
              <Text key={line} size="xs" c="dimmed">
                {line}
              </Text>
            ))}
          </Stack>
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
        selectedCount={selectedCount}
        onFilter={() => void runFilter()}
        onReset={() => setFilteredRequest(null)}
        filtered={isFiltered}
        busy={preparingFilter || (isFiltered && filtered.isFetching)}
        kindLabel={kindLabel}
        searchRespondents={respondentFiltersInWords(request.q.demographics)}
        applied={conditionsInWords(filteredRequest?.demographics_fragrances ?? [])}
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
              jobId &&
              download.mutate({
                jobId,
                filters: xlsxChosen,
                selected: selectedCount > 0,
                significance: marksCoverList ? significance.data?.jobId : null,
              })
            }
            loading={download.isPending}
            disabled={!jobId || total === 0}
          />
          <SlidesButton
            fileName={METRICS_DECK_FILE_NAME}
            label="Download slides of the results"
            onClick={() =>
              jobId &&
              slides.mutate({
                kind: 'metrics',
                jobId,
                query: selectedCount > 0 ? { ...pageQuery, selected: 'true' } : pageQuery,
              })
            }
            loading={slides.isPending}
            disabled={!jobId || total === 0}
          />
          {loading ? <Loader size="xs" role="status" aria-label="Loading results" /> : null}
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
            // Every row matching the search text and tag, on every page, not only the page shown.
            onClick={() =>
              selection.mutate({ action: allSelected ? 'deselect' : 'select', matching: rowFilter })
            }
            loading={selection.isPending && pending.size === 0}
            disabled={matching === 0}
          >
            {allSelected ? 'Deselect all' : 'Select all'}
          </Button>
          <Text size="sm" c="dimmed" role="status">
            {selectedCount} of {total} selected
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

      {noneLeft || matching === 0 ? (
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
                <SortableTh label="Name" sortKey="name" sort={sort} onSort={setSort} firstDesc={false} />
                {expanded ? (
                  <SortableTh
                    label="CMI #"
                    sortKey="c_mi_number"
                    sort={sort}
                    onSort={setSort}
                    firstDesc={false}
                  />
                ) : null}
                {shownColumns.map((column) => (
                  <SortableTh
                    key={column.key}
                    label={`${column.aggregation_label} ${column.label}`}
                    sortKey={column.key}
                    sort={sort}
                    onSort={setSort}
                    align="right"
                    firstDesc
                  />
                ))}
                {showNorm ? <Table.Th w={56}>Norm</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => {
                const name = rowName(row);
                return (
                  <Table.Tr key={row.id} h={40}>
                    <Table.Td>
                      <Checkbox
                        aria-label={`Select ${name} (${row.c_mi_number})`}
                        checked={isSelected(row)}
                        onChange={(event) => toggleRow(row, event.currentTarget.checked)}
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
                          showMarks={showMarks}
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
      {!noneLeft && matching > METRIC_PAGE_SIZE ? (
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Text size="sm" c="dimmed" role="status">
            {kindLabel} {firstShown}–{Math.min(matching, firstShown + METRIC_PAGE_SIZE - 1)} of {matching}
          </Text>
          <Pagination
            total={pages}
            value={pageNumber}
            onChange={setPageNumber}
            size="sm"
            siblings={1}
            getControlProps={(control) => ({
              'aria-label':
                control === 'previous' ? 'Previous page' : control === 'next' ? 'Next page' : control,
            })}
            getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
          />
        </Group>
      ) : null}
      {page && total > 0 ? (
        <Text size="xs" c="dimmed">
          Hover or focus a value to see its base n; * marks a low base (below 30 answers). All scores and
          metrics have been harmonized to a common 5 point scale.
        </Text>
      ) : null}
      {page && !noneLeft ? (
        <RankedChart
          rows={rows}
          columns={columns}
          isSelected={isSelected}
          anySelected={selectedCount > 0}
          order={
            sort
              ? `sorted by ${sortLabel(sort.key)}, ${sort.desc ? 'largest' : 'smallest'} first`
              : "the search's order"
          }
          rowsText={
            matching > METRIC_PAGE_SIZE
              ? `${kindLabel} ${firstShown}–${Math.min(matching, firstShown + METRIC_PAGE_SIZE - 1)} of ${matching}`
              : `${matching} ${kindLabel}`
          }
        />
      ) : null}
      {page && !noneLeft ? <MetricCharts result={page} /> : null}
    </Stack>
  );
}
