import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { SaveFeedback } from './use-save-search.ts';
import { SaveSearchBox } from './save-search-box.tsx';

export const SAVE_OR_DISCARD_TITLE = 'Save current search?';
export const SAVE_OR_DISCARD_TEXT =
  'The following action will clear filters and results. Would you like to save the current search criteria?';

/**
 * Asked before leaving the screen, starting a new search or searching again with criteria set:
 * No discards and goes on, Yes asks for a name and goes on once saved, Cancel stays.
 */
export function SaveOrDiscardModal({
  opened,
  onNo,
  onCancel,
  onSave,
  saving,
  feedback,
  onClearFeedback,
}: {
  opened: boolean;
  onNo: () => void;
  onCancel: () => void;
  /** Saves under the name; resolves true when saved (the caller then goes on). */
  onSave: (name: string) => Promise<boolean>;
  saving: boolean;
  feedback: SaveFeedback | null;
  onClearFeedback: () => void;
}) {
  const [askingName, setAskingName] = useState(false);
  const close = () => {
    setAskingName(false);
    onCancel();
  };
  return (
    <Modal opened={opened} onClose={close} title={SAVE_OR_DISCARD_TITLE} centered>
      <Stack gap="md">
        <Text>{SAVE_OR_DISCARD_TEXT}</Text>
        {askingName ? (
          <SaveSearchBox
            id="save-or-discard-name"
            disabled={false}
            saving={saving}
            feedback={feedback}
            onClearFeedback={onClearFeedback}
            onSave={async (name) => {
              const saved = await onSave(name);
              if (saved) setAskingName(false);
              return saved;
            }}
          />
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button
            variant="default"
            onClick={() => {
              setAskingName(false);
              onNo();
            }}
          >
            No
          </Button>
          <Button onClick={() => setAskingName(true)} disabled={askingName}>
            Yes
          </Button>
          <Button variant="subtle" onClick={close}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
