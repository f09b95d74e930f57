import { useState } from 'react';
import type { Blocker } from 'react-router';
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
 * with filters set (the blocker) first offer to save them. The popup answers No (go on), Cancel (stay)
 * or Save (save under a name, then go on); the save box of the screen stays quiet meanwhile, so the
 * popup alone shows the feedback.
 */
export function useSaveOrDiscard({
  blocker,
  saving,
  onProceed,
}: {
  blocker: Blocker;
  saving: SaveState;
  onProceed: (action: PendingAction) => void;
}) {
  const [pending, setPending] = useState<PendingAction | null>(null);
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
