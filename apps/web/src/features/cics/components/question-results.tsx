import { memo, useState } from 'react';
import {
  Anchor,
  Badge,
  Box,
  Button,
  Collapse,
  Group,
  Pagination,
  Paper,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import type { CicsQuestion, CicsSearchResponse } from '@accord/contracts';

const TYPE_LABELS: Record<CicsQuestion['question_type'], string> = {
  numerical: 'Scale',
  categorical: 'Categorical',
  constant: 'Constant',
  binary: 'Binary',
  jar: 'Strength (JAR)',
  eeg: 'EEG',
  implicit: 'Implicit',
};

const CONTROL_LABELS = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;

/** The first two answer labels then '...' (document 2 section 9: categorical preview of 2 values). */
function valuesPreview(question: CicsQuestion): string {
  const names = question.question_values.map((value) => value.name);
  if (names.length === 0) return '-';
  return names.length > 2 ? `${names.slice(0, 2).join(', ')} ...` : names.join(', ');
}

function studyLine(study: CicsQuestion['study']): string {
  return `${study.c_mi_number} · ${study.project_name} · ${study.client} · ${study.year}`;
}

function QuestionItem({
  question,
  selectedId,
  onSelect,
}: {
  question: CicsQuestion;
  selectedId: number | null;
  onSelect: (id: number) => void;
}) {
  const [open, setOpen] = useState(false);
  const selected = question.id === selectedId;
  const others = question.studies.length > 1;
  const listId = `cics-question-studies-${question.id}`;
  return (
    <li>
      <Stack
        gap={4}
        style={{
          borderRadius: 'var(--mantine-radius-md)',
          border: `1px solid ${selected ? 'var(--mantine-color-plum-6)' : 'var(--mantine-color-gray-3)'}`,
          background: selected ? 'var(--mantine-color-plum-0)' : 'var(--mantine-color-body)',
        }}
      >
        <UnstyledButton onClick={() => onSelect(question.id)} aria-pressed={selected} w="100%" p="sm">
          <Stack gap={6}>
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {question.q_text}
            </Text>
            <Group gap={6}>
              <Badge variant="light" color="gray" size="sm">
                {question.q_id}
              </Badge>
              <Badge variant="light" size="sm">
                {TYPE_LABELS[question.question_type]}
              </Badge>
              <Text size="xs" c="dimmed">
                Relevance {question.score.toFixed(2)}
              </Text>
            </Group>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {studyLine(question.study)}
            </Text>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              <Text span size="sm" fw={600}>
                Answers:
              </Text>{' '}
              {valuesPreview(question)}
            </Text>
          </Stack>
        </UnstyledButton>
        {others ? (
          <Box px="sm" pb="sm">
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => setOpen((value) => !value)}
              aria-expanded={open}
              aria-controls={listId}
            >
              {open ? 'Hide the studies' : `Asked in ${question.studies.length} studies`}
            </Anchor>
            <Collapse expanded={open} id={listId}>
              <Stack
                gap={4}
                mt={6}
                component="ul"
                aria-label={`Studies asking ${question.q_text}`}
                style={{ listStyle: 'none', padding: 0, margin: 0 }}
              >
                {question.studies.map((entry) => (
                  <li key={entry.id}>
                    <Button
                      variant={entry.id === selectedId ? 'light' : 'subtle'}
                      size="compact-sm"
                      onClick={() => onSelect(entry.id)}
                      aria-pressed={entry.id === selectedId}
                      styles={{
                        label: { whiteSpace: 'normal', textAlign: 'left' },
                        root: { height: 'auto' },
                      }}
                    >
                      {studyLine(entry.study)} ({entry.q_id})
                    </Button>
                  </li>
                ))}
              </Stack>
            </Collapse>
          </Box>
        ) : null}
      </Stack>
    </li>
  );
}

/** The matching questions, best first, with pages; choosing one shows its statistics. */
export const QuestionResults = memo(function QuestionResults({
  data,
  loading,
  selectedId,
  onSelect,
  page,
  onPageChange,
}: {
  data: CicsSearchResponse | undefined;
  loading: boolean;
  selectedId: number | null;
  /** A question by its key: the row's (its newest study's) or one study's from the expanded list. */
  onSelect: (id: number) => void;
  page: number;
  onPageChange: (page: number) => void;
}) {
  const pages = data ? Math.max(1, Math.ceil(data.total / data.per_page)) : 1;
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      component="section"
      aria-labelledby="cics-results-title"
    >
      <Group justify="space-between" gap="xs" mb="sm">
        <Title order={2} size="h4" id="cics-results-title">
          Questions
        </Title>
        <Text size="sm" c="dimmed" role="status">
          {loading && !data ? 'Searching…' : data ? `${data.total} found` : ''}
        </Text>
      </Group>
      {data && data.results.length === 0 ? (
        <Text c="dimmed" size="sm">
          No questions match these words. Try fewer words, or fewer quotes.
        </Text>
      ) : null}
      {!data && !loading ? (
        <Text c="dimmed" size="sm">
          No data
        </Text>
      ) : null}
      {data && data.results.length > 0 ? (
        <Stack
          gap="xs"
          component="ul"
          aria-label="Matching questions"
          style={{ listStyle: 'none', padding: 0, margin: 0, opacity: loading ? 0.6 : 1 }}
        >
          {data.results.map((question) => (
            <QuestionItem key={question.id} question={question} selectedId={selectedId} onSelect={onSelect} />
          ))}
        </Stack>
      ) : null}
      {pages > 1 ? (
        <Group justify="center" mt="md" component="nav" aria-label="Question pages">
          <Pagination
            total={pages}
            value={Math.min(page, pages)}
            onChange={onPageChange}
            size="sm"
            siblings={0}
            boundaries={1}
            getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
            getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
          />
        </Group>
      ) : null}
    </Paper>
  );
});
