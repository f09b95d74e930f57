/**
 * "How was this computed?": a small button beside any aggregate on screen (a metric search cell, a
 * profile row, a group comparison value) that opens a drawer with the number recomputed from its
 * answers: the metric and question texts per study, the original scales and their harmonisation, the
 * filters in words, the base, the low-base flag, the test behind a significance mark, the results
 * files and, for users with the download right, the answers as csv. The drawer is a dialog: focus
 * moves into it, Escape closes it and focus returns to the button.
 */
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Divider,
  Drawer,
  Group,
  List,
  Loader,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import {
  AGGREGATION_LABELS,
  MESSAGES,
  type Aggregation,
  type TraceRequest,
  type TraceResponse,
} from '@accord/contracts';
import { IconDownload, IconListSearch } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { showAlert } from '../../lib/alerts.ts';
import { downloadResultsFile, downloadTraceAnswers, useTraceQuery } from './trace-api.ts';
import { outcomeText, pValueText, traceValue } from './trace-format.ts';

export const TRACE_TITLE = 'How was this computed?';
export const DOWNLOAD_ANSWERS = 'Download answers (csv)';

/** Products listed in the drawer before the rest are summed up (a group may hold hundreds). */
const PRODUCTS_SHOWN = 20;

/**
 * The button opening the trace of one aggregate; `label` names the number (e.g. "Rose 12, liking
 * T2B"). A row of several numbers (a profile row) passes the aggregations it shows: the drawer then
 * offers them, starting with the request's.
 */
export function TraceButton({
  request,
  label,
  testId,
  aggregations,
}: {
  request: TraceRequest;
  label: string;
  testId?: string;
  aggregations?: readonly Aggregation[];
}) {
  const [opened, setOpened] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // The drawer is mounted only while open (a table holds many of these buttons), so focus is handed
  // back to the button here rather than by the drawer's own return on close.
  const close = () => {
    setOpened(false);
    window.requestAnimationFrame(() => button.current?.focus());
  };
  return (
    <>
      <Tooltip label={TRACE_TITLE} withArrow openDelay={300}>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="xs"
          aria-label={`${TRACE_TITLE} ${label}`}
          aria-haspopup="dialog"
          ref={button}
          data-testid={testId}
          onClick={() => setOpened(true)}
        >
          <IconListSearch size={14} aria-hidden="true" />
        </ActionIcon>
      </Tooltip>
      {opened ? (
        <TraceDrawer request={request} label={label} aggregations={aggregations ?? []} onClose={close} />
      ) : null}
    </>
  );
}

function TraceDrawer({
  request: initial,
  label,
  aggregations,
  onClose,
}: {
  request: TraceRequest;
  label: string;
  aggregations: readonly Aggregation[];
  onClose: () => void;
}) {
  const [aggregation, setAggregation] = useState<Aggregation>(initial.aggregation);
  const request = { ...initial, aggregation };
  const trace = useTraceQuery(request);
  const answers = useMutation({
    mutationFn: downloadTraceAnswers,
    onError: () => showAlert('danger', MESSAGES.downloadFailure),
  });
  return (
    // Composed so that its header is not a <header>: a second banner landmark beside the page's.
    <Drawer.Root
      opened
      onClose={onClose}
      position="right"
      size="lg"
      styles={{ content: { maxWidth: '100vw' } }}
    >
      <Drawer.Overlay />
      <Drawer.Content>
        <Drawer.Header component="div">
          <Drawer.Title>
            <Title component="span" order={2} size="h4">
              {TRACE_TITLE}
            </Title>
          </Drawer.Title>
          <Drawer.CloseButton aria-label={`Close: ${TRACE_TITLE}`} />
        </Drawer.Header>
        <Drawer.Body>
          <Stack gap="md" data-testid="trace-drawer">
            <Text fw={600}>{label}</Text>
            {aggregations.length > 1 ? (
              <SegmentedControl
                aria-label="Number to trace"
                size="xs"
                value={aggregation}
                onChange={(value) => setAggregation(value as Aggregation)}
                data={aggregations.map((value) => ({ value, label: AGGREGATION_LABELS[value] }))}
              />
            ) : null}
            {trace.isPending ? (
              <Loader size="sm" role="status" aria-label="Loading how the number was computed" />
            ) : trace.isError ? (
              <Alert color="red" role="alert">
                {trace.error.message}
              </Alert>
            ) : (
              <TraceContent
                trace={trace.data}
                downloading={answers.isPending}
                onDownload={() => answers.mutate(request)}
              />
            )}
          </Stack>
        </Drawer.Body>
      </Drawer.Content>
    </Drawer.Root>
  );
}

