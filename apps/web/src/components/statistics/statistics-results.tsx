import {
  STATISTICS_CHART_HEIGHT,
  STATISTICS_MESSAGES,
  type StatisticsChart,
  type StatisticsResults,
  type StatisticsTable,
} from '@accord/contracts';
import {
  Alert,
  Button,
  Card,
  Group,
  List,
  ScrollArea,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { EChart } from '../charts/chart.tsx';
import { memo } from 'react';
import { TraceButton } from '../trace/trace-drawer.tsx';
import { summaryCellTrace, type SummaryTraceContext } from './summary-trace.ts';

const SHARE_ROWS = new Set([
  'Top box',
  'Top 2 box',
  'Neutral',
  'Bottom 2 box',
  'Bottom box',
  'Too strong',
  'Strong',
  'Just right',
  'Weak',
  'Too weak',
  'Yes',
  'No',
]);
const COLOURS = ['#c0392b', '#e59866', '#bdc3c7', '#7fb3d5', '#1f618d'];
/** The summary row of a question's omnibus test: its text sits in the first product column. */
const OMNIBUS_ROW = 'Omnibus test';

type Cell = string | number | null;
type Formatter = (value: Cell, row: readonly Cell[], column: number) => string;

const percent = (value: number): string => `${Math.round(value * 100)}%`;

/** Summary cells: base n as is, means with 2 decimals, boxes as rounded percentages. */
export const summaryCell: Formatter = (value, row) => {
  if (value === null) return '-';
  if (typeof value === 'string') return value;
  const statistic = String(row[1] ?? '');
  if (statistic === 'Mean' || statistic === 'Adjusted mean') return value.toFixed(2);
  if (SHARE_ROWS.has(statistic) || statistic === 'Adjusted share of yes') return percent(value);
  return String(value);
};

const decimals: Formatter = (value, row, column) => {
  if (value === null) return '-';
  if (typeof value === 'string') return value;
  if (Number.isInteger(value) && (row[0] === 'n' || column === 5)) return String(value);
  if (Math.abs(value) > 0 && Math.abs(value) < 0.0001) return value.toExponential(2);
  return value.toFixed(4);
};

/** The JAR table's p-value columns (each non-JAR group: drop, standard error, p-value, penalty). */
const JAR_P_COLUMNS = new Set([9, 13]);

const jarCell: Formatter = (value, _row, column) => {
  if (value === null) return '-';
  if (typeof value === 'string') return value;
  if (column === 2) return String(value);
  if (column >= 3 && column <= 5) return percent(value);
  if (JAR_P_COLUMNS.has(column)) return value < 0.001 ? '< 0.001' : value.toFixed(3);
  return value.toFixed(2);
};

/** The design found, the analysis used and any warning, above the tables (METRICS.md section 3). */
function DesignCard({ design }: { design: StatisticsResults['design'] }) {
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-label="Design and analysis">
      <Stack gap={6}>
        <Text fw={600} size="sm">
          {design.found}
        </Text>
        {design.analysis.map((line) => (
          <Text key={line} size="sm">
            {line}
          </Text>
        ))}
        {design.warnings.map((warning) => (
          <Alert key={warning} color="yellow" variant="light" role="status" p="xs">
            <Text size="sm">{warning}</Text>
          </Alert>
        ))}
      </Stack>
    </Card>
  );
}

/**
 * The rows of one question follow each other: its (often long) text is shown once, spanning them.
 * Answers per row the span of its first cell, 0 where an earlier row's cell covers it.
 */
function questionSpans(table: StatisticsTable): number[] {
  const spans = table.data.map(() => 1);
  let start = 0;
  table.data.forEach((row, index) => {
    if (index > 0 && typeof row[0] === 'string' && row[0] === table.data[start]![0]) {
      spans[start]! += 1;
      spans[index] = 0;
    } else start = index;
  });
  return spans;
}

