import '@mantine/dropzone/styles.css';
import {
  ActionIcon,
  Button,
  Card,
  Group,
  Menu,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { STUDIES_UPLOAD_MESSAGES, uploadYears, type FileProcessRow } from '@accord/contracts';
import { IconDots, IconFileZip, IconFolderOpen, IconUpload, IconX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { showAlert } from '../../../lib/alerts.ts';
import { formatDateTime } from '../../../lib/format.ts';
import {
  fileProcessKeys,
  followTask,
  uploadStudies,
  useFileProcessesQuery,
  useUploadOptionsQuery,
} from '../api/fileprocess.ts';
import { CONFIRM_MESSAGE, ProgressModal, type ProgressStage } from '../components/progress-modal.tsx';
import { StatusBadge } from '../components/status-badge.tsx';

const ZIP_TYPES = ['application/zip', 'application/x-zip-compressed', 'application/x-zip', 'multipart/x-zip'];

/** The history's columns (created_at, client, study_type, cmi, year, region, status, actions) in words. */
const HISTORY_HEADINGS = [
  'Uploaded at',
  'Client',
  'Study type',
  'CMI #',
  'Year',
  'Region',
  'Status',
  'Actions',
];

type FormField = 'client' | 'region' | 'year';

function HistoryTable({ rows, onOpen }: { rows: FileProcessRow[]; onOpen(id: number): void }) {
  if (rows.length === 0)
    return (
      <Text c="dimmed" size="sm">
        No studies have been uploaded yet.
      </Text>
    );
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-label="Upload History">
        <Table.Thead>
          <Table.Tr>
            {HISTORY_HEADINGS.map((heading) => (
              <Table.Th key={heading}>{heading}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id}>
              <Table.Td>{formatDateTime(row.created_at)}</Table.Td>
              <Table.Td>{row.client}</Table.Td>
              <Table.Td>{row.study_type || '-'}</Table.Td>
              <Table.Td style={{ maxWidth: 260, overflowWrap: 'anywhere' }}>{row.cmi ?? '-'}</Table.Td>
              <Table.Td>{row.year}</Table.Td>
              <Table.Td>{row.region}</Table.Td>
              <Table.Td>
                <StatusBadge status={row.status} />
              </Table.Td>
              <Table.Td>
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <ActionIcon variant="subtle" color="gray" aria-label={`Actions of upload ${row.id}`}>
                      <IconDots size={18} />
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item leftSection={<IconFolderOpen size={16} />} onClick={() => onOpen(row.id)}>
                      Show files tree
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Route module of /studies-upload: the upload form, its progress modal and the upload history. */
export function Component() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const options = useUploadOptionsQuery();
  const history = useFileProcessesQuery();
  const [client, setClient] = useState<string | null>(null);
  const [region, setRegion] = useState<string | null>(null);
  const [year, setYear] = useState<string | null>(String(new Date().getFullYear()));
  const [file, setFile] = useState<File | null>(null);
  const [uploading, setUploading] = useState(false);
  const [stage, setStage] = useState<ProgressStage | null>(null);
  const [processId, setProcessId] = useState<number | null>(null);
  const openRef = useRef<() => void>(null);
  const [emptyFields, setEmptyFields] = useState<ReadonlySet<FormField>>(new Set());
  // The alert says 'Empty <field>' (document 3); the field itself says what to do, so the same
  // words are not shown twice.
  const fieldError = (field: FormField) => (emptyFields.has(field) ? `Choose a ${field}` : undefined);
  const filled = (field: FormField, set: (value: string | null) => void) => (value: string | null) => {
    set(value);
    if (value) setEmptyFields((fields) => new Set([...fields].filter((f) => f !== field)));
  };
  const years = uploadYears().map(String);

  const start = async () => {
    if (!file) return;
    const empty = (
      [
        ['client', client],
        ['region', region],
        ['year', year],
      ] as const
    ).filter(([, value]) => !value);
    // Each alert's field is marked too, so the message sits on what it names.
    setEmptyFields(new Set(empty.map(([field]) => field)));
    if (empty.length > 0) {
      for (const [field] of empty) showAlert('warning', STUDIES_UPLOAD_MESSAGES.emptyField(field));
      showAlert('warning', STUDIES_UPLOAD_MESSAGES.fillAll);
      return;
    }
    setUploading(true);
    setProcessId(null);
    setStage({ kind: 'upload', percent: 0 });
    const sent = await uploadStudies(
      { client: client ?? '', region: region ?? '', year: year ?? '', study_type: '' },
      file,
      (percent) => setStage({ kind: 'upload', percent }),
    );
    if (!sent.data) {
      setUploading(false);
      setStage(null);
      showAlert('danger', sent.message ?? STUDIES_UPLOAD_MESSAGES.failedToSend);
      return;
    }
    const { task_id, file_process_id } = sent.data;
    setProcessId(file_process_id);
    setStage({ kind: 'validation', percent: 0 });
    await followTask(task_id, {
      onProgress: (_status, progress) => setStage({ kind: 'validation', percent: progress }),
      // A process stopped at VALIDATED waits for the user to confirm the studies' differences from the form.
      onResult: (result) =>
        setStage(
          result.status === 'VALIDATED' ? { kind: 'confirm', message: CONFIRM_MESSAGE } : { kind: 'done' },
        ),
      onError: (message) => setStage({ kind: 'failed', message }),
    });
    setUploading(false);
    setFile(null);
    await queryClient.invalidateQueries({ queryKey: fileProcessKeys.list() });
  };

  return (
    <>
      <PageHeader
        title={paths.studiesUpload.title}
        breadcrumbs={[{ label: 'Home', href: paths.home.href() }, { label: paths.studiesUpload.title }]}
        description="Upload a zip of studies: one folder per study, named by its CMI number (see the data formats)."
      />
      <Card withBorder padding="lg" mb="xl">
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Select
              label="Client"
              placeholder="Choose a client"
              data={options.data?.clients ?? []}
              value={client}
              onChange={filled('client', setClient)}
              error={fieldError('client')}
              searchable
              clearable
            />
            <Select
              label="Region"
              placeholder="Choose a region"
              data={options.data?.regions ?? []}
              value={region}
              onChange={filled('region', setRegion)}
              error={fieldError('region')}
              searchable
              clearable
            />
            <Select
              label="Year"
              placeholder="Choose a year"
              data={years}
              value={year}
              onChange={filled('year', setYear)}
              error={fieldError('year')}
              clearable
            />
          </SimpleGrid>
          <Dropzone
            openRef={openRef}
            onDrop={(files) => setFile(files[0] ?? null)}
            onReject={() => showAlert('warning', 'Choose one zip file.')}
            accept={ZIP_TYPES}
            multiple={false}
            disabled={uploading}
            activateOnClick={false}
            aria-label="Select or drop zip file"
          >
            <Group justify="center" gap="md" mih={110} style={{ pointerEvents: 'none' }}>
              <Dropzone.Accept>
                <IconUpload size={40} color="var(--mantine-color-blue-6)" aria-hidden />
              </Dropzone.Accept>
              <Dropzone.Reject>
                <IconX size={40} color="var(--mantine-color-red-6)" aria-hidden />
              </Dropzone.Reject>
              <Dropzone.Idle>
                <IconFileZip size={40} color="var(--mantine-color-dimmed)" aria-hidden />
              </Dropzone.Idle>
              <Stack gap={4} align="center">
                <Text size="lg">Select or drop zip file</Text>
                <Text size="sm" c="dimmed" ta="center" style={{ overflowWrap: 'anywhere' }}>
                  {file ? `Chosen: ${file.name}` : 'One zip file; a new choice replaces the old one.'}
                </Text>
              </Stack>
            </Group>
          </Dropzone>
          <Group justify="space-between" wrap="wrap">
            <Group gap="sm">
              <Button variant="default" onClick={() => openRef.current?.()} disabled={uploading}>
                Select zip file
              </Button>
              <Button variant="default" onClick={() => setFile(null)} disabled={!file || uploading}>
                Clear files
              </Button>
            </Group>
            <Button onClick={() => void start()} disabled={!file || uploading} loading={uploading}>
              Next
            </Button>
          </Group>
        </Stack>
      </Card>

      <Title order={2} size="h3" mb="sm">
        Upload History
      </Title>
      {history.isPending ? (
        <Text c="dimmed" size="sm">
          Loading the upload history...
        </Text>
      ) : (
        <HistoryTable
          rows={history.data ?? []}
          onOpen={(id) => void navigate(paths.studiesUploadDetails.href(id))}
        />
      )}

      <ProgressModal
        title="Uploading files"
        stage={stage}
        onClose={() => setStage(null)}
        onViewTree={
          processId !== null && (stage?.kind === 'failed' || stage?.kind === 'confirm')
            ? () => void navigate(paths.studiesUploadDetails.href(processId))
            : undefined
        }
      />
    </>
  );
}
