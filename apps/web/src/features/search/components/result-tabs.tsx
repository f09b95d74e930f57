import { Badge, Button, Group, Loader, Paper, Tabs, Text, Tooltip } from '@mantine/core';
import { MESSAGES, type PageInfo, type SearchCounts, type StudySearchQuery } from '@accord/contracts';
import { IconDownload, IconEdit } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { showAlert } from '../../../lib/alerts.ts';
import { useDownloadFragrancesMutation } from '../api/download-fragrances.ts';
import { useDownloadStudySummariesMutation } from '../api/download-study-summaries.ts';
import { useConceptsQuery } from '../api/get-concepts.ts';
import { useFragrancesQuery } from '../api/get-fragrances.ts';
import { useSearchFilesQuery, type FileResultTab } from '../api/get-search-files.ts';
import { useStudySummariesQuery } from '../api/get-study-summaries.ts';
import type { ResultPageParams, ResultSort, ResultTab } from '../api/keys.ts';
import type { ResultPage, ResultQueryOptions } from '../api/result-page.ts';
import { CONCEPT_COLUMNS, FILE_COLUMNS, FRAGRANCE_COLUMNS, SUMMARY_COLUMNS } from './result-columns.tsx';
import { ResultTable, type ResultColumn, type RowSelection } from './result-table.tsx';

interface TabDefinition {
  value: ResultTab;
  label: string;
  tooltip?: string;
  adminOnly?: boolean;
}

/** The result tabs in the order of document 2 section 2; file tabs explain themselves in a tooltip. */
export const RESULT_TABS: TabDefinition[] = [
  { value: 'summaries', label: 'Study summaries' },
  { value: 'fragrances', label: 'Fragrances' },
  // Document 2 restricts only the Concept Details filter tab; the server scopes the rows to the user.
  { value: 'concepts', label: 'Concepts' },
  { value: 'screener', label: 'Screeners', tooltip: 'Screening questionnaires used to recruit respondents' },
  { value: 'questionnaire', label: 'Questionnaires', tooltip: 'Survey questionnaires put to respondents' },
  { value: 'protocol', label: 'Protocols', tooltip: 'Study protocols: objectives, design and procedure' },
  { value: 'RDF_report', label: 'Results/Reports', tooltip: 'Results data files (RDF) and study reports' },
];

export function isResultTab(value: string | null, isAdmin: boolean): value is ResultTab {
  return RESULT_TABS.some((tab) => tab.value === value && (!tab.adminOnly || isAdmin));
}

interface Paging {
  page: number;
  perPage: number;
  sort?: ResultSort;
}

const FIRST_PAGE: Paging = { page: 1, perPage: 10 };

