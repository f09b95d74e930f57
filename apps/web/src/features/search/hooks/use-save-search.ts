import type { StudySearchQuery } from '@accord/contracts';
import { useSaveSearch as useSaveFilters } from '../../../components/saved-searches/use-save-search.ts';
import { isQueryEmpty } from '../utils/filters.ts';

export {
  EMPTY_FILTERS_MESSAGE,
  savedMessage,
  type SaveFeedback,
} from '../../../components/saved-searches/use-save-search.ts';

/** Saving the study search filters (search type 'search'). */
export function useSaveSearch({
  userId,
  query,
  savedCount,
}: {
  userId: number | null;
  query: StudySearchQuery;
  savedCount: number;
}) {
  return useSaveFilters({ userId, filters: query, isEmpty: isQueryEmpty(query), savedCount, type: 'search' });
}
