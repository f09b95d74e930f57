import { Alert, Button, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { STUDIES_UPLOAD_MESSAGES } from '@accord/contracts';
import { IconCircleCheck } from '@tabler/icons-react';

export const CONFIRM_TITLE = 'Check the studies before they are added';
export const CONFIRM_MESSAGE =
  'The studies differ from the upload form (client, region or year). View the file tree to see the differences and confirm to add them to the library.';

/** Stages of the progress modal (document 3 section 4.7). */
export type ProgressStage =
  | { kind: 'upload'; percent: number }
  | { kind: 'validation'; percent: number }
  | { kind: 'done' }
  | { kind: 'failed'; message: string }
  /** Validated, waiting: the studies differ from the upload form and are added once confirmed. */
  | { kind: 'confirm'; message: string };

/**
 * The 'Uploading files' modal: the upload with its real percentage, then validation and injection
 * (striped), then Done or Failed with the error. The button leads to the file tree when there is
 * one, else closes.
 */
export function ProgressModal({
  title,
  stage,
  onClose,
  onViewTree,
}: {
  title: string;
  stage: ProgressStage | null;
  onClose(): void;
  /** Present when the process exists, so its file tree can be opened. */
  onViewTree?: () => void;
}) {
  const running = stage?.kind === 'upload' || stage?.kind === 'validation';
  return (
    <Modal
      opened={stage !== null}
      onClose={onClose}
      title={title}
      closeOnClickOutside={!running}
      closeOnEscape={!running}
      withCloseButton={!running}
      centered
    >
      {stage && (
        <Stack gap="md">
          {stage.kind === 'upload' && (
            <Stack gap={6}>
              <Text size="sm">{STUDIES_UPLOAD_MESSAGES.stageUploading}</Text>
              <Progress
                value={stage.percent}
                striped
                animated
                aria-label={STUDIES_UPLOAD_MESSAGES.stageUploading}
                size="lg"
              />
              <Text size="xs" c="dimmed">
                {stage.percent}%
              </Text>
            </Stack>
          )}
          {stage.kind === 'validation' && (
            <Stack gap={6}>
              <Text size="sm">{STUDIES_UPLOAD_MESSAGES.stageValidation}</Text>
              <Progress
                value={stage.percent}
                striped
                animated
                color="indigo"
                aria-label={STUDIES_UPLOAD_MESSAGES.stageValidation}
                size="lg"
              />
              <Text size="xs" c="dimmed">
                {stage.percent}%
              </Text>
            </Stack>
          )}
          {stage.kind === 'done' && (
            <Group gap="xs">
              <IconCircleCheck color="var(--mantine-color-green-7)" aria-hidden />
              <Text fw={600}>{STUDIES_UPLOAD_MESSAGES.stageDone}</Text>
            </Group>
          )}
          {stage.kind === 'confirm' && (
            <Alert color="yellow" title={CONFIRM_TITLE}>
              {stage.message}
            </Alert>
          )}
          {stage.kind === 'failed' && (
            <Alert color="red" title={STUDIES_UPLOAD_MESSAGES.stageFailed}>
              {STUDIES_UPLOAD_MESSAGES.taskError(stage.message)}
            </Alert>
          )}
          {!running && (
            <Group justify="flex-end">
              {onViewTree ? (
                <Button onClick={onViewTree}>View File Tree</Button>
              ) : (
                <Button onClick={onClose}>Close</Button>
              )}
            </Group>
          )}
        </Stack>
      )}
    </Modal>
  );
}
