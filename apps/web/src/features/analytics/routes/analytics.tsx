/**
 * Route module of /analytics: the Advanced Analytics screen (document 3 sections 2 and 2.1).
 *
 * What the route reads on arrival (the Best/Worst and Attributes wizards open it this way; build the
 * navigation with `navigateToAnalytics` or `analyticsSearchHref` from ../utils/analytics-link.ts):
 *
 *   React Router state: {
 *     startSearch?: boolean;       // run the search at once and collapse the filters
 *     hideDescription?: boolean;   // hide the description line under the title
 *     header?: string;             // replaces it, e.g. 'Confirm your selections:'
 *     query?: MetricSearchRequest | AnalyticsQuery; // the request body ({ type, q }) or the filters alone
 *     allowLocationChange?: boolean;
 *   }
 *   URL search params (the same, for links and reloads): startSearch=true, hideDescription=true,
 *   header=<text>, q=<JSON of the request or filters>, no_cache (passed on to every search call).
 *
 * The state wins over the URL when both carry a value.
 */
import { ActionIcon, Alert, Badge, Box, Stack, Tabs, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import type { SavedSearch } from '@accord/contracts';
import { useDebouncedValue } from '@mantine/hooks';
import { IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { NoAccess } from '../../../components/no-access.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { SaveOrDiscardModal } from '../../../components/saved-searches/save-or-discard-modal.tsx';
import {
  SavedSearchesPanel,
  SavedSearchesTab,
} from '../../../components/saved-searches/saved-searches-panel.tsx';
import { SearchToolbar } from '../../../components/saved-searches/search-toolbar.tsx';
import { useSaveOrDiscard } from '../../../components/saved-searches/use-save-or-discard.ts';
import { useSaveSearch } from '../../../components/saved-searches/use-save-search.ts';
import { paths } from '../../../config/paths.ts';
import { useDeleteSavedSearchMutation, useSavedSearchesQuery } from '../../../lib/api/saved-searches.ts';
import { useSession } from '../../../lib/session.ts';
import { useAnalyticsDropdownQuery, useAnalyticsOptionsQuery } from '../api/get-options.ts';
import { useQueryClient } from '@tanstack/react-query';
import { analyticsKeys } from '../api/keys.ts';
import { searchProgressKey, useMetricSearchFirstPageQuery } from '../api/metric-pages.ts';
import { AnalyticsFilterPanel } from '../components/analytics-filter-panel.tsx';
import { DiagnosticsModal } from '../components/diagnostics-modal.tsx';
import { MetricsTab } from '../components/metrics-tab.tsx';
import { PerformanceTab } from '../components/performance-tab.tsx';
import { SearchProgressBar } from '../components/search-progress-bar.tsx';
import { TendenciesTab } from '../components/tendencies-tab.tsx';
import { TopAttributesTab } from '../components/top-attributes-tab.tsx';
import type { AnalyticsRouteState } from '../utils/analytics-link.ts';
import {
  buildRequest,
  defaultFilters,
  filtersFromRequest,
  hasFilterValues,
  parseFiltersText,
  summariseFilters,
  toSearchRequest,
  type AnalyticsFilters,
} from '../utils/filters.ts';

/** Document 3 section 9 and document 2 section 9: collapse 0.8 s after a search, scroll after 1 s. */
const COLLAPSE_DELAY_MS = 800;
const SCROLL_DELAY_MS = 1000;
const OPTIONS_DEBOUNCE_MS = 300;

const DESCRIPTION =
  'Choose the studies, the respondents and the metrics, then search to compare fragrances or concepts.';
export const NEEDS_METRIC_MESSAGE = 'Choose at least one metric and its aggregation to search.';

function flag(params: URLSearchParams, name: string): boolean {
  const value = params.get(name);
  return value !== null && value !== 'false' && value !== '0';
}

function initialFilters(state: AnalyticsRouteState | null, params: URLSearchParams): AnalyticsFilters {
  if (state?.query) return filtersFromRequest(state.query);
  return parseFiltersText(params.get('q'));
}

/**
 * The count badge of a result tab (document 3 section 2.1: each tab has one): the rows its last run
 * listed; a dash before a run, where a "0" would read as a run that found nothing.
 */
function TabCount({ count }: { count: number | null }) {
  if (count === null)
    return (
      <Badge size="sm" variant="outline" color="gray">
        <span aria-hidden="true">–</span>
        <VisuallyHidden>not run yet</VisuallyHidden>
      </Badge>
    );
  return (
    <Badge size="sm" variant="light">
      {count}
    </Badge>
  );
}

export function Component() {
  const { permissions } = useSession();
  const allowed = permissions.isAdmin || permissions.canAccessAnalytics;
  if (!allowed) return <NoAccess title={paths.analytics.title} section={paths.analytics.title} />;
  return <AnalyticsScreen />;
}

function AnalyticsScreen() {
  const { user } = useSession();
  const location = useLocation();
  const [params] = useSearchParams();
  const state = (location.state ?? null) as AnalyticsRouteState | null;
  const noCache = params.has('no_cache') && params.get('no_cache') !== 'false';
  const header = state?.header ?? params.get('header');
  const hideDescription = state?.hideDescription ?? flag(params, 'hideDescription');
  const startSearch = state?.startSearch ?? flag(params, 'startSearch');

  const options = useAnalyticsOptionsQuery(true);
  const years = options.data?.data.fields.metadata.year ?? null;
  const [filters, setFilters] = useState<AnalyticsFilters>(() => initialFilters(state, params));
  const [applied, setApplied] = useState<ReturnType<typeof toSearchRequest>>(null);
  const [searchError, setSearchError] = useState<string | null>(null);
  const [expanded, setExpanded] = useState(true);
  const [tab, setTab] = useState<string | null>('metrics');
  const [savedOpen, setSavedOpen] = useState(false);
  const [diagnosticsOpen, setDiagnosticsOpen] = useState(false);
  const [performanceCount, setPerformanceCount] = useState<number | null>(null);
  const [attributesCount, setAttributesCount] = useState<number | null>(null);
  const [tendenciesCount, setTendenciesCount] = useState<number | null>(null);
  const resultsRef = useRef<HTMLDivElement>(null);
  const timers = useRef<number[]>([]);

  const hasFilters = hasFilterValues(filters);
  const dropdownRequest = useMemo(() => {
    const request = buildRequest(filters, years);
    const { metrics, ...query } = request.q;
    return {
      query,
      query_metrics: metrics.metricsList,
      rdf_type: filters.metrics.rdfType,
      irt_implict: filters.metrics.rdfType === 'irt',
    };
  }, [filters, years]);
  const [debouncedDropdown] = useDebouncedValue(dropdownRequest, OPTIONS_DEBOUNCE_MS);
  const dropdown = useAnalyticsDropdownQuery(debouncedDropdown, true);

  // The same query as the metrics tab's: one search, whose first page carries the count and diagnostics.
  const main = useMetricSearchFirstPageQuery(applied, noCache);
  const queryClient = useQueryClient();
  // The last search whose results were shown: a cancelled search gives the screen back to it.
  const shownSearch = useRef<typeof applied>(null);
  useEffect(() => {
    if (main.isSuccess) shownSearch.current = applied;
  }, [main.isSuccess, applied]);
  const cancelSearch = () => {
    if (applied === null) return;
    const key = analyticsKeys.pagedSearch(applied, noCache);
    // Stops the polls; the job was ended on the server by the progress bar's cancel.
    void queryClient
      .cancelQueries({ queryKey: key, exact: true })
      .then(() => queryClient.removeQueries({ queryKey: key, exact: true }));
    setApplied(shownSearch.current);
    setExpanded(true);
  };
  const diagnostics = main.data?.page.diagnostics;

  const saved = useSavedSearchesQuery(user?.id ?? null, 'analytics');
  const removeSaved = useDeleteSavedSearchMutation();
  const saving = useSaveSearch({
    userId: user?.id ?? null,
    filters: buildRequest(filters, years),
    isEmpty: !hasFilters,
    savedCount: saved.data?.length ?? 0,
    type: 'analytics',
  });

  useEffect(() => {
    const pendingTimers = timers.current;
    return () => pendingTimers.forEach((timer) => window.clearTimeout(timer));
  }, []);
  const later = (action: () => void, delay: number) => {
    timers.current.push(window.setTimeout(action, delay));
  };

  const runSearch = (source: AnalyticsFilters = filters) => {
    const request = toSearchRequest(source, years);
    if (!request) {
      setSearchError(NEEDS_METRIC_MESSAGE);
      setExpanded(true);
      return;
    }
    setSearchError(null);
    setApplied(request);
    setTab('metrics');
    setPerformanceCount(null);
    later(() => setExpanded(false), COLLAPSE_DELAY_MS);
    later(() => resultsRef.current?.scrollIntoView({ behavior: 'smooth', block: 'end' }), SCROLL_DELAY_MS);
  };

  // startSearch runs the search on arrival once the year range is known (it trims the request).
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !startSearch || options.isPending) return;
    started.current = true;
    runSearch();
    // Only on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [startSearch, options.isPending]);

  const clearSearch = () => {
    setFilters(defaultFilters());
    setApplied(null);
    setExpanded(true);
    setSearchError(null);
  };

  // Leaving with filters set asks first (document 3 section 2); the screen's state goes with it.
  const confirm = useSaveOrDiscard({
    guard: hasFilters,
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
    runSearch(next);
  };

  const kindLabel = applied?.type === 'concepts' ? 'concepts' : 'fragrances';
  const typeTitle = applied?.type === 'concepts' ? 'Concepts' : 'Fragrances';
  const typeSingular = applied?.type === 'concepts' ? 'Concept' : 'Fragrance';
  const metricsCount = main.data?.page.total;
  const demographics = options.data?.data.fields.demographics ?? [];

  return (
    <Box pr={{ base: 28, sm: 36 }}>
      <PageHeader
        title={paths.analytics.title}
        breadcrumbs={[{ label: 'Home', href: paths.home.href() }, { label: 'Analytics' }]}
        description={header ?? (hideDescription ? undefined : DESCRIPTION)}
        actions={
          <Tooltip label="Diagnostics" withArrow>
            <ActionIcon
              variant="light"
              size="lg"
              aria-label="Diagnostics"
              onClick={() => setDiagnosticsOpen(true)}
            >
              <IconInfoCircle size={20} aria-hidden="true" />
            </ActionIcon>
          </Tooltip>
        }
      />
      {noCache ? (
        <Text c="red.9" fw={700} mb="sm" role="note">
          NO CACHE
        </Text>
      ) : null}
      <Stack gap="md">
        <SearchToolbar
          onSearch={onSearch}
          onNewSearch={() => confirm.ask('new-search')}
          searched={applied !== null}
          saveBox={{ disabled: !hasFilters, ...confirm.saveBoxProps }}
        />
        {searchError ? (
          <Alert color="red" variant="light" role="alert">
            {searchError}
          </Alert>
        ) : null}
        <AnalyticsFilterPanel
          expanded={expanded}
          onToggle={() => setExpanded((value) => !value)}
          loadingOptions={dropdown.isFetching}
          filters={filters}
          onChange={(next) => {
            setFilters(next);
            if (searchError) setSearchError(null);
          }}
          dropdown={dropdown.data}
          options={options.data}
          years={years}
        />
        <div ref={resultsRef} style={{ scrollMarginBottom: 24 }}>
          {applied !== null && main.isPending ? (
            <Box mb="md">
              <SearchProgressBar
                progressKey={searchProgressKey(applied, noCache)}
                kindLabel={applied.type === 'concepts' ? 'concepts' : 'fragrances'}
                onCancel={cancelSearch}
              />
            </Box>
          ) : null}
          {/* While the search runs, its progress stands for the tabs (which show its results). */}
          {applied !== null && !main.isPending ? (
            <Tabs value={tab} onChange={setTab}>
              <Tabs.List>
                <Tabs.Tab
                  value="metrics"
                  rightSection={
                    <Badge size="sm" variant="light" circle={false}>
                      {metricsCount ?? '…'}
                    </Badge>
                  }
                >
                  {typeTitle}
                </Tabs.Tab>
                <Tabs.Tab value="performance" rightSection={<TabCount count={performanceCount} />}>
                  {typeSingular} Performance
                </Tabs.Tab>
                <Tabs.Tab value="attributes" rightSection={<TabCount count={attributesCount} />}>
                  Top Attributes
                </Tabs.Tab>
                <Tabs.Tab value="tendencies" rightSection={<TabCount count={tendenciesCount} />}>
                  Creative &amp; Olfactive Tendencies
                </Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="metrics" pt="md">
                <MetricsTab
                  key={JSON.stringify(applied)}
                  request={applied}
                  noCache={noCache}
                  demographics={demographics}
                  kindLabel={kindLabel}
                />
              </Tabs.Panel>
              <Tabs.Panel value="performance" pt="md">
                <PerformanceTab
                  key={JSON.stringify(applied)}
                  request={applied}
                  noCache={noCache}
                  typeSingular={typeSingular}
                  onCount={setPerformanceCount}
                />
              </Tabs.Panel>
              <Tabs.Panel value="attributes" pt="md">
                <TopAttributesTab
                  request={applied}
                  searchJobId={main.data?.jobId}
                  onCount={setAttributesCount}
                />
              </Tabs.Panel>
              <Tabs.Panel value="tendencies" pt="md">
                <TendenciesTab
                  request={applied}
                  searchJobId={main.data?.jobId}
                  onCount={setTendenciesCount}
                />
              </Tabs.Panel>
            </Tabs>
          ) : null}
        </div>
      </Stack>

      <SavedSearchesTab
        opened={savedOpen}
        onToggle={() => setSavedOpen((value) => !value)}
        title="Saved Analytics"
        panelId="saved-analytics-panel"
      />
      <SavedSearchesPanel
        opened={savedOpen}
        onClose={() => setSavedOpen(false)}
        searches={saved.data}
        loading={saved.isLoading}
        summarise={(search) => summariseFilters(parseFiltersText(search.metadata_query))}
        title="Saved Analytics"
        panelId="saved-analytics-panel"
        onApply={applySaved}
        onDelete={(search) =>
          user && removeSaved.mutate({ userId: user.id, searchId: search.id, type: 'analytics' })
        }
        deletingId={removeSaved.isPending ? (removeSaved.variables?.searchId ?? null) : null}
      />
      <DiagnosticsModal
        opened={diagnosticsOpen}
        onClose={() => setDiagnosticsOpen(false)}
        diagnostics={diagnostics}
      />
      <SaveOrDiscardModal {...confirm.modalProps} />
    </Box>
  );
}
