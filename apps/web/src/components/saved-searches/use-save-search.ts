import { MESSAGES, type SearchType } from '@accord/contracts';
import { useState } from 'react';
import { ApiError } from '../../lib/api-error.ts';
import { useCreateSavedSearchMutation, useSavedSearchesQuery } from '../../lib/api/saved-searches.ts';

export const EMPTY_FILTERS_MESSAGE = "You can't save searches with empty filters!";
export const savedMessage = (name: string) => `Successfully saved current search as "${name}".`;
export const duplicateNameMessage = (name: string) =>
  `A saved search named "${name}" already exists. Choose another name.`;

/** 'Search N' with N the saved searches plus one, or the next number no saved search has taken. */
export function defaultSearchName(savedCount: number, taken: ReadonlySet<string>): string {
  let number = savedCount + 1;
  while (taken.has(`search ${number}`)) number += 1;
  return `Search ${number}`;
}

export interface SaveFeedback {
  type: 'error' | 'success';
  text: string;
}

/**
 * Saving the current filters under a name (document 2 section 5): empty filters are refused, an
 * empty name becomes 'Search N' (N = saved searches + 1, or the next free number), a name already
 * saved is refused with a warning, server messages are kept for the name box.
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
  // The screen's own list (the same cached query): names are compared without regard to case.
  const saved = useSavedSearchesQuery(userId, type);
  const taken = new Set((saved.data ?? []).map((search) => search.slug.trim().toLowerCase()));
  const [feedback, setFeedback] = useState<SaveFeedback | null>(null);

  const save = async (name: string): Promise<boolean> => {
    if (isEmpty) {
      setFeedback({ type: 'error', text: EMPTY_FILTERS_MESSAGE });
      return false;
    }
    if (userId === null) return false;
    const slug = name.trim() || defaultSearchName(savedCount, taken);
    if (taken.has(slug.toLowerCase())) {
      setFeedback({ type: 'error', text: duplicateNameMessage(slug) });
      return false;
    }
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
