import {
  ATTRIBUTES_DECK_FILE_NAME,
  LOW_BASE,
  MESSAGES,
  YES_NO_SHARE_LABEL,
  type MetricSearchRequest,
} from '@accord/contracts';
import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Group,
  Loader,
  NumberInput,
  Progress,
  Radio,
  Select,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import {
  IconArrowsSort,
  IconChevronDown,
  IconChevronUp,
  IconLayoutSidebarLeftCollapse,
  IconLayoutSidebarLeftExpand,
  IconPlayerPlay,
} from '@tabler/icons-react';
import { DownloadButton } from '../../../components/download-button.tsx';
import { SlidesButton } from '../../../components/slides-button.tsx';
import { useDownloadSlidesMutation } from '../api/download-slides.ts';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { useSession } from '../../../lib/session.ts';
import {
  isJobFinished,
  useDownloadTopAttributesMutation,
  useQueueTopAttributesMutation,
  useTopAttributesJobQuery,
} from '../api/top-attributes.ts';
import { useMetricSearchProductsQuery } from '../api/metric-pages.ts';
import {
  ATTRIBUTE_AGGREGATION_LABELS,
  ATTRIBUTE_AGGREGATION_OPTIONS,
  ATTRIBUTE_COLUMNS,
  ATTRIBUTE_TYPE_LABELS,
  ATTRIBUTE_TYPE_OPTIONS,
  DEFAULT_ATTRIBUTE_COUNT,
  MAX_ATTRIBUTE_COUNT,
  attributeBaseText,
  attributeCountError,
  attributeLabel,
  barSegments,
  barText,
  formatAttributeValue,
  isAttributeAggregation,
  isAttributeType,
  nextSort,
  sortAttributes,
  topAttributesBody,
  type AttributeAggregation,
  type AttributeOrder,
  type AttributeRow,
  type AttributeSettings,
  type AttributeSort,
  type AttributeType,
} from '../utils/attributes-table.ts';

export const TOP_ATTRIBUTES_MESSAGES = {
  chooseSettings: 'Select filters in order to see top attributes.',
  noData: 'No data available for provided filters.',
  failed: 'The top attributes could not be computed.',
  running: 'Computing the top attributes…',
  binaryFootnote: `* A yes/no (CATA) attribute is the share of answers selecting it (${YES_NO_SHARE_LABEL}), with no mean or boxes; yes/no attributes are ranked apart from the scale attributes.`,
} as const;

/** Run waits for the rows of the page's search, which the attributes are pooled over. */
export const SEARCH_ROWS_PENDING = 'Run is enabled once the search has found its fragrances.';
export const SEARCH_ROWS_FAILED = 'The fragrances of the search could not be read: search again.';

/** Colours of the bar segments: agreement, neither, disagreement (text on them stays readable). */
const SEGMENT_COLOURS = { top_2_box: 'teal.9', neither: 'gray.3', bottom_2_box: 'red.9' } as const;
/**
 * The column is 'Top 2 Box / Bottom 2 Box': its two ends print their numbers, however narrow (they
 * keep room for them); the Neither/Nor share between them shows on hover and in the read-out text.
 */
const NUMBERED_SEGMENTS: ReadonlySet<string> = new Set(['top_2_box', 'bottom_2_box']);
const NUMBERED_SEGMENT_MIN_WIDTH = '2.6rem';

/**
 * A tab body with a settings side panel, open by default, that the user may hide to give the results
 * the whole width; on a narrow screen the panel sits above the results.
 */
