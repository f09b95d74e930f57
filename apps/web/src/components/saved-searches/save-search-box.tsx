import { TEXT_LIMITS } from '@accord/contracts';
import { textLimit } from '../text-limit.ts';
import { ActionIcon, Group, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconCloudUpload } from '@tabler/icons-react';
import { useState } from 'react';
import type { SaveFeedback } from './use-save-search.ts';

/**
 * The name box with its cloud-upload button. Enter saves too; errors or the success text show
 * under the box and clear on typing. The button is disabled while no filter is set.
 */
export function SaveSearchBox({
  disabled,
  saving,
  feedback,
  onClearFeedback,
  onSave,
  id = 'save-search-name',
}: {
  disabled: boolean;
  saving: boolean;
  feedback: SaveFeedback | null;
  onClearFeedback: () => void;
  onSave: (name: string) => Promise<boolean>;
  id?: string;
}) {
  const [name, setName] = useState('');
  const submit = async () => {
    if (await onSave(name)) setName('');
  };
  return (
    <Stack gap={4}>
      <Group gap={6} wrap="nowrap" align="flex-start">
        <TextInput
          id={id}
          aria-label="Search name"
          placeholder="Enter search name"
          value={name}
          {...textLimit(name, TEXT_LIMITS.searchName)}
          onChange={(event) => {
            setName(event.currentTarget.value);
            if (feedback) onClearFeedback();
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              void submit();
            }
          }}
          aria-describedby={feedback ? `${id}-feedback` : undefined}
          w={{ base: '100%', xs: 220 }}
          style={{ flex: 1 }}
        />
        <Tooltip label="Save search" withArrow>
          <ActionIcon
            size="input-sm"
            variant="filled"
            aria-label="Save search"
            onClick={() => void submit()}
            disabled={disabled}
            loading={saving}
          >
            <IconCloudUpload size={18} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
      </Group>
      {feedback ? (
        <Text
          id={`${id}-feedback`}
          size="sm"
          // Mantine's green.9 gives 4.1:1 on the grey toolbar; the theme's dark green passes AA there.
          c={feedback.type === 'error' ? 'red.9' : 'var(--mantine-color-green-light-color)'}
          role={feedback.type === 'error' ? 'alert' : 'status'}
          maw={280}
        >
          {feedback.text}
        </Text>
      ) : null}
    </Stack>
  );
}
