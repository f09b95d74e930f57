import { memo } from 'react';
import { Alert, Badge, Group, Loader, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { LOW_BASE, MESSAGES, type CicsQuestionStatistics } from '@accord/contracts';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { SummaryLine } from '../utils/filters.ts';
import { AnswersChart } from './answers-chart.tsx';

type BoxKey = 'top_box' | 'top_2_box' | 'just_right' | 'bottom_2_box' | 'bottom_box';

/** Box labels (METRICS.md section 1); the strength (JAR) question reads them as too strong ... too weak. */
function boxLabels(strength: boolean): Record<BoxKey, string> {
  return strength
    ? {
        top_box: 'Too strong',
        top_2_box: 'Strong',
        just_right: 'Just right',
        bottom_2_box: 'Weak',
        bottom_box: 'Too weak',
      }
    : {
        top_box: 'Top box',
        top_2_box: 'Top 2 box',
        just_right: 'Neutral',
        bottom_2_box: 'Bottom 2 box',
        bottom_box: 'Bottom box',
      };
}

const percent = (value: number | null) => (value === null ? '-' : `${Math.round(value * 100)} %`);

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder radius="md" p="xs">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg">
        {value}
      </Text>
    </Paper>
  );
}

/** The answer statistics of the chosen question under the filters of the search. */
export const QuestionStatistics = memo(function QuestionStatistics({
  data,
  loading,
  error,
  filters,
}: {
  data: CicsQuestionStatistics | undefined;
  loading: boolean;
  error: string | null;
  filters: SummaryLine[];
}) {
  if (error) {
    return (
      <Alert color="red" title="The statistics could not be loaded">
        {error}
      </Alert>
    );
  }
  if (!data) {
    return (
      <Group gap="xs">
        <Loader size="sm" role="status" aria-label="Loading statistics" />
        <Text size="sm">Loading statistics…</Text>
      </Group>
    );
  }
  const { question, statistics } = data;
  const labels = boxLabels(data.strength);
  const low = statistics.n < LOW_BASE;
  const boxes: BoxKey[] =
    data.kind === 'scaled'
      ? (['top_box', 'top_2_box', 'just_right', 'bottom_2_box', 'bottom_box'] as const).filter(
          (key) => !(data.binary_scale && key === 'just_right'),
        )
      : [];
  const respondentFilters = filters.filter((line) => line.id !== 'question');
  return (
    <Stack gap="md" style={{ opacity: loading ? 0.6 : 1 }} aria-busy={loading}>
      <Stack gap={4}>
        <Title order={3} size="h5" style={{ overflowWrap: 'anywhere' }}>
          {question.q_text}
        </Title>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {question.q_id} · {question.study.c_mi_number} · {question.study.project_name} ·{' '}
          {question.study.client}
        </Text>
        <Text size="sm">
          <Text span size="sm" fw={600}>
            Respondents:
          </Text>{' '}
          {respondentFilters.length === 0
            ? 'all'
            : respondentFilters.map((line) => `${line.label} ${line.value}`).join('; ')}
        </Text>
      </Stack>

      <SimpleGrid cols={{ base: 2, sm: data.kind === 'categorical' ? 2 : 3 }} spacing="xs">
        <Figure label="Base (n)" value={String(statistics.n)} />
        <Figure label="Respondents" value={String(statistics.respondents)} />
        {data.kind !== 'categorical' ? (
          <Figure
            label={data.kind === 'continuous' ? 'Mean score' : 'Mean (1-5)'}
            value={statistics.mean === null ? '-' : statistics.mean.toFixed(2)}
          />
        ) : null}
      </SimpleGrid>
      {low ? (
        <Badge
          color="orange"
          variant="light"
          leftSection={<IconAlertTriangle size={14} aria-hidden="true" />}
        >
          {statistics.n === 0 ? 'No answers for these filters' : `Low base: fewer than ${LOW_BASE} answers`}
        </Badge>
      ) : null}

      {boxes.length > 0 ? (
        <Table.ScrollContainer minWidth={420}>
          <Table withTableBorder withColumnBorders striped fz="sm" aria-label="Boxes on the 5-point scale">
            <Table.Thead>
              <Table.Tr>
                {boxes.map((key) => (
                  <Table.Th key={key}>{labels[key]}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              <Table.Tr>
                {boxes.map((key) => (
                  <Table.Td key={key}>{percent(statistics[key])}</Table.Td>
                ))}
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}

      {statistics.n > 0 ? <AnswersChart answers={data.answers} /> : null}

      <Table.ScrollContainer minWidth={280}>
        <Table striped withTableBorder fz="sm" aria-label="Answers">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Answer</Table.Th>
              <Table.Th ta="right">Count</Table.Th>
              <Table.Th ta="right">Share</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.answers.map((answer) => (
              <Table.Tr key={`${answer.label}-${answer.value ?? ''}`}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{answer.label}</Table.Td>
                <Table.Td ta="right">{answer.count}</Table.Td>
                <Table.Td ta="right">{percent(answer.share)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="xs" c="dimmed">
        {data.kind === 'scaled'
          ? `${MESSAGES.harmonisedFootnote}.${data.binary_scale ? ' This is a CATA (dichotomous) question harmonized to 5 points, so there are no neutral scores.' : ''}`
          : data.kind === 'continuous'
            ? 'EEG scores are shown on their own scale, grouped in five bands.'
            : 'Categorical answers are counted; they have no mean.'}{' '}
        Shares are of the base n.
      </Text>
    </Stack>
  );
});
