import { Alert, Anchor, Button, Card, Group, Loader, Text, Title } from '@mantine/core';
import type { StudyFileError } from '@accord/contracts';
import { IconArrowLeft, IconFolderOpen } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { PageHeader, type Crumb } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { useSession } from '../../../lib/session.ts';
import { useRelatedFilesQuery } from '../api/get-related-files.ts';
import { useStudyQuery } from '../api/get-study.ts';
import { ErrorDetailsModal } from '../components/error-details-modal.tsx';
import { FileTree } from '../components/file-tree.tsx';
import { VersionControlModal, type VersionControlTarget } from '../components/version-control-modal.tsx';

function crumbs(current: string): Crumb[] {
  return [
    { label: 'Home', href: paths.home.href() },
    { label: 'Search', href: paths.search.href() },
    { label: current },
  ];
}

function parseId(raw: string | undefined): number {
  const id = Number(raw);
  return Number.isInteger(id) && id > 0 ? id : 0;
}

/**
 * Route module of /study/{id}/structure: the study group's files as folders and files, with error
 * details, downloads, uploads and version control (document 2 sections 2 and 4).
 */
export function Component() {
  const id = parseId(useParams().id);
  const { permissions } = useSession();
  const tree = useRelatedFilesQuery(id);
  const study = useStudyQuery(id);
  const [versionTarget, setVersionTarget] = useState<VersionControlTarget | null>(null);
  const [errorTarget, setErrorTarget] = useState<{ name: string; errors: StudyFileError[] } | null>(null);

  if (id === 0 || (tree.isError && isApiError(tree.error) && tree.error.status === 404)) {
    return (
      <>
        <PageHeader title="Study not found" breadcrumbs={crumbs('Study not found')} />
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

  const groupName = tree.data?.name ?? study.data?.c_mi_number ?? `Study ${id}`;
  const canDownload = permissions.allowDownload || permissions.isAdmin;
  const folderCount = tree.data?.children.length ?? 0;

  return (
    <>
      <PageHeader
        title={paths.studyStructure.title}
        breadcrumbs={crumbs(groupName)}
        description={study.data ? `${study.data.project_name} · ${study.data.client}` : undefined}
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
      {tree.isPending ? (
        <Group gap="xs">
          <Loader size="xs" aria-hidden="true" />
          <Text size="sm" c="dimmed">
            Loading files…
          </Text>
        </Group>
      ) : tree.isError ? (
        <Alert color="red" variant="light" title="The files of this study could not be loaded.">
          Please try again later.
        </Alert>
      ) : (
        <Card withBorder radius="md" padding={0} component="section" aria-labelledby="study-group-title">
          <Group
            gap="xs"
            px="sm"
            py="sm"
            wrap="nowrap"
            style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
          >
            <IconFolderOpen size={22} aria-hidden="true" style={{ flexShrink: 0 }} />
            <Title order={2} fz="lg" id="study-group-title" style={{ overflowWrap: 'anywhere' }}>
              {tree.data.name}
            </Title>
          </Group>
          {folderCount === 0 ? (
            <Text size="sm" c="dimmed" p="sm">
              This study has no files.
            </Text>
          ) : (
            <FileTree
              root={tree.data}
              actions={{
                studyId: id,
                canDownload,
                isAdmin: permissions.isAdmin,
                onVersionControl: setVersionTarget,
                onErrorDetails: setErrorTarget,
              }}
            />
          )}
        </Card>
      )}
      <VersionControlModal
        studyId={id}
        target={versionTarget}
        isAdmin={permissions.isAdmin}
        onClose={() => setVersionTarget(null)}
      />
      <ErrorDetailsModal target={errorTarget} onClose={() => setErrorTarget(null)} />
    </>
  );
}
