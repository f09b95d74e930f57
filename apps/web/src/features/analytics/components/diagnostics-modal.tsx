import { Accordion, Badge, Group, List, Modal, Stack, Text } from '@mantine/core';
import type { Diagnostics } from '@accord/contracts';

const LEVEL_COLORS = { error: 'red', warning: 'orange', info: 'blue' } as const;

/**
 * The diagnostics popup (document 2 section 2): studies found and with anomalies, then per study
 * (by project number) its errors, warnings and infos, each detail marked with its level and file.
 */
export function DiagnosticsModal({
  opened,
  onClose,
  diagnostics,
}: {
  opened: boolean;
  onClose: () => void;
  diagnostics: Diagnostics | undefined;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Diagnostics" size="lg" centered>
      {!diagnostics ? (
        <Text c="dimmed">No diagnostics yet: run a search first.</Text>
      ) : (
        <Stack gap="md">
          <Group gap="xl">
            <Text>
              Studies found: <strong>{diagnostics.studies_found}</strong>
            </Text>
            <Text>
              Studies with anomalies: <strong>{diagnostics.studies_with_anomalies}</strong>
            </Text>
          </Group>
          {diagnostics.studies.length === 0 ? (
            <Text c="dimmed">No errors, warnings or infos.</Text>
          ) : (
            <Accordion variant="separated" multiple>
              {diagnostics.studies.map((study) => (
                <Accordion.Item key={study.study_id} value={String(study.study_id)}>
                  <Accordion.Control>
                    <Group gap="xs" wrap="wrap">
                      <Text fw={600}>{study.c_mi_number}</Text>
                      <Badge color="red" variant="light">
                        {study.errors} errors
                      </Badge>
                      <Badge color="orange" variant="light">
                        {study.warnings} warnings
                      </Badge>
                      <Badge color="blue" variant="light">
                        {study.infos} infos
                      </Badge>
                    </Group>
                  </Accordion.Control>
                  <Accordion.Panel>
                    <List spacing={6} size="sm">
                      {study.details.map((detail, index) => (
                        <List.Item key={index}>
                          <Group gap={6} wrap="nowrap" align="flex-start">
                            <Badge size="xs" color={LEVEL_COLORS[detail.level]} variant="filled">
                              {detail.level}
                            </Badge>
                            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                              {detail.message}
                              {detail.file ? (
                                <Text span size="xs" c="dimmed">
                                  {' '}
                                  ({detail.file})
                                </Text>
                              ) : null}
                            </Text>
                          </Group>
                        </List.Item>
                      ))}
                    </List>
                  </Accordion.Panel>
                </Accordion.Item>
              ))}
            </Accordion>
          )}
        </Stack>
      )}
    </Modal>
  );
}
