import { Alert, Button, Card, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { STUDIES_UPLOAD_MESSAGES, type FileTreeNode } from '@accord/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { showAlert } from '../../../lib/alerts.ts';
import { formatDateTime } from '../../../lib/format.ts';
import {
  downloadProcessFile,
  fileProcessKeys,
  followTask,
  processStudies,
  replaceFile,
  useFileProcessQuery,
} from '../api/fileprocess.ts';
import { ProcessTree, type ReplaceState } from '../components/process-tree.tsx';
import {
  CONFIRM_MESSAGE,
  CONFIRM_TITLE,
  ProgressModal,
  type ProgressStage,
} from '../components/progress-modal.tsx';
import { StatusBadge } from '../components/status-badge.tsx';

const crumbs = [
  { label: 'Home', href: paths.home.href() },
  { label: paths.studiesUpload.title, href: paths.studiesUpload.href() },
  { label: paths.studiesUploadDetails.title },
];

function issuesOf(nodes: FileTreeNode[]): FileTreeNode['errors'] {
  return nodes.flatMap((node) => [...node.errors, ...issuesOf(node.children ?? [])]);
}

/** Route module of /studies-upload/{id}, Verify Studies: status, file tree, replacements and processing. */
export function Component() {
  const raw = Number(useParams().id);
  const id = Number.isInteger(raw) && raw > 0 ? raw : 0;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const detail = useFileProcessQuery(id);
  const [replacing, setReplacing] = useState<ReplaceState | null>(null);
  const [stage, setStage] = useState<ProgressStage | null>(null);
  const [replaceCmis, setReplaceCmis] = useState<string[]>([]);
  const [asking, setAsking] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: fileProcessKeys.all });

  if (id === 0 || detail.isError)
    return (
      <>
        <PageHeader title={paths.studiesUploadDetails.title} breadcrumbs={crumbs} />
        <Alert color="gray" title="This upload does not exist.">
          <Button mt="sm" variant="default" onClick={() => void navigate(paths.studiesUpload.href())}>
            Back
          </Button>
        </Alert>
      </>
    );
  if (detail.isPending)
    return (
      <>
        <PageHeader title={paths.studiesUploadDetails.title} breadcrumbs={crumbs} />
        <Group gap="sm">
          <Loader size="sm" />
          <Text size="sm">Loading the upload...</Text>
        </Group>
      </>
    );

  const process = detail.data.file_process;
  // The studies whose client, region or year is not the one chosen on the upload form.
  const mismatches = issuesOf(process.file_tree).filter(
    (issue) => issue.high_msg === STUDIES_UPLOAD_MESSAGES.formMismatch,
  );
  const canReplace = process.status === 'ERRORED' && process.file_tree.length > 0;
  // Validated and waiting: the studies differ from the form and go to the library once confirmed.
  const awaitingConfirmation = process.status === 'VALIDATED' && process.message !== null;

  const upload = async () => {
    if (!replacing) return;
    setReplacing({ ...replacing, percent: 0 });
    const sent = await replaceFile(id, replacing.filePath, replacing.file, (percent) =>
      setReplacing((r) => (r ? { ...r, percent } : r)),
    );
    setReplacing(null);
    if (!sent.data) {
      showAlert('danger', sent.message ?? STUDIES_UPLOAD_MESSAGES.failedToSendFile);
      return;
    }
    queryClient.setQueryData(fileProcessKeys.detail(id), sent.data);
    showAlert('success', `Replaced ${replacing.filePath.split('/').pop()}.`, 3000);
  };

  const start = async (confirmForm = false) => {
    const taskId = await processStudies(id, replaceCmis, confirmForm);
    if (!taskId) {
      showAlert('danger', STUDIES_UPLOAD_MESSAGES.failedToProcess);
      return;
    }
    setStage({ kind: 'validation', percent: 0 });
    await followTask(taskId, {
      onProgress: (_status, progress) => setStage({ kind: 'validation', percent: progress }),
      onResult: (result) =>
        setStage(
          result.status === 'VALIDATED' ? { kind: 'confirm', message: CONFIRM_MESSAGE } : { kind: 'done' },
        ),
      onError: (message) => setStage({ kind: 'failed', message }),
    });
    await refresh();
  };

  return (
    <>
      <PageHeader
        title={paths.studiesUploadDetails.title}
        breadcrumbs={crumbs}
        description={
          <Group gap="sm" component="span" wrap="wrap">
            <StatusBadge status={process.status} />
            <Text span size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {process.filename} - {process.client}, {process.region}, {process.year} - uploaded{' '}
              {formatDateTime(process.created_at)}
            </Text>
          </Group>
        }
      />
      {process.message && !awaitingConfirmation && (
        <Alert color={process.status === 'ERRORED' ? 'red' : 'gray'} mb="md" title="Why the upload stopped">
          {process.message}
        </Alert>
      )}
      {mismatches.length > 0 && (
        <Alert color="yellow" mb="md" title="The studies differ from the upload form">
          <Stack gap={2}>
            {mismatches.map((issue, index) => (
              <Text key={index} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {issue.path.file.split('/')[0]}: {issue.msg}
              </Text>
            ))}
            {awaitingConfirmation ? (
              <>
                <Text size="sm" fw={600} mt="xs">
                  {process.message}
                </Text>
                <Group gap="sm" mt={4}>
                  <Button onClick={() => void start(true)} disabled={stage !== null}>
                    Confirm and add to the library
                  </Button>
                </Group>
              </>
            ) : null}
          </Stack>
        </Alert>
      )}
      {process.status === 'SUCCEED' && (
        <Alert color="green" mb="md" title="The studies are in the library">
          {process.study_ids.length} stud{process.study_ids.length === 1 ? 'y was' : 'ies were'} added:{' '}
          {process.cmi}
        </Alert>
      )}
      <Card withBorder padding="md" mb="md">
        {process.file_tree.length === 0 ? (
          <Text size="sm" c="dimmed">
            No files were unpacked from this upload.
          </Text>
        ) : (
          <ProcessTree
            nodes={process.file_tree}
            actions={{
              replacing,
              canReplace,
              onDownload: (node: FileTreeNode) =>
                void downloadProcessFile(id, node.file_path, node.name).catch(() =>
                  showAlert('danger', 'The file could not be downloaded.'),
                ),
              onChoose: (node, file) => setReplacing({ filePath: node.file_path, file, percent: null }),
              onUpload: () => void upload(),
              onCancel: () => setReplacing(null),
              replaceCmis,
              onToggleReplace: (cmi, replace) =>
                setReplaceCmis((chosen) =>
                  replace ? [...chosen.filter((c) => c !== cmi), cmi] : chosen.filter((c) => c !== cmi),
                ),
            }}
          />
        )}
      </Card>
      <Stack>
        <Group justify="space-between">
          <Button variant="default" onClick={() => void navigate(paths.studiesUpload.href())}>
            Back
          </Button>
          <Button
            // Studies that differ from the upload form are added only once the user confirms them.
            onClick={() => (mismatches.length > 0 ? setAsking(true) : void start())}
            disabled={(!process.has_uploaded_new_file && replaceCmis.length === 0) || stage !== null}
          >
            Process Studies
          </Button>
        </Group>
      </Stack>
      <Modal opened={asking} onClose={() => setAsking(false)} title={CONFIRM_TITLE} centered>
        <Stack gap="sm">
          <Text size="sm">
            {mismatches.length === 1 ? 'One difference' : `${mismatches.length} differences`} from the upload
            form ({process.client}, {process.region}, {process.year}):
          </Text>
          <Stack gap={2}>
            {mismatches.map((issue, index) => (
              <Text key={index} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {issue.path.file.split('/')[0]}: {issue.msg}
              </Text>
            ))}
          </Stack>
          <Text size="sm">The studies are added as their request forms describe them.</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setAsking(false)}>
              Cancel
            </Button>
            <Button
              onClick={() => {
                setAsking(false);
                void start(true);
              }}
            >
              Confirm and process
            </Button>
          </Group>
        </Stack>
      </Modal>
      <ProgressModal title="Processing studies" stage={stage} onClose={() => setStage(null)} />
    </>
  );
}
