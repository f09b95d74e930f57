import { Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { MESSAGES } from '@accord/contracts';
import { dismissFailure, formatTraceback, useFailure } from '../lib/failures.ts';

/** The global "Something went wrong!" box with a traceback to copy for support. */
export function FailureModal() {
  const failure = useFailure();
  const traceback = failure ? formatTraceback(failure) : '';
  return (
    <Modal
      opened={failure !== null}
      onClose={dismissFailure}
      title={MESSAGES.somethingWentWrongTitle}
      size="lg"
      centered
    >
      <Stack gap="md">
        <Text>{MESSAGES.somethingWentWrongBody}</Text>
        <Code block aria-label="Traceback" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {traceback}
        </Code>
        <Group justify="flex-end">
          <CopyButton value={traceback}>
            {({ copied, copy }) => (
              <Button
                variant="default"
                leftSection={
                  copied ? (
                    <IconCheck size={16} aria-hidden="true" />
                  ) : (
                    <IconCopy size={16} aria-hidden="true" />
                  )
                }
                onClick={copy}
              >
                {copied ? 'Copied' : 'Copy traceback'}
              </Button>
            )}
          </CopyButton>
          <Button onClick={dismissFailure}>Close</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
