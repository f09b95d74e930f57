import { Alert, Box, Button, List, Stack, Text } from '@mantine/core';
import type { SavedSearch, StudySearchQuery } from '@accord/contracts';
import { IconChartBar, IconLinkOff } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../../components/page-header.tsx';
import { SearchToolbar } from '../../../components/saved-searches/search-toolbar.tsx';
import { useSaveOrDiscard } from '../../../components/saved-searches/use-save-or-discard.ts';
import { paths } from '../../../config/paths.ts';
import { useFieldsQuery } from '../../../lib/api/get-fields.ts';
import { useSession } from '../../../lib/session.ts';
import { useDeleteSavedSearchMutation } from '../api/delete-saved-search.ts';
import { useDropdownOptionsQuery } from '../api/dropdown-options.ts';
import { useSavedSearchesQuery } from '../api/get-saved-searches.ts';
import type { ResultTab } from '../api/keys.ts';
import { useSearchCountsQuery } from '../api/search-counts.ts';
import { BulkEditModal } from '../components/bulk-edit-modal.tsx';
import { FilterCard } from '../components/filter-card.tsx';
import { isResultTab, ResultTabs } from '../components/result-tabs.tsx';
import { SaveOrDiscardModal } from '../components/save-or-discard-modal.tsx';
import { SavedSearchesPanel, SavedSearchesTab } from '../components/saved-searches-panel.tsx';
import { useDebouncedValue } from '@mantine/hooks';
import { useFilterOptions } from '../hooks/use-filter-options.ts';
import { useSaveSearch } from '../hooks/use-save-search.ts';
import { useScreenParams } from '../hooks/use-screen-params.ts';
import {
  compactFilters,
  defaultFilters,
  filterTags,
  isQueryEmpty,
  parseFiltersText,
  readLinkedFilters,
  removeTag,
  type SearchFilters,
} from '../utils/filters.ts';

/**
 * Document 2 sections 2, 4 and 9: the filter panel collapses 0.8 s after the screen first opens (and
 * after a search starts); the page scrolls to the bottom 1 s after a search starts.
 */
const COLLAPSE_DELAY_MS = 800;
const SCROLL_DELAY_MS = 1000;
const OPTIONS_DEBOUNCE_MS = 300;

export const LINK_PROBLEM_TITLE = 'Part of this link could not be used';

const DEFAULT_SUBTITLE =
  'What are you looking for today? Select the appropriate tab to specify search criteria.';

function flag(params: URLSearchParams, name: string): boolean {
  const value = params.get(name);
  return value !== null && value !== 'false' && value !== '0';
}

