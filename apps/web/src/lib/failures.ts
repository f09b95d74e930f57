/**
 * The global failure state (document 1 section 4): any response with status 400 or 503 raises the
 * "Something went wrong!" box with a traceback the user can copy for support.
 */
import { createStore, useStore } from './create-store.ts';

export interface FailureTrace {
  method: string;
  url: string;
  status: number;
  requestId: string | null;
  message: string;
  time: string;
}

/** Statuses that raise the box unless the caller handles them itself. */
export const GLOBAL_FAILURE_STATUSES: ReadonlySet<number> = new Set([400, 503]);

export const failureStore = createStore<FailureTrace | null>(null);

export function reportFailure(trace: FailureTrace): void {
  failureStore.set(trace);
}

export function dismissFailure(): void {
  failureStore.set(null);
}

export function useFailure(): FailureTrace | null {
  return useStore(failureStore);
}

export function formatTraceback(trace: FailureTrace): string {
  return [
    `Method: ${trace.method}`,
    `URL: ${trace.url}`,
    `Status: ${trace.status}`,
    `Request id: ${trace.requestId ?? 'none'}`,
    `Message: ${trace.message}`,
    `Time: ${trace.time}`,
  ].join('\n');
}
