import { Accordion, Badge, Card, Group, ScrollArea, Stack, Text, Title } from '@mantine/core';
import type { MappingQuestion } from '@accord/contracts';

/** The 'Validated questions [count]' side panel; each entry opens to its ID and Metric. */
export function ValidatedPanel({ questions, showFile }: { questions: MappingQuestion[]; showFile: boolean }) {
  return (
    <Card withBorder radius="md" padding="md" component="aside" aria-labelledby="validated-questions-title">
      <Group gap="xs" mb="sm" wrap="nowrap">
        <Title order={2} fz="lg" id="validated-questions-title">
          Validated questions{' '}
          <Badge component="span" variant="light" color="green">
            {questions.length}
          </Badge>
        </Title>
      </Group>
      {questions.length === 0 ? (
        <Text size="sm" c="dimmed">
          No validated questions yet. Validate a mapping with its check button.
        </Text>
      ) : (
        // Long lists scroll inside the panel, so it stays beside the questions on wide screens.
        <ScrollArea.Autosize mah="calc(100vh - 200px)" type="auto" offsetScrollbars>
          <Accordion variant="separated" radius="md" chevronPosition="right" multiple>
            {questions.map((question) => (
              <Accordion.Item key={question.id} value={String(question.id)}>
                <Accordion.Control aria-label={`${question.qid}: ${question.text}`}>
                  <Text size="sm" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
                    {question.text}
                  </Text>
                </Accordion.Control>
                <Accordion.Panel>
                  <Stack gap={2}>
                    <Text size="sm">
                      <Text span fw={600} size="sm">
                        ID:
                      </Text>{' '}
                      {question.qid}
                    </Text>
                    <Text size="sm">
                      <Text span fw={600} size="sm">
                        Metric:
                      </Text>{' '}
                      {question.metric?.label ?? '-'}
                    </Text>
                    {showFile ? (
                      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        {question.filename}
                      </Text>
                    ) : null}
                  </Stack>
                </Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>
        </ScrollArea.Autosize>
      )}
    </Card>
  );
}
