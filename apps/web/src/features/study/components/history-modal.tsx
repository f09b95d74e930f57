import { Alert, Card, Group, Loader, Modal, Stack, Table, Text } from '@mantine/core';
import type { StudyHistoryGroup } from '@accord/contracts';
import { formatDateTime } from '../../../lib/format.ts';
import { useStudyHistoryQuery } from '../api/get-study-history.ts';
import { formatValue } from '../utils/format-value.ts';

export type HistoryType = StudyHistoryGroup['type'];

export const HISTORY_TITLES: Record<HistoryType, string> = {
  study: 'Study history',
  fragrances: 'Fragrances history',
  concepts: 'Concepts history',
};

function newestFirst(entries: StudyHistoryGroup[]): StudyHistoryGroup[] {
  return [...entries].sort((a, b) => Date.parse(b.change_date) - Date.parse(a.change_date) || b.id - a.id);
}

function HistoryEntry({
  entry,
  labels,
}: {
  entry: StudyHistoryGroup;
  labels: Readonly<Record<string, string>>;
}) {
  return (
    <Card withBorder radius="md" padding="sm" component="li">
      <Group justify="space-between" gap="xs" mb="xs">
        <Text size="sm" fw={600}>
          {formatDateTime(entry.change_date)}
        </Text>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {entry.user_email.email}
        </Text>
      </Group>
      <Table
        fz="sm"
        verticalSpacing={4}
        layout="fixed"
        aria-label={`Changes of ${formatDateTime(entry.change_date)}`}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="35%">Field</Table.Th>
            <Table.Th>Change</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entry.changes.map((change, index) => (
            <Table.Tr key={`${change.field}-${index}`}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{labels[change.field] ?? change.field}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                {formatValue(change.old_value)} → {formatValue(change.new_value)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

/** The grouped edit history of one type (study, fragrances or concepts), newest first (admins). */
export function HistoryModal({
  studyId,
  type,
  onClose,
  labels = {},
}: {
  studyId: number;
  type: HistoryType | null;
  onClose: () => void;
  /** Field -> label, so a study change reads 'Project Name' rather than project_name. */
  labels?: Readonly<Record<string, string>>;
}) {
  const history = useStudyHistoryQuery(studyId, type !== null);
  const entries =
    type && history.data ? newestFirst(history.data.grouped.filter((e) => e.type === type)) : [];

  return (
    <Modal opened={type !== null} onClose={onClose} title={type ? HISTORY_TITLES[type] : ''} size="lg">
      {history.isPending ? (
        <Group gap="xs">
          <Loader size="xs" aria-hidden="true" />
          <Text size="sm" c="dimmed">
            Loading history…
          </Text>
        </Group>
      ) : history.isError ? (
        <Alert color="red" variant="light">
          The history could not be loaded.
        </Alert>
      ) : entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          No changes recorded yet.
        </Text>
      ) : (
        <Stack gap="sm" component="ol" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Changes">
          {entries.map((entry) => (
            <HistoryEntry key={entry.id} entry={entry} labels={type === 'study' ? labels : {}} />
          ))}
        </Stack>
      )}
    </Modal>
  );
}