export function SidePanelLayout({
  title,
  panel,
  children,
}: {
  title: string;
  panel: ReactNode;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(true);
  const panelId = useId();
  const titleId = useId();
  return (
    <Stack gap="sm">
      <Group justify="flex-start">
        <Button
          variant="default"
          size="xs"
          aria-expanded={open}
          aria-controls={panelId}
          leftSection={
            open ? (
              <IconLayoutSidebarLeftCollapse size={16} aria-hidden="true" />
            ) : (
              <IconLayoutSidebarLeftExpand size={16} aria-hidden="true" />
            )
          }
          onClick={() => setOpen((value) => !value)}
        >
          {open ? `Hide ${title.toLowerCase()}` : `Show ${title.toLowerCase()}`}
        </Button>
      </Group>
      <Box
        style={{
          display: 'flex',
          gap: 'var(--mantine-spacing-md)',
          alignItems: 'flex-start',
          flexWrap: 'wrap',
        }}
      >
        {open ? (
          <Card
            id={panelId}
            withBorder
            radius="md"
            padding="md"
            component="section"
            aria-labelledby={titleId}
            style={{ flex: '1 1 240px', maxWidth: '100%' }}
            maw={{ base: '100%', md: 300 }}
          >
            <Title order={3} fz="md" mb="sm" id={titleId}>
              {title}
            </Title>
            {panel}
          </Card>
        ) : (
          <div id={panelId} hidden />
        )}
        <Box style={{ flex: '999 1 420px', minWidth: 0, maxWidth: '100%' }}>{children}</Box>
      </Box>
    </Stack>
  );
}

/** A muted empty-state text, or a status while work is under way. */
export function TabMessage({ children, busy = false }: { children: ReactNode; busy?: boolean }) {
  return (
    <Card withBorder radius="md" padding="lg">
      <Group gap="sm" justify="center" role={busy ? 'status' : undefined}>
        {busy ? <Loader size="sm" aria-hidden="true" /> : null}
        <Text c="dimmed" size="sm" ta="center">
          {children}
        </Text>
      </Group>
    </Card>
  );
}

function SortableHeader({
  label,
  sortKey,
  sort,
  onSort,
  align,
}: {
  label: string;
  sortKey: AttributeSort['key'];
  sort: AttributeSort | null;
  onSort: (key: AttributeSort['key']) => void;
  align: 'left' | 'right';
}) {
  const active = sort?.key === sortKey;
  const Icon = !active ? IconArrowsSort : sort.direction === 'asc' ? IconChevronUp : IconChevronDown;
  return (
    <Table.Th
      aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}
      style={{ whiteSpace: 'nowrap' }}
    >
      <UnstyledButton
        onClick={() => onSort(sortKey)}
        style={{
          display: 'flex',
          width: '100%',
          justifyContent: align === 'right' ? 'flex-end' : 'flex-start',
        }}
      >
        <Group gap={4} wrap="nowrap">
          <Text span fw={700} size="sm">
            {label}
          </Text>
          <Icon size={14} aria-hidden="true" stroke={active ? 2.2 : 1.5} />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

function BoxBar({ row }: { row: AttributeRow }) {
  const segments = barSegments(row);
  if (segments.length === 0) return <Text size="sm">-</Text>;
  const base = attributeBaseText(row);
  return (
    <Progress.Root size={22} radius="sm" role="img" aria-label={`${barText(segments)}. ${base}`} miw={130}>
      {segments
        .filter((segment) => segment.percent > 0)
        .map((segment) => (
          <Tooltip key={segment.key} label={`${segment.label}: ${segment.percent}% · ${base}`} withArrow>
            <Progress.Section
              value={segment.percent}
              color={SEGMENT_COLOURS[segment.key]}
              withAria={false}
              miw={NUMBERED_SEGMENTS.has(segment.key) ? NUMBERED_SEGMENT_MIN_WIDTH : undefined}
            >
              {NUMBERED_SEGMENTS.has(segment.key) ? (
                <Progress.Label c="white" fz="xs">
                  {segment.percent}%
                </Progress.Label>
              ) : null}
            </Progress.Section>
          </Tooltip>
        ))}
    </Progress.Root>
  );
}

function ValueCell({ row, value }: { row: AttributeRow; value: 'mean' | 'top_box' | 'bottom_box' }) {
  return (
    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
      <Tooltip label={attributeBaseText(row)} withArrow openDelay={150}>
        <Text span size="sm" style={{ cursor: 'help' }}>
          {formatAttributeValue(row[value], value)}
        </Text>
      </Tooltip>
    </Table.Td>
  );
}

function AttributesTable({ rows }: { rows: AttributeRow[] }) {
  const [sort, setSort] = useState<AttributeSort | null>(null);
  const sorted = sortAttributes(rows, sort);
  return (
    <Box
      role="region"
      aria-label="Top attributes, scrollable"
      tabIndex={0}
      style={{ overflowX: 'auto', borderRadius: 'var(--mantine-radius-md)' }}
    >
      <Table striped withTableBorder verticalSpacing="xs" fz="sm" aria-label="Top attributes" miw={560}>
        <Table.Thead>
          <Table.Tr>
            {ATTRIBUTE_COLUMNS.map((column) => (
              <SortableHeader
                key={column.key}
                label={column.label}
                sortKey={column.key}
                sort={sort}
                onSort={(key) => setSort((current) => nextSort(current, key))}
                align={column.key === 'attribute' || column.key === 'bar' ? 'left' : 'right'}
              />
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sorted.map((row) => (
            <Table.Tr key={row.field}>
              <Table.Th scope="row" fw={500} style={{ overflowWrap: 'anywhere', minWidth: 140 }}>
                {attributeLabel(row)}
                {row.n < LOW_BASE ? (
                  <Tooltip label={attributeBaseText(row)} withArrow>
                    <Badge ml="xs" size="xs" color="red.9" variant="outline">
                      Low base
                    </Badge>
                  </Tooltip>
                ) : null}
              </Table.Th>
              <Table.Td style={{ width: '40%' }}>
                <BoxBar row={row} />
              </Table.Td>
              <ValueCell row={row} value="mean" />
              <ValueCell row={row} value="top_box" />
              <ValueCell row={row} value="bottom_box" />
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Box>
  );
}

/** Yes/no (CATA) attributes: the share of answers selecting each, ranked apart from the scale ones. */
function YesNoTable({ rows }: { rows: AttributeRow[] }) {
  return (
    <Box
      role="region"
      aria-label="Yes/no attributes, scrollable"
      tabIndex={0}
      style={{ overflowX: 'auto', borderRadius: 'var(--mantine-radius-md)' }}
    >
      <Table striped withTableBorder verticalSpacing="xs" fz="sm" aria-label="Yes/no attributes" miw={360}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Yes/no attributes</Table.Th>
            <Table.Th style={{ width: '50%' }}>{YES_NO_SHARE_LABEL}</Table.Th>
            <Table.Th ta="right">Base n</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const percent = Math.round((row.selected ?? 0) * 100);
            return (
              <Table.Tr key={row.field}>
                <Table.Th scope="row" fw={500} style={{ overflowWrap: 'anywhere', minWidth: 140 }}>
                  {attributeLabel(row)}
                  {row.n < LOW_BASE ? (
                    <Badge ml="xs" size="xs" color="red.9" variant="outline">
                      Low base
                    </Badge>
                  ) : null}
                </Table.Th>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Progress
                      value={percent}
                      color="teal.9"
                      size={14}
                      radius="sm"
                      style={{ flex: 1 }}
                      aria-label={`${row.attribute}: ${percent}% selected`}
                    />
                    <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
                      {formatAttributeValue(row.selected, 'top_2_box')}
                    </Text>
                  </Group>
                </Table.Td>
                <Table.Td ta="right">{row.n.toLocaleString('en-GB')}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Box>
  );
}

interface Run {
  requestKey: string;
  jobId: string;
  settings: AttributeSettings;
}

/**
 * The Top Attributes tab of Advanced Analytics (document 3 sections 2.1, 3.2, 4.1, 5, 7 and 9): the
 * attributes of the fragrances the search found, pooled and ranked best or worst by an aggregation,
 * as a sortable table with a T2B / Neither/Nor / B2B bar, and the fragrance_attributes.xlsx download.
 */
export function TopAttributesTab({
  request,
  searchJobId,
  onCount,
}: {
  request: MetricSearchRequest;
  /** The job of the page's search, once queued: its rows are the fragrances pooled. */
  searchJobId?: string;
  /** The number of attributes listed (null until a run answers), for the tab's count badge. */
  onCount?: (count: number | null) => void;
}) {
  const { permissions } = useSession();
  const [order, setOrder] = useState<AttributeOrder>('best');
  const [count, setCount] = useState<string | number>(DEFAULT_ATTRIBUTE_COUNT);
  const [attributeType, setAttributeType] = useState<AttributeType | null>(null);
  const [aggregation, setAggregation] = useState<AttributeAggregation | null>(null);
  const [run, setRun] = useState<Run | null>(null);
  const queue = useQueueTopAttributesMutation();
  const download = useDownloadTopAttributesMutation();
  const slides = useDownloadSlidesMutation();
  const requestKey = JSON.stringify(request);
  // A new search makes the last run's rows stale: they belong to other filters.
  const current = run && run.requestKey === requestKey ? run : null;
  const job = useTopAttributesJobQuery(current?.jobId ?? null);
  const countError = attributeCountError(count);
  // A fragrance search pools exactly the fragrances it found (a Best-10 search, its 10).
  const fragranceSearch = (request.type ?? 'fragrances') === 'fragrances';
  const searched = useMetricSearchProductsQuery(fragranceSearch ? searchJobId : undefined);
  const searchedReady = !fragranceSearch || searched.data !== undefined;
  const canRun = attributeType !== null && aggregation !== null && countError === null && searchedReady;
  const running = queue.isPending || (current !== null && !job.isError && !isJobFinished(job.data));
  const listed = current && !running ? (job.data?.result?.json.attributes.length ?? null) : null;
  useEffect(() => {
    onCount?.(listed);
  }, [listed, onCount]);

  function runSearch() {
    if (!attributeType || !aggregation || countError !== null) return;
    const settings: AttributeSettings = { order, count: Number(count), attributeType, aggregation };
    if (!searchedReady) return;
    queue.mutate(topAttributesBody(request, settings, searched.data?.products), {
      onSuccess: (jobId) => setRun({ requestKey, jobId, settings }),
      // Job errors are logged and the loader turned off (document 3 section 8).
      onError: (error) => console.error('Top attributes could not be queued:', error),
    });
  }

  const panel = (
    <Stack gap="sm">
      <Radio.Group
        label="Order"
        value={order}
        onChange={(value) => setOrder(value === 'worst' ? 'worst' : 'best')}
      >
        <Group gap="md" mt={4}>
          <Radio value="best" label="Best" />
          <Radio value="worst" label="Worst" />
        </Group>
      </Radio.Group>
      <NumberInput
        label="Attributes #"
        value={count}
        onChange={setCount}
        min={1}
        max={MAX_ATTRIBUTE_COUNT}
        allowDecimal={false}
        allowNegative={false}
        clampBehavior="none"
        error={countError}
      />
      <Select
        label="Attribute Type"
        placeholder="Choose a type"
        data={ATTRIBUTE_TYPE_OPTIONS}
        value={attributeType}
        onChange={(value) => {
          setAttributeType(isAttributeType(value) ? value : null);
          setAggregation(null);
        }}
        allowDeselect={false}
      />
      <Select
        label="Aggregation"
        placeholder={attributeType ? 'Choose an aggregation' : 'Choose a type first'}
        data={ATTRIBUTE_AGGREGATION_OPTIONS}
        value={aggregation}
        onChange={(value) => setAggregation(isAttributeAggregation(value) ? value : null)}
        disabled={attributeType === null}
        allowDeselect={false}
      />
      <Button
        onClick={runSearch}
        disabled={!canRun}
        loading={running}
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
  if (!current && !queue.isPending) {
    body = <TabMessage>{TOP_ATTRIBUTES_MESSAGES.chooseSettings}</TabMessage>;
  } else if (running) {
    body = <TabMessage busy>{TOP_ATTRIBUTES_MESSAGES.running}</TabMessage>;
  } else if (job.isError || !job.data?.result) {
    body = (
      <Alert color="red" variant="light" title={TOP_ATTRIBUTES_MESSAGES.failed}>
        {job.data?.error ?? 'Please run it again.'}
      </Alert>
    );
  } else {
    const { attributes, fragrances } = job.data.result.json;
    const settings = current!.settings;
    const heading = `${settings.order === 'best' ? 'Best' : 'Worst'} ${settings.count} attributes by ${
      ATTRIBUTE_AGGREGATION_LABELS[settings.aggregation]
    }`;
    body = (
      <Card withBorder radius="md" padding="md" component="section" aria-label="Top attributes results">
        <Stack gap="sm">
          <Group justify="space-between" align="flex-start" wrap="nowrap">
            <div>
              <Title order={3} fz="md">
                {heading}
              </Title>
              <Text size="sm" c="dimmed">
                {ATTRIBUTE_TYPE_LABELS[settings.attributeType]} · pooled over {fragrances}{' '}
                {fragrances === 1 ? 'fragrance' : 'fragrances'}
                {attributes.length > 0 && attributes.length < settings.count
                  ? ` · only ${attributes.length} ${attributes.length === 1 ? 'attribute has' : 'attributes have'} answers`
                  : ''}
              </Text>
            </div>
            {permissions.allowDownload && attributes.length > 0 ? (
              <Group gap="xs" wrap="nowrap">
                <SlidesButton
                  fileName={ATTRIBUTES_DECK_FILE_NAME}
                  label="Download slides of the top attributes"
                  loading={slides.isPending}
                  onClick={() => slides.mutate({ kind: 'attributes', jobId: current!.jobId })}
                />
                <DownloadButton
                  tooltip="Download the top attributes"
                  label="Download the top attributes"
                  loading={download.isPending}
                  onClick={() => download.mutate(current!.jobId)}
                />
              </Group>
            ) : null}
          </Group>
          {attributes.length === 0 ? (
            <Text c="dimmed" size="sm">
              {TOP_ATTRIBUTES_MESSAGES.noData}
            </Text>
          ) : (
            <>
              {attributes.some((row) => !row.is_binary_scale) ? (
                <AttributesTable rows={attributes.filter((row) => !row.is_binary_scale)} />
              ) : null}
              {attributes.some((row) => row.is_binary_scale) ? (
                <YesNoTable rows={attributes.filter((row) => row.is_binary_scale)} />
              ) : null}
              <Stack gap={2}>
                <Text size="xs" c="dimmed">
                  {MESSAGES.harmonisedFootnote}. Hover a number or a bar to see its base n; a base below{' '}
                  {LOW_BASE} is a low base.
                </Text>
                {attributes.some((row) => row.is_binary_scale) ? (
                  <Text size="xs" c="dimmed">
                    {TOP_ATTRIBUTES_MESSAGES.binaryFootnote}
                  </Text>
                ) : null}
              </Stack>
            </>
          )}
        </Stack>
      </Card>
    );
  }

  return (
    <SidePanelLayout title="Attribute settings" panel={panel}>
      {body}
    </SidePanelLayout>
  );
}