function TraceContent({
  trace,
  downloading,
  onDownload,
}: {
  trace: TraceResponse;
  downloading: boolean;
  onDownload: () => void;
}) {
  const { base } = trace;
  const files = useMutation({
    mutationFn: downloadResultsFile,
    onError: () => showAlert('danger', MESSAGES.downloadFailure),
  });
  const products = trace.studies.flatMap((study) =>
    study.products.map((product) => ({ ...product, study: study.c_mi_number })),
  );
  return (
    <>
      <Group gap="sm" align="baseline">
        <Text size="xl" fw={700} data-testid="trace-value">
          {traceValue(trace.aggregation, trace.value)}
        </Text>
        <Text size="sm">
          {trace.metric.label} · {trace.aggregation_label}
        </Text>
        {trace.low_base ? (
          <Badge color="orange" variant="light" data-testid="trace-low-base">
            Low base (n &lt; 30)
          </Badge>
        ) : null}
      </Group>
      <Text size="sm">{trace.rule}</Text>

      <section aria-labelledby="trace-base">
        <Title order={3} size="h6" id="trace-base" mb={4}>
          Base
        </Title>
        <SimpleGrid cols={{ base: 2, xs: 4 }} spacing="xs" component="dl" m={0} data-testid="trace-base">
          {(
            [
              ['Respondents', base.respondents, undefined],
              ['Answers', base.answers, 'trace-base-answers'],
              ['Products', base.products, undefined],
              ['Studies', base.studies, undefined],
            ] as const
          ).map(([name, count, testId]) => (
            <Paper key={name} withBorder radius="sm" px="sm" py={6}>
              <Text component="dt" size="xs">
                {name}
              </Text>
              <Text component="dd" m={0} fw={600} data-testid={testId}>
                {count.toLocaleString('en-US')}
              </Text>
            </Paper>
          ))}
        </SimpleGrid>
        {trace.out_of_scale > 0 ? (
          <Text size="xs" mt={4}>
            {trace.out_of_scale} answers outside their question’s scale are left out.
          </Text>
        ) : null}
      </section>

      <section aria-labelledby="trace-filters">
        <Title order={3} size="h6" id="trace-filters" mb={4}>
          Filters applied
        </Title>
        <List size="sm" data-testid="trace-filters">
          {trace.filters.map((line) => (
            <List.Item key={line}>{line}</List.Item>
          ))}
        </List>
      </section>

      {trace.significance ? (
        <section aria-labelledby="trace-significance" data-testid="trace-significance">
          <Title order={3} size="h6" id="trace-significance" mb={4}>
            Significance
          </Title>
          <Text size="sm">{trace.significance.description}</Text>
          <Text size="sm">
            {pValueText(trace.significance.p_value)}: {outcomeText(trace.significance)}
            {trace.significance.reference !== null
              ? ` (compared with ${traceValue(trace.aggregation, trace.significance.reference)})`
              : ''}
          </Text>
        </section>
      ) : null}

      {products.length > 1 ? (
        <section aria-labelledby="trace-products">
          <Title order={3} size="h6" id="trace-products" mb={4}>
            Products ({products.length})
          </Title>
          <Table fz="sm" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Study</Table.Th>
                <Table.Th>Product</Table.Th>
                <Table.Th ta="right">Score</Table.Th>
                <Table.Th ta="right">n</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {products.slice(0, PRODUCTS_SHOWN).map((product) => (
                <Table.Tr key={product.id}>
                  <Table.Td>{product.study}</Table.Td>
                  <Table.Td>{product.name ?? product.code}</Table.Td>
                  <Table.Td ta="right">{traceValue(trace.aggregation, product.value)}</Table.Td>
                  <Table.Td ta="right">{product.n}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {products.length > PRODUCTS_SHOWN ? (
            <Text size="xs">and {products.length - PRODUCTS_SHOWN} more products (all in the csv).</Text>
          ) : null}
        </section>
      ) : null}

      <section aria-labelledby="trace-questions">
        <Title order={3} size="h6" id="trace-questions" mb={4}>
          Questions and scales per study
        </Title>
        <Stack gap="sm">
          {trace.studies.map((study) => (
            <div key={study.study_id} data-testid={`trace-study-${study.study_id}`}>
              <Text size="sm" fw={600}>
                {study.c_mi_number}: {study.project_name}
              </Text>
              {study.questions.length === 0 ? (
                <Text size="sm">No question of this study is mapped to {trace.metric.label}.</Text>
              ) : (
                <List size="sm" spacing={4}>
                  {study.questions.map((question) => (
                    <List.Item key={question.id}>
                      <Text size="sm" span fw={500}>
                        {question.qid}: {question.text}
                      </Text>
                      <Text size="xs">
                        Scale {question.scale}. {question.harmonisation} {question.answers} answers counted.
                      </Text>
                      <Text size="xs">
                        From{' '}
                        {question.results_file ? (
                          <Anchor
                            component="button"
                            type="button"
                            size="xs"
                            onClick={() => files.mutate(question.results_file!)}
                            data-testid="trace-results-file"
                          >
                            {question.results_file.name}
                          </Anchor>
                        ) : (
                          question.filename
                        )}
                      </Text>
                    </List.Item>
                  ))}
                </List>
              )}
            </div>
          ))}
        </Stack>
      </section>

      {trace.can_download ? (
        <>
          <Divider />
          <Group>
            <Button
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden="true" />}
              loading={downloading}
              onClick={onDownload}
            >
              {DOWNLOAD_ANSWERS}
            </Button>
            <Text size="xs">
              One row per answer: study, respondent, product, question, raw and harmonised value.
            </Text>
          </Group>
        </>
      ) : null}
    </>
  );
}