/** Route module of /search: the study search (document 2 section 2, "Study search screen"). */
export function Component() {
  const { user, permissions } = useSession();
  const isAdmin = permissions.isAdmin;
  const navigate = useNavigate();
  const [params, updateParams] = useScreenParams();
  const noCache = params.has('no_cache');
  const allowLocationChange = flag(params, 'allowLocationChange');
  const header = params.get('header');

  const fields = useFieldsQuery();
  const years = fields.data?.years ?? null;

  // A bookmarked link may hold a filter the search refuses (too long): it is left out and said.
  const [linked] = useState(() => readLinkedFilters(params.get('q')));
  const [linkProblems, setLinkProblems] = useState<string[]>(linked.problems);
  const [filters, setFilters] = useState<SearchFilters>(linked.filters);
  const [applied, setApplied] = useState<StudySearchQuery | null>(null);
  const [expanded, setExpanded] = useState(true);
  const [savedOpen, setSavedOpen] = useState(false);
  const [editing, setEditing] = useState<number[] | null>(null);
  const timers = useRef<number[]>([]);

  const query = useMemo(() => compactFilters(filters, { isAdmin, years }), [filters, isAdmin, years]);
  const queryText = JSON.stringify(query);
  const hasFilters = !isQueryEmpty(query);
  const tags = useMemo(() => filterTags(query, years), [query, years]);

  const [optionsQuery] = useDebouncedValue(query, OPTIONS_DEBOUNCE_MS);
  const options = useDropdownOptionsQuery(optionsQuery);
  const optionsOf = useFilterOptions(options.data, fields.data);

  const counts = useSearchCountsQuery(applied, { noCache });
  const saved = useSavedSearchesQuery(user?.id ?? null);
  const removeSaved = useDeleteSavedSearchMutation();
  const saving = useSaveSearch({ userId: user?.id ?? null, query, savedCount: saved.data?.length ?? 0 });

  const tabParam = params.get('tab');
  const tab: ResultTab = isResultTab(tabParam, isAdmin) ? tabParam : 'summaries';

  // The filters live in the URL, so a search can be shared, bookmarked and restored on reload.
  useEffect(() => {
    updateParams((next) => {
      if (isQueryEmpty(JSON.parse(queryText) as StudySearchQuery)) next.delete('q');
      else next.set('q', queryText);
    });
  }, [queryText, updateParams]);

  useEffect(() => {
    const pendingTimers = timers.current;
    return () => pendingTimers.forEach((timer) => window.clearTimeout(timer));
  }, []);

  const later = (action: () => void, delay: number) => {
    timers.current.push(window.setTimeout(action, delay));
  };

  // A user already at work in the filters within the first 0.8 s keeps them open.
  const touchedFilters = useRef(false);
  const noteFilterWork = () => {
    touchedFilters.current = true;
  };

  const runSearch = (searchQuery: StudySearchQuery = query) => {
    setApplied(searchQuery);
    updateParams((next) => next.set('startSearch', 'true'));
    later(() => setExpanded(false), COLLAPSE_DELAY_MS);
    later(() => {
      const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      window.scrollTo({ top: document.documentElement.scrollHeight, behavior: reduced ? 'auto' : 'smooth' });
    }, SCROLL_DELAY_MS);
  };

  // On first opening the panel collapses after 0.8 s; startSearch runs the search at once (also
  // after a reload of a search that ran).
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    later(() => {
      if (!touchedFilters.current) setExpanded(false);
    }, COLLAPSE_DELAY_MS);
    if (flag(params, 'startSearch')) runSearch();
    // Only on arrival: later changes of the URL are the screen's own.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const clearSearch = () => {
    setFilters(defaultFilters());
    setApplied(null);
    setExpanded(true);
    updateParams((next) => {
      next.delete('q');
      next.delete('startSearch');
      next.delete('tab');
    });
  };

  // Leaving with filters set (and without allowLocationChange) asks first; login and analytics pass.
  const confirm = useSaveOrDiscard({
    guard: hasFilters && !allowLocationChange,
    passes: (next) => next.pathname.startsWith(paths.analytics.route),
    saving,
    onProceed: (action) => (action === 'new-search' ? clearSearch() : runSearch()),
  });
  const onSearch = () => {
    if (applied !== null) confirm.ask('search-again');
    else runSearch();
  };

  const applySaved = (search: SavedSearch) => {
    const next = parseFiltersText(search.metadata_query);
    setFilters(next);
    setSavedOpen(false);
    runSearch(compactFilters(next, { isAdmin, years }));
  };

  const openAnalytics = () => {
    void navigate(`${paths.analytics.href()}?q=${encodeURIComponent(queryText)}`, {
      state: { filters: query, allowLocationChange: true },
    });
  };

  const bulkFields = useMemo(
    () => (fields.data?.metadata ?? []).filter((field) => field.type === 'categorical' && field.editable),
    [fields.data],
  );

  return (
    <Box pr={{ base: 28, sm: 36 }}>
      <PageHeader
        title="Study Search"
        breadcrumbs={[{ label: 'Home', href: paths.home.href() }, { label: 'Search' }]}
        description={header ?? DEFAULT_SUBTITLE}
      />
      {noCache ? (
        <Text c="red.9" fw={700} mb="sm" role="note">
          NO CACHE
        </Text>
      ) : null}
      <Stack gap="md">
        {linkProblems.length > 0 ? (
          <Alert
            color="yellow"
            variant="light"
            role="alert"
            icon={<IconLinkOff size={18} aria-hidden="true" />}
            title={LINK_PROBLEM_TITLE}
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => setLinkProblems([])}
          >
            <List size="sm" spacing={2}>
              {linkProblems.map((problem) => (
                <List.Item key={problem}>{problem}</List.Item>
              ))}
            </List>
            <Text size="sm" mt={4}>
              The search opened with the other filters of the link.
            </Text>
          </Alert>
        ) : null}
        <SearchToolbar
          onSearch={onSearch}
          onNewSearch={() => confirm.ask('new-search')}
          searched={applied !== null}
          saveBox={{ disabled: !hasFilters, ...confirm.saveBoxProps }}
        >
          {isAdmin || permissions.canAccessAnalytics ? (
            <Button
              variant="light"
              leftSection={<IconChartBar size={16} aria-hidden="true" />}
              onClick={openAnalytics}
            >
              Analytics
            </Button>
          ) : null}
        </SearchToolbar>
        <FilterCard
          onInteract={noteFilterWork}
          expanded={expanded}
          onToggle={() => setExpanded((value) => !value)}
          tags={tags}
          onRemoveTag={(tag) => setFilters((current) => removeTag(current, tag))}
          loadingOptions={options.isFetching}
          filters={filters}
          onChange={setFilters}
          optionsOf={optionsOf}
          years={years}
          isAdmin={isAdmin}
        />
        <div>
          {applied !== null ? (
            <ResultTabs
              key={JSON.stringify(applied)}
              query={applied}
              counts={counts.data}
              countsLoading={counts.isFetching}
              tab={tab}
              onTabChange={(value) => updateParams((next) => next.set('tab', value))}
              isAdmin={isAdmin}
              allowDownload={permissions.allowDownload}
              noCache={noCache}
              onEditStudies={setEditing}
            />
          ) : null}
        </div>
      </Stack>

      <SavedSearchesTab opened={savedOpen} onToggle={() => setSavedOpen((value) => !value)} />
      <SavedSearchesPanel
        opened={savedOpen}
        onClose={() => setSavedOpen(false)}
        searches={saved.data}
        loading={saved.isLoading}
        years={years}
        isAdmin={isAdmin}
        onApply={applySaved}
        onDelete={(search) =>
          user && removeSaved.mutate({ userId: user.id, searchId: search.id, type: 'search' })
        }
        deletingId={removeSaved.isPending ? (removeSaved.variables?.searchId ?? null) : null}
      />
      <SaveOrDiscardModal {...confirm.modalProps} />
      <BulkEditModal studyIds={editing} fields={bulkFields} onClose={() => setEditing(null)} />
    </Box>
  );
}
