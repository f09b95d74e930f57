import { Center, Loader, Stack, Text } from '@mantine/core';
import { MESSAGES } from '@accord/contracts';

let firstLoadDone = false;

/** Called once the first page is on screen; later loaders say "Please wait a moment." */
export function markFirstLoadDone(): void {
  firstLoadDone = true;
}

/** The global loader (document 1 section 2). */
export function FullPageLoader({ minHeight = '100vh' }: { minHeight?: string }) {
  const text = firstLoadDone ? MESSAGES.loaderNext : MESSAGES.loaderFirst;
  return (
    <Center mih={minHeight} p="xl">
      <Stack align="center" gap="sm" role="status" aria-live="polite">
        <Loader color="plum" aria-hidden="true" />
        <Text c="dimmed">{text}</Text>
      </Stack>
    </Center>
  );
}
