/**
 * How far the running searches are, as their polls answer it (document 3 section 7: a job's status
 * carries its progress), and their cancel: DELETE /api/analytics/fragrances/{jobId} ends the job on
 * the server (REVOKED; its work stops at its next step), and the screen stops polling it.
 */
import { CancelledJob } from '@accord/contracts';
import { useSyncExternalStore } from 'react';
import { apiJson } from '../../../lib/api-client.ts';

/** A running search: its job once queued, and the share of its work done (0-100) the server reports. */
export interface SearchProgress {
  jobId: string | null;
  progress: number;
}

const running = new Map<string, SearchProgress>();
const listeners = new Set<() => void>();

/** Records the progress of the search known by `key` (its query key as JSON); null when it ended. */
export function reportSearchProgress(key: string, progress: SearchProgress | null): void {
  if (progress === null) running.delete(key);
  else running.set(key, progress);
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The progress of the search known by `key`, re-rendering as its polls answer. */
export function useSearchProgress(key: string): SearchProgress | null {
  return useSyncExternalStore(subscribe, () => running.get(key) ?? null);
}

/** DELETE /api/analytics/fragrances/{jobId}: cancels a search of the caller that has not ended. */
export function cancelMetricSearch(jobId: string): Promise<CancelledJob> {
  return apiJson(`/analytics/fragrances/${encodeURIComponent(jobId)}`, CancelledJob, { method: 'DELETE' });
}
