import { Alert, Anchor, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconHistory, IconListDetails } from '@tabler/icons-react';
import type { KeyboardEvent, ReactNode } from 'react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { FullPageLoader } from '../../../components/full-page-loader.tsx';
import { PageHeader, type Crumb } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { useSession } from '../../../lib/session.ts';
import { useStudyOptionsQuery } from '../api/get-study-options.ts';
import { useStudyQuery } from '../api/get-study.ts';
import { DetailsCards, fieldsInCards } from '../components/details-cards.tsx';
import { DetailsEditBar } from '../components/details-edit-bar.tsx';
import { ConceptsTable } from '../components/concepts-table.tsx';
import { FragranceTable } from '../components/fragrance-table.tsx';
import { HISTORY_TITLES, HistoryModal, type HistoryType } from '../components/history-modal.tsx';
import { StudyFilesList } from '../components/study-files-list.tsx';
import { StudyTags } from '../components/study-tags.tsx';
import { useDetailsEdit, type DetailsEdit } from '../hooks/use-details-edit.ts';

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

/** A titled block of the page that links can jump to (#fragrance, #concepts, #files). */
function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="md" component="section" id={id} aria-labelledby={`${id}-title`}>
      <Title order={2} fz="lg" mb="sm" id={`${id}-title`}>
        {title}
      </Title>
      {children}
    </Card>
  );
}

function StudyNotFound() {
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

/**
 * Keys of the details edit: Enter saves, Escape cancels (document 2 section 4). An open option list
 * keeps its own use of both keys.
 */
function editKeys(edit: DetailsEdit) {
  return (event: KeyboardEvent<HTMLDivElement>) => {
    if (!edit.editing || event.defaultPrevented || event.nativeEvent.isComposing) return;
    const target = event.target as HTMLElement;
    if (target.getAttribute('aria-expanded') === 'true') return;
    if (event.key === 'Escape') {
      event.preventDefault();
      edit.cancel();
    } else if (event.key === 'Enter' && target instanceof HTMLInputElement) {
      event.preventDefault();
      void edit.save();
    }
  };
}

/** Route module of /study/{id}: the study details, edited by admins (document 2 sections 2 and 4). */
export function Component() {
  const id = parseId(useParams().id);
  const { permissions } = useSession();
  const study = useStudyQuery(id);
  const [history, setHistory] = useState<HistoryType | null>(null);
  const options = useStudyOptionsQuery(permissions.isAdmin && id > 0);
  const edit = useDetailsEdit(id, study.data?.details, options.data?.metadata);

  if (id === 0 || (study.isError && isApiError(study.error) && study.error.status === 404)) {
    return <StudyNotFound />;
  }
  if (study.isError) {
    return (
      <>
        <PageHeader title={paths.studyDetails.title} breadcrumbs={crumbs(`Study ${id}`)} />
        <Alert color="red" variant="light" title="The study could not be loaded.">
          Please try again later.
        </Alert>
      </>
    );
  }
  if (study.isPending) return <FullPageLoader minHeight="50vh" />;

  const data = study.data;
  const showVerified = permissions.isAdmin || permissions.canAccessAnalytics;

  return (
    <>
      <PageHeader
        title={data.project_name}
        breadcrumbs={crumbs(data.c_mi_number)}
        description={`${data.client} · CMI # ${data.c_mi_number}`}
        actions={
          showVerified && !edit.editing ? (
            <Badge size="lg" variant="light" color={data.verified ? 'green' : 'gray'}>
              {data.verified ? 'Verified' : 'Not verified'}
            </Badge>
          ) : null
        }
      />
      <Stack gap="lg">
        {data.has_questions || permissions.isAdmin ? (
          <Group gap="sm" wrap="wrap">
            {data.has_questions ? (
              <Button
                component={Link}
                to={paths.studyMapping.href(data.id)}
                variant="light"
                leftSection={<IconListDetails size={18} aria-hidden="true" />}
              >
                Mapping to questions
              </Button>
            ) : null}
            {permissions.isAdmin
              ? (Object.keys(HISTORY_TITLES) as HistoryType[]).map((type) => (
                  <Button
                    key={type}
                    variant="default"
                    leftSection={<IconHistory size={18} aria-hidden="true" />}
                    onClick={() => setHistory(type)}
                  >
                    {HISTORY_TITLES[type]}
                  </Button>
                ))
              : null}
          </Group>
        ) : null}
        {permissions.isAdmin ? (
          <Stack gap="sm" onKeyDown={editKeys(edit)}>
            <DetailsEditBar edit={edit} ready={options.isSuccess} unavailable={options.isError} />
            <DetailsCards details={data.details} edit={edit} />
          </Stack>
        ) : (
          <DetailsCards details={data.details} />
        )}
        <Section id="tags" title="Tags">
          <StudyTags
            studyId={data.id}
            tags={data.tags}
            shownAbove={fieldsInCards(data.details)}
            definitions={options.data?.metadata}
            canAdd={permissions.isAdmin}
            addDisabled={edit.editing}
          />
        </Section>
        <Section id="fragrance" title="Fragrance Details">
          <FragranceTable
            studyId={data.id}
            rows={data.perfume_characteristics}
            canEdit={permissions.isAdmin}
          />
        </Section>
        <Section id="concepts" title="Concepts">
          <ConceptsTable studyId={data.id} rows={data.concepts} canEdit={permissions.isAdmin} />
        </Section>
        <Section id="files" title="Related Files">
          <StudyFilesList studyId={data.id} canDownload={permissions.allowDownload || permissions.isAdmin} />
        </Section>
      </Stack>
      {permissions.isAdmin ? (
        <HistoryModal
          studyId={data.id}
          type={history}
          onClose={() => setHistory(null)}
          labels={Object.fromEntries(
            (options.data?.metadata ?? []).map((definition) => [definition.field, definition.label]),
          )}
        />
      ) : null}
    </>
  );
}
