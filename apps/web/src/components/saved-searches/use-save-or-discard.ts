import { useState } from 'react';
import { useBlocker, type Location } from 'react-router';
import { paths } from '../../config/paths.ts';
import type { SaveFeedback } from './use-save-search.ts';

/** What the save-or-discard popup will do once answered. */
export type PendingAction = 'new-search' | 'search-again';

/** What useSaveSearch gives: saving the current filters under a name. */
interface SaveState {
  save: (name: string) => Promise<boolean>;
  feedback: SaveFeedback | null;
  clearFeedback: () => void;
  saving: boolean;
}

/**
 * The save-or-discard step of a search screen: a new search, a search again and leaving the screen
 * with filters set first offer to save them. Leaving asks unless the filters are empty (`guard` is
 * false), the move stays on the screen, goes to the login, is one `passes` lets through, or its
 * navigation state allows a location change. The popup answers No (go on), Cancel (stay)
 * or Save (save under a name, then go on); the save box of the screen stays quiet meanwhile, so the
 * popup alone shows the feedback.
 */
export function useSaveOrDiscard({
  guard,
  passes,
  saving,
  onProceed,
}: {
  guard: boolean;
  passes?: (next: Location) => boolean;
  saving: SaveState;
  onProceed: (action: PendingAction) => void;
}) {
  const [pending, setPending] = useState<PendingAction | null>(null);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    if (!guard) return false;
    if (currentLocation.pathname === nextLocation.pathname) return false;
    if (nextLocation.pathname.startsWith(paths.login.route)) return false;
    if (passes?.(nextLocation)) return false;
    const state = nextLocation.state as { allowLocationChange?: boolean } | null;
    return !state?.allowLocationChange;
  });
  const leaving = blocker.state === 'blocked';
  const asking = pending !== null || leaving;

  const proceed = () => {
    // Leaving drops the screen and its filters with it; changing them now would cancel the navigation.
    if (leaving) {
      blocker.proceed?.();
      return;
    }
    setPending(null);
    if (pending) onProceed(pending);
  };

  return {
    /** Asks before a new search or a search again. */
    ask: setPending,
    saveBoxProps: {
      saving: saving.saving && !asking,
      feedback: asking ? null : saving.feedback,
      onClearFeedback: saving.clearFeedback,
      onSave: saving.save,
    },
    modalProps: {
      opened: asking,
      onNo: proceed,
      onCancel: () => {
        saving.clearFeedback();
        if (leaving) blocker.reset?.();
        else setPending(null);
      },
      onSave: async (name: string) => {
        const ok = await saving.save(name);
        if (!ok) return false;
        proceed();
        return true;
      },
      saving: saving.saving,
      feedback: asking ? saving.feedback : null,
      onClearFeedback: saving.clearFeedback,
    },
  };
}
