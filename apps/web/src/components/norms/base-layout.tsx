/**
 * The two panels of the screens that read a norm base (norms, the study planner, the drivers of
 * liking): the choices on the left, under a title, with the options call's failure; the answer on the
 * right, with its three waiting states (no category yet, reading, failed) before the answer itself.
 */
import { Alert, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';

/** The choices' card: a title, the options' failure if any, the controls. */
export function BaseChoicesPanel({
  title,
  optionsError,
  children,
}: {
  title: string;
  optionsError: Error | null;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {title}
        </Title>
        {optionsError ? (
          <Alert color="red" variant="light">
            {optionsError.message}
          </Alert>
        ) : null}
        {children}
      </Stack>
    </Paper>
  );
}

/** The answer's card: a prompt without a category, a loader, the failure, or the answer. */
export function BaseAnswerPanel<T>({
  chosen,
  result,
  prompt,
  reading,
  readingLabel,
  failure,
  children,
}: {
  /** Whether a category is chosen (the call runs only then). */
  chosen: boolean;
  result: UseQueryResult<T, Error>;
  prompt: string;
  /** The words beside the loader, and the loader's accessible name. */
  reading: string;
  readingLabel: string;
  /** The title of the failure's alert. */
  failure: string;
  children: (data: T) => ReactNode;
}) {
  return (
    <Paper withBorder p="md" radius="md" mih={300}>
      {!chosen ? (
        <Text c="dimmed" ta="center" py="xl" role="status">
          {prompt}
        </Text>
      ) : result.isPending ? (
        <Group gap="sm" py="lg" justify="center">
          <Loader size="sm" role="status" aria-label={readingLabel} />
          <Text c="dimmed">{reading}</Text>
        </Group>
      ) : result.isError ? (
        <Alert color="red" variant="light" title={failure}>
          {result.error.message}
        </Alert>
      ) : (
        children(result.data)
      )}
    </Paper>
  );
}
