import { Group, Loader, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { STUDY_MESSAGES } from '@accord/contracts';
import { IconCheck, IconPlayerPause, IconX } from '@tabler/icons-react';
import type { UploadState } from '../hooks/use-file-upload.ts';

/** What each job status says to the user (icon label and tooltip). */
export function uploadStatusLabel(state: UploadState): string {
  switch (state.status) {
    case 'queued':
      return 'Upload queued';
    case 'started':
      return 'Upload in progress';
    case 'failed':
      return state.high_msg || STUDY_MESSAGES.uploadFailed;
    case 'finished':
      return state.high_msg || 'Upload finished';
    default:
      return '';
  }
}

/**
 * The job status icon of document 2 section 4: queued pause (orange), started spinner (blue), failed
 * cross (red), finished check (green); the tooltip and the text beside it say the same.
 */
export function UploadStatus({ state }: { state: UploadState }) {
  if (state.status === 'selected') return null;
  const label = uploadStatusLabel(state);
  const icon =
    state.status === 'queued' ? (
      <ThemeIcon color="orange" variant="light" size="sm" radius="xl">
        <IconPlayerPause size={14} aria-hidden="true" />
      </ThemeIcon>
    ) : state.status === 'started' ? (
      <Loader color="blue" size={18} aria-hidden="true" />
    ) : state.status === 'failed' ? (
      <ThemeIcon color="red" variant="filled" size="sm" radius="xl">
        <IconX size={14} aria-hidden="true" />
      </ThemeIcon>
    ) : (
      <ThemeIcon color="green" variant="filled" size="sm" radius="xl">
        <IconCheck size={14} aria-hidden="true" />
      </ThemeIcon>
    );
  return (
    <Group gap={6} wrap="nowrap" role="status" data-upload-status={state.status} style={{ minWidth: 0 }}>
      <Tooltip label={label} multiline maw={320} withArrow events={{ hover: true, focus: true, touch: true }}>
        <span role="img" aria-label={label} tabIndex={0} style={{ display: 'inline-flex', flexShrink: 0 }}>
          {icon}
        </span>
      </Tooltip>
      <Text size="xs" c={state.status === 'failed' ? 'red.8' : 'dimmed'} style={{ overflowWrap: 'anywhere' }}>
        {label}
      </Text>
    </Group>
  );
}
