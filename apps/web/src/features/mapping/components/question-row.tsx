import { ActionIcon, Badge, Button, Group, List, Paper, Select, Stack, Text, Tooltip } from '@mantine/core';
import type { MappingQuestion, MetricOption } from '@accord/contracts';
import { IconCheck } from '@tabler/icons-react';
import { confidenceLabel, metricOptions, suggestionReasons } from '../utils/mapping.ts';
import { DomainDisplay } from './domain-display.tsx';

export interface QuestionActions {
  /** Saves a change; answers whether it was saved (a refusal is shown as an alert). */
  onMetric: (question: MappingQuestion, metric: string | null) => Promise<boolean>;
  onValidate: (question: MappingQuestion, validated: boolean) => Promise<boolean>;
  onValue: (question: MappingQuestion, value: string) => Promise<boolean>;
}

/** One question: id, text, domain, metric dropdown, suggested metric and the validate check. */
export function QuestionRow({
  question,
  catalogue,
  used,
  editable,
  saving,
  actions,
}: {
  question: MappingQuestion;
  catalogue: MetricOption[];
  used: Map<string, string>;
  editable: boolean;
  saving: boolean;
  actions: QuestionActions;
}) {
  const validated = question.metric_validated;
  const suggestion = question.suggested_metric;
  const detail = suggestion ? question.suggestion : null;
  const suggestionTakenBy = suggestion ? used.get(suggestion.name) : undefined;
  const canUseSuggestion =
    editable &&
    !validated &&
    suggestion !== null &&
    suggestion.name !== question.metric?.name &&
    (suggestionTakenBy === undefined || suggestionTakenBy === question.qid);
  const hintId = `suggested-${question.id}`;
  const locked = !editable || validated;

  return (
    <Paper withBorder radius="md" p="sm" component="li" aria-label={`Question ${question.qid}`}>
      <Group justify="space-between" align="flex-start" gap="md" wrap="wrap">
        <Stack gap={4} style={{ flex: '1 1 300px', minWidth: 0 }}>
          <Group gap="xs">
            <Badge variant="light" color="plum" radius="sm">
              {question.qid}
            </Badge>
            {validated ? (
              <Badge variant="light" color="green" radius="sm">
                Validated
              </Badge>
            ) : null}
          </Group>
          <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
            {question.text}
          </Text>
          <DomainDisplay
            question={question}
            editable={editable}
            saving={saving}
            onSaveValue={(value) => actions.onValue(question, value)}
          />
        </Stack>
        <Stack gap={4} style={{ flex: '1 1 240px', maxWidth: 360, minWidth: 0 }}>
          <Group gap="xs" wrap="nowrap" align="flex-end">
            <Select
              label="Metric"
              aria-label={`Metric of ${question.qid}`}
              aria-describedby={hintId}
              placeholder="Not mapped"
              data={metricOptions(catalogue, used, question.qid)}
              value={question.metric?.name ?? null}
              onChange={(value) => void actions.onMetric(question, value)}
              disabled={locked || saving}
              // A locked metric stays readable: the mapping is the point of the page.
              styles={locked ? { input: { opacity: 1, color: 'var(--mantine-color-text)' } } : undefined}
              searchable
              clearable={editable && !validated}
              allowDeselect={false}
              nothingFoundMessage="No metric found"
              style={{ flex: '1 1 auto', minWidth: 0 }}
            />
            {editable ? (
              <Tooltip
                label={
                  validated
                    ? 'Remove the validation'
                    : question.metric
                      ? 'Validate the mapping'
                      : 'Choose a metric first'
                }
              >
                <ActionIcon
                  size="input-sm"
                  variant={validated ? 'filled' : 'default'}
                  color={validated ? 'green' : undefined}
                  aria-label={`Validate ${question.qid}`}
                  aria-pressed={validated}
                  disabled={!question.metric || saving}
                  onClick={() => void actions.onValidate(question, !validated)}
                >
                  <IconCheck size={18} aria-hidden="true" />
                </ActionIcon>
              </Tooltip>
            ) : null}
          </Group>
          <Stack gap={2} id={hintId}>
            <Group gap={6} wrap="wrap">
              <Text size="xs" c="dimmed">
                Suggested metric:{' '}
                <Text span size="xs" fw={600} c={suggestion ? undefined : 'dimmed'}>
                  {suggestion ? suggestion.label : 'none'}
                </Text>
                {suggestion && suggestionTakenBy && suggestionTakenBy !== question.qid
                  ? ` (used by ${suggestionTakenBy})`
                  : ''}
              </Text>
              {canUseSuggestion ? (
                <Button
                  size="compact-xs"
                  variant="light"
                  aria-label={`Use the suggested metric ${suggestion.label} for ${question.qid}`}
                  onClick={() => void actions.onMetric(question, suggestion.name)}
                  disabled={saving}
                >
                  Use
                </Button>
              ) : null}
              {detail ? (
                <Badge
                  size="xs"
                  radius="sm"
                  variant="light"
                  color={detail.confidence === 'high' ? 'teal' : 'yellow'}
                  title={`Evidence score ${Math.round(detail.score * 100)} %`}
                >
                  {confidenceLabel(detail)}
                </Badge>
              ) : null}
            </Group>
            {detail ? (
              <div>
                <Text size="xs" c="dimmed" id={`${hintId}-why`}>
                  Why:
                </Text>
                <List size="xs" c="dimmed" spacing={0} aria-labelledby={`${hintId}-why`} withPadding>
                  {suggestionReasons(detail).map((reason) => (
                    <List.Item key={reason} style={{ overflowWrap: 'anywhere' }}>
                      {reason}
                    </List.Item>
                  ))}
                </List>
              </div>
            ) : null}
          </Stack>
        </Stack>
      </Group>
    </Paper>
  );
}
