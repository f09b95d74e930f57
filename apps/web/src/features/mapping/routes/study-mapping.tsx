import { Alert, Anchor, Button, Center, Grid, Loader, Stack, Text } from '@mantine/core';
import type { MappingFile, MappingQuestion, MappingQuestionUpdate } from '@accord/contracts';
import { IconArrowLeft } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { PageHeader, type Crumb } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { showAlert } from '../../../lib/alerts.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { useSession } from '../../../lib/session.ts';
import { useMetricsQuery } from '../api/get-metrics.ts';
import { useStudyQuestionsQuery } from '../api/get-study-questions.ts';
import { useUpdateQuestionMutation } from '../api/update-question.ts';
import type { NewQuestion } from '../components/add-question-modal.tsx';
import { FileSection } from '../components/file-section.tsx';
import type { QuestionActions } from '../components/question-row.tsx';
import { ValidatedPanel } from '../components/validated-panel.tsx';
import { useMinimumSpinner } from '../hooks/use-minimum-spinner.ts';
import { validatedQuestions } from '../utils/mapping.ts';

function parseId(raw: string | undefined): number {
  const id = Number(raw);
  return Number.isInteger(id) && id > 0 ? id : 0;
}

function crumbs(id: number, study: string): Crumb[] {
  return [
    { label: 'Home', href: paths.home.href() },
    { label: 'Search', href: paths.search.href() },
    { label: study, href: id > 0 ? paths.studyDetails.href(id) : undefined },
    { label: paths.studyMapping.title },
  ];
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'The change could not be saved.';
}

/** Route module of /study/{id}/mapping: question mapping (document 2 section 2, Mapping page). */
export function Component() {
  const id = parseId(useParams().id);
  const { permissions } = useSession();
  const editable = permissions.isAdmin || permissions.canAccessAnalytics;
  const questions = useStudyQuestionsQuery(id);
  const catalogue = useMetricsQuery();
  const update = useUpdateQuestionMutation(id);
  const [savingId, setSavingId] = useState<number | null>(null);
  const loading = useMinimumSpinner(questions.isPending || catalogue.isPending, 'page');

  const save = async (
    question: MappingQuestion | null,
    change: MappingQuestionUpdate,
  ): Promise<string | null> => {
    setSavingId(question?.id ?? null);
    try {
      await update.mutateAsync(change);
      return null;
    } catch (error) {
      return messageOf(error);
    } finally {
      setSavingId(null);
    }
  };
  const saveRow = async (question: MappingQuestion, change: MappingQuestionUpdate): Promise<boolean> => {
    const refusal = await save(question, change);
    if (refusal) showAlert('danger', refusal);
    return refusal === null;
  };
  const actions: QuestionActions = {
    onMetric: (question, metric) => saveRow(question, { id: question.id, metric }),
    onValidate: (question, validated) =>
      saveRow(question, { ...question, metric: question.metric?.name ?? null, metric_validated: validated }),
    onValue: (question, value) => saveRow(question, { id: question.id, value }),
  };
  const addQuestion = async (file: MappingFile, question: NewQuestion) => {
    const refusal = await save(null, {
      text: question.text,
      min: null,
      max: null,
      value: question.value,
      metric: question.metric,
      attribute: '',
      results_id: file.results_id,
      filename: file.filename,
      path: file.path,
    });
    if (!refusal) showAlert('success', 'Question added.');
    return refusal;
  };

  const notFound =
    id === 0 || (questions.isError && isApiError(questions.error) && questions.error.status === 404);
  if (notFound) {
    return (
      <>
        <PageHeader title="Study not found" breadcrumbs={crumbs(0, 'Study not found')} />
        <Alert color="gray" variant="light" title="This study does not exist or is not available to you.">
          <Text size="sm">
            Check the link, or find the study again from the{' '}
            <Anchor component={Link} to={paths.search.href()} size="sm">
              study search
            </Anchor>
            .
          </Text>
        </Alert>
      </>
    );
  }

  const data = questions.data;
  const header = (
    <PageHeader
      title={paths.studyMapping.title}
      breadcrumbs={crumbs(id, data?.c_mi_number ?? `Study ${id}`)}
      description={data ? `${data.project_name} · CMI # ${data.c_mi_number}` : undefined}
      actions={
        <Button
          component={Link}
          to={paths.studyDetails.href(id)}
          variant="default"
          leftSection={<IconArrowLeft size={18} aria-hidden="true" />}
        >
          Back to study
        </Button>
      }
    />
  );

  if (questions.isError || catalogue.isError) {
    return (
      <>
        {header}
        <Alert color="red" variant="light" title="The questions could not be loaded.">
          Please try again later.
        </Alert>
      </>
    );
  }
  if (loading || !data || !catalogue.data) {
    return (
      <>
        {header}
        <Center py="xl" role="status" aria-label="Loading questions">
          <Loader color="plum" aria-hidden="true" />
        </Center>
      </>
    );
  }

  const validated = validatedQuestions(data.files);
  return (
    <>
      {header}
      {!editable ? (
        <Alert color="gray" variant="light" mb="md">
          Mappings are changed by admins and analytics users; you can read them here.
        </Alert>
      ) : null}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8, xl: 9 }}>
          <Stack gap="lg">
            {data.files.length === 0 ? (
              <Alert color="gray" variant="light" title="This study has no questions yet.">
                Questions appear here once a results file has been uploaded.
              </Alert>
            ) : (
              data.files.map((file) => (
                <FileSection
                  key={file.filename}
                  file={file}
                  catalogue={catalogue.data}
                  editable={editable}
                  savingId={savingId}
                  adding={update.isPending && savingId === null}
                  actions={actions}
                  onAdd={addQuestion}
                />
              ))
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4, xl: 3 }}>
          <div style={{ position: 'sticky', top: 80 }}>
            <ValidatedPanel questions={validated} showFile={data.files.length > 1} />
          </div>
        </Grid.Col>
      </Grid>
    </>
  );
}
