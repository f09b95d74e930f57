import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Modal,
  Radio,
  SimpleGrid,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { STUDY_MESSAGES, type StudyFileError, type StudyFolder } from '@accord/contracts';
import { IconArrowBackUp } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { showAlert } from '../../../lib/alerts.ts';
import { formatDate } from '../../../lib/format.ts';
import { useSwapVersionMutation } from '../api/swap-version.ts';
import { useVersionHistoryQuery } from '../api/version-history.ts';
import { ErrorDetailsTable, errorSummary } from './error-details-table.tsx';

export interface VersionControlTarget {
  name: string;
  folder: StudyFolder;
  fileType: string;
}

interface VersionView {
  id: number | null;
  name: string;
  date: string | null;
  status: 'success' | 'failed' | null;
  errors: StudyFileError[];
}

/** Why Revert is blocked for a version refused at upload (the server refuses it too, 400). */
export const FAILED_VERSION_REASON =
  'This version failed its checks, so it cannot be made the current file. Upload a corrected file instead.';

const day = (date: string | null) => formatDate(date);
const time = (date: string | null) => (date ? dayjs(date).format('LT') : '-');

function StatusBadge({ status }: { status: VersionView['status'] }) {
  if (!status) return null;
  return (
    <Badge color={status === 'success' ? 'green' : 'red'} variant="light">
      {status === 'success' ? 'Success' : 'Failed'}
    </Badge>
  );
}

function VersionCard({ title, version }: { title: string; version: VersionView | null }) {
  return (
    <Card withBorder radius="md" padding="sm" aria-label={title} component="section">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} mb={4}>
        {title}
      </Text>
      {version ? (
        <Stack gap={4}>
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {version.name}
          </Text>
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {day(version.date)} {time(version.date)}
            </Text>
            <StatusBadge status={version.status} />
          </Group>
          {version.errors.length > 0 ? (
            <Text size="sm" c={version.errors.some((item) => item.level === 'error') ? 'red.8' : 'dimmed'}>
              {errorSummary(version.errors)}
            </Text>
          ) : null}
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          Select a version in the table.
        </Text>
      )}
    </Card>
  );
}

/**
 * 'Version Control - {file}' (document 2 section 4): the current file, the selected version, the
 * other versions newest first, and Revert (admins) which makes the selected version current.
 */
export function VersionControlModal({
  studyId,
  target,
  isAdmin,
  onClose,
}: {
  studyId: number;
  target: VersionControlTarget | null;
  isAdmin: boolean;
  onClose: () => void;
}) {
  const history = useVersionHistoryQuery(studyId, target);
  const swap = useSwapVersionMutation();
  const [selectedId, setSelectedId] = useState<number | null>(null);

  const close = () => {
    setSelectedId(null);
    swap.reset();
    onClose();
  };

  const source = history.data?._source;
  const current: VersionView | null = source
    ? {
        id: source.current_version_id,
        name: source.current_file,
        date: source.date,
        status: source.status,
        errors: source.errors,
      }
    : null;
  const versions: VersionView[] = source
    ? [...source.file_history].sort((a, b) => Date.parse(b.date) - Date.parse(a.date) || b.id - a.id)
    : [];
  const selected = versions.find((version) => version.id === selectedId) ?? null;
  const selectedFailed = selected?.status === 'failed';

  const revert = () => {
    if (!target || !selected?.id || selectedFailed) return;
    swap.mutate(
      {
        studyId,
        fileName: target.name,
        versionId: selected.id,
        filetype: target.fileType,
        folder: target.folder,
      },
      {
        onSuccess: (answer) => {
          setSelectedId(null);
          showAlert('success', answer.message);
        },
      },
    );
  };

  return (
    <Modal
      opened={target !== null}
      onClose={close}
      title={target ? `Version Control - ${target.name}` : ''}
      size="xl"
      styles={{ title: { overflowWrap: 'anywhere', fontWeight: 600 } }}
    >
      {history.isPending ? (
        <Group gap="xs">
          <Loader size="xs" aria-hidden="true" />
          <Text size="sm" c="dimmed">
            Loading versions…
          </Text>
        </Group>
      ) : history.isError ? (
        <Alert color="red" variant="light">
          The versions of this file could not be loaded.
        </Alert>
      ) : (
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <VersionCard title="Current file" version={current} />
            {versions.length > 0 ? <VersionCard title="Selected file" version={selected} /> : null}
          </SimpleGrid>
          {current && current.errors.length > 0 ? (
            <ErrorDetailsTable errors={current.errors} label="Error details of the current file" />
          ) : null}
          {versions.length === 0 ? (
            <Card withBorder radius="md" padding="md" bg="var(--mantine-color-gray-0)">
              <Text size="sm">{STUDY_MESSAGES.noVersionHistory}</Text>
            </Card>
          ) : (
            <>
              <Radio.Group
                value={selectedId === null ? null : String(selectedId)}
                onChange={(value) => {
                  setSelectedId(Number(value));
                  swap.reset();
                }}
                aria-label="Versions"
              >
                <Table.ScrollContainer minWidth={480} type="native">
                  <Table
                    highlightOnHover
                    withTableBorder
                    fz="sm"
                    verticalSpacing={6}
                    aria-label="Version history"
                  >
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th w={44}>
                          <VisuallyHidden>Select</VisuallyHidden>
                        </Table.Th>
                        <Table.Th>Date</Table.Th>
                        <Table.Th>Time</Table.Th>
                        <Table.Th>Filename</Table.Th>
                        <Table.Th>Status</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {versions.map((version) => {
                        const isSelected = version.id === selectedId;
                        return (
                          <Table.Tr
                            key={version.id}
                            onClick={() => {
                              setSelectedId(version.id);
                              swap.reset();
                            }}
                            aria-selected={isSelected}
                            style={{ cursor: 'pointer' }}
                            bg={isSelected ? 'var(--mantine-primary-color-light)' : undefined}
                          >
                            <Table.Td>
                              <Radio
                                value={String(version.id)}
                                aria-label={`Select ${version.name} of ${day(version.date)} ${time(version.date)}`}
                              />
                            </Table.Td>
                            <Table.Td>{day(version.date)}</Table.Td>
                            <Table.Td>{time(version.date)}</Table.Td>
                            <Table.Td style={{ overflowWrap: 'anywhere' }}>{version.name}</Table.Td>
                            <Table.Td>
                              <StatusBadge status={version.status} />
                            </Table.Td>
                          </Table.Tr>
                        );
                      })}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              </Radio.Group>
              {selected && selected.errors.length > 0 ? (
                <ErrorDetailsTable errors={selected.errors} label="Error details of the selected file" />
              ) : null}
              {isAdmin ? (
                <Stack gap="xs" align="flex-end">
                  {selectedFailed ? (
                    <Text size="sm" c="red.8" id="revert-blocked-reason" ta="right">
                      {FAILED_VERSION_REASON}
                    </Text>
                  ) : null}
                  {swap.isError ? (
                    <Text size="sm" c="red.8" role="alert" ta="right">
                      {swap.error.message}
                    </Text>
                  ) : null}
                  <Button
                    leftSection={<IconArrowBackUp size={18} aria-hidden="true" />}
                    disabled={!selected || selectedFailed}
                    aria-describedby={selectedFailed ? 'revert-blocked-reason' : undefined}
                    loading={swap.isPending}
                    onClick={revert}
                  >
                    Revert
                  </Button>
                </Stack>
              ) : null}
            </>
          )}
        </Stack>
      )}
    </Modal>
  );
}
