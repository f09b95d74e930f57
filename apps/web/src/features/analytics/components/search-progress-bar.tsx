import { Button, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { cancelMetricSearch, useSearchProgress } from '../api/search-progress.ts';

/** What the server has done at a progress it reports (the metric search's steps, server-side). */
function stepText(progress: number): string {
  if (progress >= 90) return 'Writing the results';
  if (progress >= 75) return 'Computing the scores';
  if (progress >= 30) return 'Summing the answers';
  if (progress >= 15) return 'Checking the answers against their scales';
  return 'Finding the products';
}

/**
 * A running search: how far the server is (its job's progress, as each poll answers it) and a
 * cancel that ends the job on the server and gives the screen back as it was before the search.
 */
export function SearchProgressBar({
  progressKey,
  kindLabel,
  onCancel,
}: {
  /** The search's progress key (searchProgressKey). */
  progressKey: string;
  kindLabel: string;
  /** Called once the search is cancelled: the screen shows what it showed before. */
  onCancel: () => void;
}) {
  const running = useSearchProgress(progressKey);
  const [cancelling, setCancelling] = useState(false);
  const progress = running?.progress ?? 0;
  const cancel = async () => {
    setCancelling(true);
    try {
      // Queued already: the server stops it. Not yet queued: nothing runs there to stop.
      if (running?.jobId) await cancelMetricSearch(running.jobId).catch(() => undefined);
    } finally {
      setCancelling(false);
      onCancel();
    }
  };
  return (
    <Paper withBorder radius="md" p="md" role="status" aria-live="polite">
      <Stack gap="xs">
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Text size="sm" fw={500}>
            Searching the {kindLabel}: {stepText(progress)} ({progress} %)
          </Text>
          <Button variant="default" size="xs" onClick={cancel} loading={cancelling}>
            Cancel search
          </Button>
        </Group>
        <Progress
          value={progress}
          animated
          aria-label={`Search progress, ${progress} %`}
          transitionDuration={300}
        />
      </Stack>
    </Paper>
  );
}
