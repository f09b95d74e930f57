import { ActionIcon, Card, Center, Group, Loader, Stack, Switch, Text, Title, Tooltip } from '@mantine/core';
import type { MappingFile, MetricOption } from '@accord/contracts';
import { IconChevronLeft, IconChevronRight, IconPlus } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { useMinimumSpinner } from '../hooks/use-minimum-spinner.ts';
import { metricsUsedInFile, pageCount, pageOf, visibleQuestions } from '../utils/mapping.ts';
import { AddQuestionModal, type NewQuestion } from './add-question-modal.tsx';
import { QuestionRow, type QuestionActions } from './question-row.tsx';

/** One results file: 'Show all questions', 25 questions a page with 'page / max', and 'Add question'. */
export function FileSection({
  file,
  catalogue,
  editable,
  savingId,
  adding,
  actions,
  onAdd,
}: {
  file: MappingFile;
  catalogue: MetricOption[];
  editable: boolean;
  /** Question being saved (its controls wait). */
  savingId: number | null;
  adding: boolean;
  actions: QuestionActions;
  onAdd: (file: MappingFile, question: NewQuestion) => Promise<string | null>;
}) {
  const titleId = useId();
  const [showAll, setShowAll] = useState(false);
  const [requestedPage, setPage] = useState(1);
  const [addOpen, setAddOpen] = useState(false);
  const listed = visibleQuestions(file.questions, showAll);
  const pages = pageCount(listed.length);
  const page = Math.min(requestedPage, pages);
  const spinning = useMinimumSpinner(false, `${page}/${showAll}`);
  const used = metricsUsedInFile(file.questions);
  const validatedCount = file.questions.length - visibleQuestions(file.questions, false).length;

  const changePage = (next: number) => setPage(Math.max(1, Math.min(pages, next)));
  const add = async (question: NewQuestion) => {
    const refusal = await onAdd(file, question);
    if (!refusal) setPage(pageCount(visibleQuestions(file.questions, showAll).length + 1));
    return refusal;
  };

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
          <Stack gap={2} style={{ minWidth: 0, flex: '1 1 240px' }}>
            <Title order={2} fz="lg" id={titleId} style={{ overflowWrap: 'anywhere' }}>
              {file.filename}
            </Title>
            <Text size="sm" c="dimmed">
              {file.questions.length} questions, {validatedCount} validated
            </Text>
          </Stack>
          <Group gap="sm" wrap="nowrap">
            <Switch
              label="Show all questions"
              checked={showAll}
              onChange={(event) => {
                setShowAll(event.currentTarget.checked);
                setPage(1);
              }}
            />
            {editable ? (
              <Tooltip label="Add question">
                <ActionIcon
                  variant="light"
                  size="lg"
                  aria-label={`Add question to ${file.filename}`}
                  onClick={() => setAddOpen(true)}
                >
                  <IconPlus size={18} aria-hidden="true" />
                </ActionIcon>
              </Tooltip>
            ) : null}
          </Group>
        </Group>
        <Text size="sm" c="dimmed">
          {showAll
            ? 'Showing every question of the file.'
            : 'Showing the questions not validated yet. Turn on Show all questions to see validated ones too.'}
        </Text>
        {spinning ? (
          <Center py="xl" role="status" aria-label="Loading questions">
            <Loader color="plum" size="md" aria-hidden="true" />
          </Center>
        ) : listed.length === 0 ? (
          <Text c="dimmed" ta="center" py="lg">
            {file.questions.length === 0
              ? 'This file has no questions.'
              : 'Every question of this file is validated.'}
          </Text>
        ) : (
          <Stack
            component="ul"
            gap="sm"
            aria-label={`Questions of ${file.filename}`}
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
          >
            {pageOf(listed, page).map((question) => (
              <QuestionRow
                key={question.id}
                question={question}
                catalogue={catalogue}
                used={used}
                editable={editable}
                saving={savingId === question.id}
                actions={actions}
              />
            ))}
          </Stack>
        )}
        <Group justify="center" gap="xs" aria-label={`Pages of ${file.filename}`} role="group">
          <ActionIcon
            variant="default"
            aria-label="Previous page"
            disabled={page <= 1}
            onClick={() => changePage(page - 1)}
          >
            <IconChevronLeft size={16} aria-hidden="true" />
          </ActionIcon>
          <Text size="sm" aria-live="polite" aria-label={`Page ${page} of ${pages}`}>
            {page} / {pages}
          </Text>
          <ActionIcon
            variant="default"
            aria-label="Next page"
            disabled={page >= pages}
            onClick={() => changePage(page + 1)}
          >
            <IconChevronRight size={16} aria-hidden="true" />
          </ActionIcon>
        </Group>
      </Stack>
      {editable ? (
        <AddQuestionModal
          opened={addOpen}
          filename={file.filename}
          catalogue={catalogue}
          used={used}
          saving={adding}
          onClose={() => setAddOpen(false)}
          onAdd={add}
        />
      ) : null}
    </Card>
  );
}
