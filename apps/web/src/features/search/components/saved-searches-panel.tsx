import type { SavedSearch } from '@accord/contracts';
import type { ComponentProps } from 'react';
import { SavedSearchesPanel as Panel } from '../../../components/saved-searches/saved-searches-panel.tsx';
import { compactFilters, filterTags, parseFiltersText, type YearRange } from '../utils/filters.ts';

export { SavedSearchesTab } from '../../../components/saved-searches/saved-searches-panel.tsx';

/** The study search's saved-searches panel: summaries list the non-empty study filters. */
export function SavedSearchesPanel({
  years,
  isAdmin,
  ...props
}: Omit<ComponentProps<typeof Panel>, 'summarise'> & { years: YearRange | null; isAdmin: boolean }) {
  const summarise = (search: SavedSearch) =>
    filterTags(compactFilters(parseFiltersText(search.metadata_query), { isAdmin, years }), years);
  return <Panel {...props} summarise={summarise} />;
}
