import { Box, Button, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { CICS_MESSAGES, type SavedSearch } from '@accord/contracts';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useBlocker, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/page-header.tsx';
import { SaveOrDiscardModal } from '../../../components/saved-searches/save-or-discard-modal.tsx';
import { SaveSearchBox } from '../../../components/saved-searches/save-search-box.tsx';
import {
  SavedSearchesPanel,
  SavedSearchesTab,
} from '../../../components/saved-searches/saved-searches-panel.tsx';
import { useSaveSearch } from '../../../components/saved-searches/use-save-search.ts';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { useDeleteSavedSearchMutation, useSavedSearchesQuery } from '../../../lib/api/saved-searches.ts';
import { useSession } from '../../../lib/session.ts';
import { useCicsOptionsQuery } from '../api/get-cics-options.ts';
import { useQuestionStatisticsQuery } from '../api/inspect-question.ts';
import { useQuestionSearchQuery } from '../api/search-questions.ts';
import { CicsFilterCard } from '../components/cics-filter-card.tsx';
import { QuestionResults } from '../components/question-results.tsx';
import { QuestionStatistics } from '../components/question-statistics.tsx';
import {
  defaultCicsFilters,
  fromSavedFilters,
  inspectFilter,
  isCicsEmpty,
  searchTerms,
  summaryLines,
  toSavedFilters,
  type CicsScreenFilters,
} from '../utils/filters.ts';

const PANEL_ID = 'saved-cics-panel';

function flag(params: URLSearchParams, name: string): boolean {
  const value = params.get(name);
  return value !== null && value !== 'false' && value !== '0';
}

/** Route module of /cics: the CICS question search (document 2 section 2, "CICS screen"). */
export function Component() {
  const { user } = useSession();
  const [params] = useSearchParams();
  const allowLocationChange = flag(params, 'allowLocationChange');

  const options = useCicsOptionsQuery();
  const [filters, setFilters] = useState<CicsScreenFilters>(defaultCicsFilters);
  const [applied, setApplied] = useState<CicsScreenFilters | null>(null);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<number | null>(null);
  const [queryError, setQueryError] = useState<string | null>(null);
  const [pendingNew, setPendingNew] = useState(false);
  const [savedOpen, setSavedOpen] = useState(false);
  const statsRef = useRef<HTMLDivElement>(null);

  const hasFilters = !isCicsEmpty(filters);
  const terms = useMemo(() => (applied ? searchTerms(applied) : null), [applied]);
  const respondentFilter = useMemo(() => inspectFilter(applied ?? defaultCicsFilters()), [applied]);
  const results = useQuestionSearchQuery(terms, respondentFilter, page);
  const statistics = useQuestionStatisticsQuery(selected, respondentFilter);

  const saved = useSavedSearchesQuery(user?.id ?? null, 'cics');
  const removeSaved = useDeleteSavedSearchMutation();
  const saving = useSaveSearch({
    userId: user?.id ?? null,
    filters: toSavedFilters(filters),
    isEmpty: !hasFilters,
    savedCount: saved.data?.length ?? 0,
    type: 'cics',
  });

  const runSearch = (next: CicsScreenFilters = filters) => {
    if (searchTerms(next).length === 0) {
      setQueryError(CICS_MESSAGES.emptyQuery);
      return;
    }
    setQueryError(null);
    setApplied(next);
    setPage(1);
    setSelected(null);
  };

  const clearSearch = () => {
    saving.clearFeedback();
    setFilters(defaultCicsFilters());
    setApplied(null);
    setSelected(null);
    setPage(1);
    setQueryError(null);
  };

  // Leaving with filters set (and without allowLocationChange) asks first; login passes.
  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    if (!hasFilters || allowLocationChange) return false;
    if (currentLocation.pathname === nextLocation.pathname) return false;
    if (nextLocation.pathname.startsWith(paths.login.route)) return false;
    const state = nextLocation.state as { allowLocationChange?: boolean } | null;
    return !state?.allowLocationChange;
  });
  const leaving = blocker.state === 'blocked';

  const applySaved = (search: SavedSearch) => {
    const next = fromSavedFilters(search.metadata_query);
    setFilters(next);
    setSavedOpen(false);
    runSearch(next);
  };

  const select = useCallback((id: number) => {
    setSelected(id);
    // On narrow screens the statistics sit under the list: bring them into view.
    if (window.matchMedia('(max-width: 74.99em)').matches)
      window.setTimeout(() => statsRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' }), 50);
  }, []);
  const appliedLines = useMemo(() => (applied ? summaryLines(applied) : []), [applied]);

  const statsError =
    statistics.error instanceof ApiError
      ? statistics.error.message
      : statistics.error
        ? 'Something went wrong, please try again later.'
        : null;

  return (
    <Box pr={{ base: 28, sm: 36 }}>
      <PageHeader
        title={paths.cics.title}
        breadcrumbs={[{ label: 'Home', href: paths.home.href() }, { label: paths.cics.title }]}
      />
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
          <Group gap="sm" wrap="wrap">
            <Button leftSection={<IconSearch size={16} aria-hidden="true" />} onClick={() => runSearch()}>
              Search
            </Button>
            {applied !== null ? (
              <Button
                variant="default"
                leftSection={<IconPlus size={16} aria-hidden="true" />}
                onClick={() => (hasFilters ? setPendingNew(true) : clearSearch())}
              >
                New search
              </Button>
            ) : null}
          </Group>
          <SaveSearchBox
            disabled={!hasFilters}
            saving={saving.saving && !pendingNew && !leaving}
            feedback={pendingNew || leaving ? null : saving.feedback}
            onClearFeedback={saving.clearFeedback}
            onSave={saving.save}
          />
        </Group>
        <CicsFilterCard
          filters={filters}
          onChange={(next) => {
            setFilters(next);
            if (queryError) setQueryError(null);
          }}
          options={options.data}
          onSubmit={() => runSearch()}
        />
        {queryError ? (
          <Text c="red.9" size="sm" role="alert">
            {queryError}
          </Text>
        ) : null}

        {applied === null ? (
          <Paper withBorder radius="md" p="md">
            <Text c="dimmed" size="sm">
              Enter a question text on the Question tab and press Search. Choose a question to see its answer
              statistics for the geography, gender and age you set.
            </Text>
          </Paper>
        ) : (
          <Grid gap="md" align="flex-start">
            <Grid.Col span={{ base: 12, lg: 5 }}>
              <QuestionResults
                data={results.data}
                loading={results.isFetching}
                selectedId={selected}
                onSelect={select}
                page={page}
                onPageChange={setPage}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 7 }}>
              <Paper
                withBorder
                radius="md"
                p={{ base: 'sm', sm: 'md' }}
                component="section"
                aria-labelledby="cics-statistics-title"
                ref={statsRef}
                style={{ scrollMarginTop: 72 }}
              >
                <Title order={2} size="h4" id="cics-statistics-title" mb="sm">
                  Answer statistics
                </Title>
                {selected === null ? (
                  <Text c="dimmed" size="sm">
                    Choose a question to see its answers.
                  </Text>
                ) : (
                  <QuestionStatistics
                    data={statistics.data}
                    loading={statistics.isFetching}
                    error={statsError}
                    filters={appliedLines}
                  />
                )}
              </Paper>
            </Grid.Col>
          </Grid>
        )}
      </Stack>

      <SavedSearchesTab
        opened={savedOpen}
        onToggle={() => setSavedOpen((value) => !value)}
        title={CICS_MESSAGES.savedTitle}
        panelId={PANEL_ID}
      />
      <SavedSearchesPanel
        opened={savedOpen}
        onClose={() => setSavedOpen(false)}
        searches={saved.data}
        loading={saved.isLoading}
        summarise={(search) => summaryLines(fromSavedFilters(search.metadata_query))}
        onApply={applySaved}
        onDelete={(search) =>
          user && removeSaved.mutate({ userId: user.id, searchId: search.id, type: 'cics' })
        }
        deletingId={removeSaved.isPending ? (removeSaved.variables?.searchId ?? null) : null}
        title={CICS_MESSAGES.savedTitle}
        panelId={PANEL_ID}
      />
      <SaveOrDiscardModal
        opened={pendingNew || leaving}
        onNo={() => {
          if (leaving) blocker.proceed?.();
          else {
            setPendingNew(false);
            clearSearch();
          }
        }}
        onCancel={() => {
          saving.clearFeedback();
          if (leaving) blocker.reset?.();
          else setPendingNew(false);
        }}
        onSave={async (name) => {
          const ok = await saving.save(name);
          if (!ok) return false;
          if (leaving) blocker.proceed?.();
          else {
            setPendingNew(false);
            clearSearch();
          }
          return true;
        }}
        saving={saving.saving}
        feedback={pendingNew || leaving ? saving.feedback : null}
        onClearFeedback={saving.clearFeedback}
      />
    </Box>
  );
}
