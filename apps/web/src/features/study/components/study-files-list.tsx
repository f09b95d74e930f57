import { Alert, Anchor, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { IconDownload, IconFolderOpen } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { useStudyFilesQuery } from '../api/get-study-files.ts';
import { downloadName, useDownloadStudyFileMutation } from '../api/download-study-file.ts';

/** The study's related files, and the way to the files page (folders, uploads, version control). */
export function StudyFilesList({ studyId, canDownload }: { studyId: number; canDownload: boolean }) {
  return (
    <Stack gap="sm">
      <FilesTable studyId={studyId} canDownload={canDownload} />
      <Anchor component={Link} to={paths.studyStructure.href(studyId)} size="sm">
        <Group gap={4} wrap="nowrap" component="span">
          <IconFolderOpen size={16} aria-hidden="true" />
          Open the files page
        </Group>
      </Anchor>
    </Stack>
  );
}

/** The study's related files: name and type, with a download link for users who may download. */
function FilesTable({ studyId, canDownload }: { studyId: number; canDownload: boolean }) {
  const files = useStudyFilesQuery(studyId);
  const download = useDownloadStudyFileMutation();

  if (files.isPending) {
    return (
      <Group gap="xs">
        <Loader size="xs" aria-hidden="true" />
        <Text size="sm" c="dimmed">
          Loading files…
        </Text>
      </Group>
    );
  }
  if (files.isError) {
    return (
      <Alert color="red" variant="light">
        The files of this study could not be loaded.
      </Alert>
    );
  }
  if (files.data.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        This study has no files.
      </Text>
    );
  }
  return (
    <Table withTableBorder verticalSpacing="xs" fz="sm" aria-label="Related files">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>Type</Table.Th>
          {canDownload ? <Table.Th>Download</Table.Th> : null}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {files.data.map((file) => (
          <Table.Tr key={file.id}>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{file.name}</Table.Td>
            <Table.Td>
              <Stack gap={0}>
                <span>{file.category}</span>
                <Text span size="xs" c="dimmed">
                  {file.extension.replace(/^\./, '').toUpperCase()}
                </Text>
              </Stack>
            </Table.Td>
            {canDownload ? (
              <Table.Td>
                <Anchor
                  component="button"
                  type="button"
                  size="sm"
                  aria-label={`Download ${downloadName(file)}`}
                  disabled={download.isPending}
                  onClick={() => download.mutate({ studyId, file })}
                >
                  <Group gap={4} wrap="nowrap">
                    <IconDownload size={16} aria-hidden="true" />
                    Download
                  </Group>
                </Anchor>
              </Table.Td>
            ) : null}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