function ResultTable({
  table,
  caption,
  format,
  trace,
}: {
  table: StatisticsTable;
  caption: string;
  format: Formatter;
  /** Summary cells that open "How was this computed?" (the study statistics page). */
  trace?: SummaryTraceContext;
}) {
  const spans = questionSpans(table);
  return (
    <ScrollArea type="auto" offsetScrollbars viewportProps={{ tabIndex: 0, 'aria-label': caption }}>
      <Table
        striped={!spans.some((span) => span > 1)}
        withTableBorder
        withColumnBorders
        stickyHeader
        fz="sm"
        miw={640}
      >
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {table.headers.map((header) => (
              <Table.Th key={header} scope="col">
                {header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {table.data.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={table.headers.length}>{STATISTICS_MESSAGES.noData}</Table.Td>
            </Table.Tr>
          ) : (
            table.data.map((row, rowIndex) => (
              <Table.Tr key={rowIndex}>
                {row.map((value, column) =>
                  (column === 0 && spans[rowIndex] === 0) ||
                  (row[1] === OMNIBUS_ROW && column > 2) ? null : row[1] === OMNIBUS_ROW && column === 2 ? (
                    // The omnibus test speaks of every product at once: one cell across their columns.
                    <Table.Td key={column} colSpan={row.length - 2} style={{ whiteSpace: 'normal' }}>
                      {format(value, row, column)}
                    </Table.Td>
                  ) : (
                    <Table.Td
                      key={column}
                      rowSpan={column === 0 && spans[rowIndex]! > 1 ? spans[rowIndex] : undefined}
                      style={{
                        textAlign: typeof value === 'number' ? 'right' : undefined,
                        whiteSpace: column < 2 ? 'normal' : 'nowrap',
                        verticalAlign: column === 0 ? 'top' : undefined,
                        minWidth: column === 0 ? 180 : undefined,
                      }}
                    >
                      <CellValue
                        text={format(value, row, column)}
                        traced={trace ? summaryCellTrace(row, column, table.headers, trace) : null}
                      />
                    </Table.Td>
                  ),
                )}
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

/** A cell's text, with the button tracing it when it is a traceable number. */
function CellValue({ text, traced }: { text: string; traced: ReturnType<typeof summaryCellTrace> }) {
  if (!traced) return text;
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      {text}
      <TraceButton request={traced.request} label={traced.label} />
    </Group>
  );
}

/** One question: stacked box shares per product (the table holds the same numbers). */
const StackedChart = memo(function StackedChart({ chart }: { chart: StatisticsChart }) {
  const colours = chart.series.length === 2 ? ['#bdc3c7', '#1f618d'] : COLOURS;
  const labels = chart.labels.map((label, index) =>
    chart.letters[index] ? `${label} (${chart.letters[index]})` : label,
  );
  const option = {
    animation: false,
    color: colours,
    grid: { left: 8, right: 16, top: 8, bottom: 40, containLabel: true },
    legend: { bottom: 0, type: 'scroll' },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: { type: 'value', max: 100, axisLabel: { formatter: '{value} %' } },
    yAxis: { type: 'category', inverse: true, data: labels, axisLabel: { width: 160, overflow: 'truncate' } },
    series: chart.series.map((series) => ({
      name: series.name,
      type: 'bar',
      stack: 'boxes',
      data: series.values,
      label: {
        show: true,
        formatter: (params: { value: number }) => (params.value >= 6 ? `${Math.round(params.value)}` : ''),
      },
    })),
  };
  return (
    <Card withBorder radius="md" padding="sm">
      <Title order={3} fz="sm" mb="xs">
        {chart.name ?? chart.question}
      </Title>
      <div aria-hidden="true" data-testid="statistics-chart">
        <EChart option={option} notMerge style={{ height: STATISTICS_CHART_HEIGHT, width: '100%' }} />
      </div>
    </Card>
  );
});

/** Results of the generator: Summary and Charts tabs, and the three downloads. */
export function StatisticsResultsView({
  results,
  chartsRequested,
  onDownload,
  downloading,
  summaryTrace,
}: {
  results: StatisticsResults;
  chartsRequested: boolean;
  onDownload: (file: StatisticsResults['files'][number]) => void;
  downloading?: string | null;
  /** The study statistics page: what its summary cells are traced against. */
  summaryTrace?: SummaryTraceContext;
}) {
  const has = (file: StatisticsResults['files'][number]) => results.files.includes(file);
  // The design lines have their own card; the legend list keeps the rest.
  const designLines = new Set([results.design.found, ...results.design.analysis, ...results.design.warnings]);
  return (
    <Stack gap="md">
      <DesignCard design={results.design} />
      <Group gap="sm">
        <Button
          leftSection={<IconDownload size={16} aria-hidden="true" />}
          variant="light"
          disabled={!has('summary.xlsx')}
          loading={downloading === 'summary.xlsx'}
          onClick={() => onDownload('summary.xlsx')}
        >
          Download summary
        </Button>
        <Button
          leftSection={<IconDownload size={16} aria-hidden="true" />}
          variant="light"
          disabled={!has('Regressions&Correlations.xlsx')}
          loading={downloading === 'Regressions&Correlations.xlsx'}
          onClick={() => onDownload('Regressions&Correlations.xlsx')}
        >
          Download correlation
        </Button>
        <Button
          leftSection={<IconDownload size={16} aria-hidden="true" />}
          variant="light"
          disabled={!has('chart_ppt.pptx')}
          loading={downloading === 'chart_ppt.pptx'}
          onClick={() => onDownload('chart_ppt.pptx')}
        >
          Download charts
        </Button>
      </Group>
      <Tabs defaultValue="summary" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="summary">Summary</Tabs.Tab>
          {chartsRequested ? <Tabs.Tab value="charts">Charts</Tabs.Tab> : null}
        </Tabs.List>
        <Tabs.Panel value="summary" pt="md">
          <Stack gap="lg">
            <List size="sm" spacing={2}>
              {results.legend
                .filter((line) => !designLines.has(line))
                .map((line) => (
                  <List.Item key={line}>{line}</List.Item>
                ))}
            </List>
            <ResultTable
              table={results.summary}
              caption="Summary"
              format={summaryCell}
              trace={summaryTrace}
            />
            {results.jar ? (
              <ResultTable
                table={results.jar}
                caption="Strength (JAR) and penalty analysis"
                format={jarCell}
              />
            ) : null}
            <ResultTable
              table={results.correlation}
              caption="Correlations on respondent rows"
              format={decimals}
            />
            <ResultTable
              table={results.product_correlation}
              caption="Correlations on product means (n = products)"
              format={decimals}
            />
            {results.regression ? (
              <ResultTable table={results.regression} caption="Regression" format={decimals} />
            ) : null}
          </Stack>
        </Tabs.Panel>
        {chartsRequested ? (
          <Tabs.Panel value="charts" pt="md">
            {results.charts.length === 0 ? (
              <Text c="dimmed">{STATISTICS_MESSAGES.noData}</Text>
            ) : (
              <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
                {results.charts.map((chart) => (
                  <StackedChart key={chart.question} chart={chart} />
                ))}
              </SimpleGrid>
            )}
          </Tabs.Panel>
        ) : null}
      </Tabs>
    </Stack>
  );
}
