import { MESSAGES, type SearchType } from '@accord/contracts';
import { useState } from 'react';
import { ApiError } from '../../lib/api-error.ts';
import { useCreateSavedSearchMutation } from '../../lib/api/saved-searches.ts';

export const EMPTY_FILTERS_MESSAGE = "You can't save searches with empty filters!";
export const savedMessage = (name: string) => `Successfully saved current search as "${name}".`;

export interface SaveFeedback {
  type: 'error' | 'success';
  text: string;
}

/**
 * Saving the current filters under a name (document 2 section 5): empty filters are refused, an
 * empty name becomes 'Search N' (N = saved searches + 1), server messages are kept for the name box.
 * `filters` is saved as JSON text under the search type of the screen.
 */
export function useSaveSearch({
  userId,
  filters,
  isEmpty,
  savedCount,
  type,
}: {
  userId: number | null;
  filters: unknown;
  isEmpty: boolean;
  savedCount: number;
  type: SearchType;
}) {
  const mutation = useCreateSavedSearchMutation();
  const [feedback, setFeedback] = useState<SaveFeedback | null>(null);

  const save = async (name: string): Promise<boolean> => {
    if (isEmpty) {
      setFeedback({ type: 'error', text: EMPTY_FILTERS_MESSAGE });
      return false;
    }
    if (userId === null) return false;
    const slug = name.trim() || `Search ${savedCount + 1}`;
    try {
      await mutation.mutateAsync({ userId, slug, metadataQuery: JSON.stringify(filters), type });
      setFeedback({ type: 'success', text: savedMessage(slug) });
      return true;
    } catch (cause) {
      setFeedback({
        type: 'error',
        text: cause instanceof ApiError ? cause.message : MESSAGES.loginFailure,
      });
      return false;
    }
  };

  return { save, feedback, clearFeedback: () => setFeedback(null), saving: mutation.isPending };
}