/** Multi-study edit (admins): Edit shows checkboxes; the button then reads Cancel or 'Edit N studies'. */
function SelectionButton({
  selecting,
  count,
  onStart,
  onCancel,
  onConfirm,
}: {
  selecting: boolean;
  count: number;
  onStart: () => void;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  if (!selecting) {
    return (
      <Button
        variant="default"
        size="xs"
        leftSection={<IconEdit size={14} aria-hidden="true" />}
        onClick={onStart}
      >
        Edit
      </Button>
    );
  }
  if (count === 0) {
    return (
      <Button variant="default" size="xs" onClick={onCancel}>
        Cancel
      </Button>
    );
  }
  return (
    <Group gap="xs">
      <Button size="xs" leftSection={<IconEdit size={14} aria-hidden="true" />} onClick={onConfirm}>
        {count === 1 ? 'Edit 1 study' : `Edit ${count} studies`}
      </Button>
      <Button variant="subtle" size="xs" onClick={onCancel} aria-label="Leave edit mode">
        Cancel
      </Button>
    </Group>
  );
}

function Panel<Row>({
  label,
  params,
  useRows,
  options,
  columns,
  rowKey,
  rowLabel,
  studyIdOf,
  onPaging,
  selection,
  toolbar,
}: {
  label: string;
  params: ResultPageParams;
  useRows: (
    params: ResultPageParams | null,
    options: ResultQueryOptions,
  ) => { data?: ResultPage<Row>; isFetching: boolean };
  options: ResultQueryOptions;
  columns: ResultColumn<Row>[];
  rowKey: (row: Row) => number;
  rowLabel: (row: Row) => string;
  studyIdOf: (row: Row) => number;
  onPaging: (paging: Paging) => void;
  selection: RowSelection | null;
  toolbar: ReactNode;
}) {
  const result = useRows(params, options);
  const pageInfo: PageInfo | undefined = result.data?.pageInfo;
  return (
    <>
      {toolbar ? (
        <Group justify="flex-end" gap="xs" mb="sm">
          {toolbar}
        </Group>
      ) : null}
      <ResultTable
        label={label}
        columns={columns}
        rows={result.data?.rows}
        loading={result.isFetching}
        pageInfo={pageInfo}
        perPage={params.perPage}
        onPage={(page) => onPaging({ page, perPage: params.perPage, sort: params.sort })}
        onPerPage={(perPage) => onPaging({ page: 1, perPage, sort: params.sort })}
        sort={params.sort}
        onSort={(sort) => onPaging({ page: 1, perPage: params.perPage, sort })}
        rowKey={rowKey}
        rowLabel={rowLabel}
        studyIdOf={studyIdOf}
        selection={selection}
      />
    </>
  );
}

/**
 * The result tabs with their count badges. A tab's rows are fetched when it is activated and are
 * cached (per filters and page) unless the screen was opened with no_cache.
 */
export function ResultTabs({
  query,
  counts,
  countsLoading,
  tab,
  onTabChange,
  isAdmin,
  allowDownload,
  noCache,
  onEditStudies,
}: {
  query: StudySearchQuery;
  counts: SearchCounts | undefined;
  countsLoading: boolean;
  tab: ResultTab;
  onTabChange: (tab: ResultTab) => void;
  isAdmin: boolean;
  allowDownload: boolean;
  noCache: boolean;
  onEditStudies: (studyIds: number[]) => void;
}) {
  const [paging, setPaging] = useState<Partial<Record<ResultTab, Paging>>>({});
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const downloadStudies = useDownloadStudySummariesMutation();
  const downloadFragrances = useDownloadFragrancesMutation();
  const tabs = RESULT_TABS.filter((definition) => !definition.adminOnly || isAdmin);
  const options: ResultQueryOptions = { enabled: true, noCache };

  const paramsOf = (value: ResultTab): ResultPageParams => ({ query, ...(paging[value] ?? FIRST_PAGE) });
  const pagingOf = (value: ResultTab) => (next: Paging) =>
    setPaging((current) => ({ ...current, [value]: next }));

  const leaveSelection = () => {
    setSelecting(false);
    setSelected(new Set());
  };
  const selection: RowSelection | null =
    isAdmin && selecting
      ? {
          selected,
          toggle: (studyId) =>
            setSelected((current) => {
              const next = new Set(current);
              if (next.has(studyId)) next.delete(studyId);
              else next.add(studyId);
              return next;
            }),
          setMany: (studyIds, checked) =>
            setSelected((current) => {
              const next = new Set(current);
              for (const id of studyIds) {
                if (checked) next.add(id);
                else next.delete(id);
              }
              return next;
            }),
        }
      : null;

  const download = (run: () => Promise<void>) => {
    run().catch(() => showAlert('danger', MESSAGES.downloadFailure));
  };

  const selectionButton = isAdmin ? (
    <SelectionButton
      selecting={selecting}
      count={selected.size}
      onStart={() => setSelecting(true)}
      onCancel={leaveSelection}
      onConfirm={() => {
        onEditStudies([...selected]);
        leaveSelection();
      }}
    />
  ) : null;

  const downloadButton = (label: string, pending: boolean, run: () => Promise<void>) =>
    allowDownload ? (
      <Button
        variant="light"
        size="xs"
        leftSection={<IconDownload size={14} aria-hidden="true" />}
        loading={pending}
        onClick={() => download(run)}
      >
        {label}
      </Button>
    ) : null;

  const renderPanel = (value: ResultTab) => {
    switch (value) {
      case 'summaries':
        return (
          <Panel
            label="Study summaries"
            params={paramsOf(value)}
            useRows={useStudySummariesQuery}
            options={options}
            columns={SUMMARY_COLUMNS}
            rowKey={(row) => row.id}
            rowLabel={(row) => row.c_mi_number}
            studyIdOf={(row) => row.id}
            onPaging={pagingOf(value)}
            selection={selection}
            toolbar={
              <>
                {selectionButton}
                {downloadButton('Download study summaries', downloadStudies.isPending, () =>
                  downloadStudies.mutateAsync({ q: query }),
                )}
              </>
            }
          />
        );
      case 'fragrances':
        return (
          <Panel
            label="Fragrances"
            params={paramsOf(value)}
            useRows={useFragrancesQuery}
            options={options}
            columns={FRAGRANCE_COLUMNS}
            rowKey={(row) => row.id}
            rowLabel={(row) => `${row.name} (${row.c_mi_number})`}
            studyIdOf={(row) => row.study_id}
            onPaging={pagingOf(value)}
            selection={selection}
            toolbar={
              <>
                {selectionButton}
                {downloadButton('Download fragrances', downloadFragrances.isPending, () =>
                  downloadFragrances.mutateAsync({ q: query, type: 'fragrance' }),
                )}
              </>
            }
          />
        );
      case 'concepts':
        return (
          <Panel
            label="Concepts"
            params={paramsOf(value)}
            useRows={useConceptsQuery}
            options={options}
            columns={CONCEPT_COLUMNS}
            rowKey={(row) => row.id}
            rowLabel={(row) => `${row.name} (${row.c_mi_number})`}
            studyIdOf={(row) => row.study_id}
            onPaging={pagingOf(value)}
            selection={selection}
            toolbar={
              <>
                {selectionButton}
                {downloadButton('Download concepts', downloadFragrances.isPending, () =>
                  downloadFragrances.mutateAsync({ q: query, type: 'concept' }),
                )}
              </>
            }
          />
        );
      default:
        return (
          <FilePanel fileType={value} {...{ paramsOf, pagingOf, options, selection, selectionButton }} />
        );
    }
  };

  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      component="section"
      aria-labelledby="results-title"
    >
      <Group justify="space-between" mb="sm">
        <Text component="h2" fw={700} size="lg" id="results-title">
          Results
        </Text>
        {countsLoading ? <Loader size="xs" role="status" aria-label="Counting results" /> : null}
      </Group>
      <Tabs
        value={tab}
        onChange={(value) => {
          if (value && isResultTab(value, isAdmin)) {
            leaveSelection();
            onTabChange(value);
          }
        }}
        keepMounted={false}
      >
        <Tabs.List style={{ flexWrap: 'wrap' }}>
          {tabs.map((definition) => {
            const count = counts?.[definition.value];
            const control = (
              <Tabs.Tab
                key={definition.value}
                value={definition.value}
                rightSection={
                  <Badge
                    size="sm"
                    variant={tab === definition.value ? 'filled' : 'light'}
                    color="plum"
                    circle={false}
                  >
                    {count ?? '…'}
                  </Badge>
                }
              >
                {definition.label}
              </Tabs.Tab>
            );
            return definition.tooltip ? (
              <Tooltip key={definition.value} label={definition.tooltip} withArrow openDelay={300}>
                {control}
              </Tooltip>
            ) : (
              control
            );
          })}
        </Tabs.List>
        {tabs.map((definition) => (
          <Tabs.Panel key={definition.value} value={definition.value} pt="md">
            {renderPanel(definition.value)}
          </Tabs.Panel>
        ))}
      </Tabs>
    </Paper>
  );
}

function FilePanel({
  fileType,
  paramsOf,
  pagingOf,
  options,
  selection,
  selectionButton,
}: {
  fileType: FileResultTab;
  paramsOf: (tab: ResultTab) => ResultPageParams;
  pagingOf: (tab: ResultTab) => (paging: Paging) => void;
  options: ResultQueryOptions;
  selection: RowSelection | null;
  selectionButton: ReactNode;
}) {
  const useRows = (params: ResultPageParams | null, queryOptions: ResultQueryOptions) =>
    useSearchFilesQuery(fileType, params, queryOptions);
  const label = RESULT_TABS.find((tab) => tab.value === fileType)?.label ?? fileType;
  return (
    <Panel
      label={label}
      params={paramsOf(fileType)}
      useRows={useRows}
      options={options}
      columns={FILE_COLUMNS}
      rowKey={(row) => row.id}
      rowLabel={(row) => `${row.file_name} (${row.c_mi_number})`}
      studyIdOf={(row) => row.study_id}
      onPaging={pagingOf(fileType)}
      selection={selection}
      toolbar={selectionButton}
    />
  );
}
