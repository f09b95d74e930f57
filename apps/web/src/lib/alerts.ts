/**
 * The dismissible alert bar. Errors stay 5 s, confirmations and warnings 3 s (document 1 section 9),
 * unless the caller gives its own time.
 */
import { ALERT_CONFIRM_MS, ALERT_ERROR_MS } from '@accord/contracts';
import { createStore, useStore } from './create-store.ts';

export type AlertType = 'success' | 'warning' | 'danger';

export interface AppAlert {
  id: number;
  type: AlertType;
  message: string;
  /** Heading instead of the type's own ('Success!', 'Failed!'). */
  title?: string;
}

export const alertStore = createStore<AppAlert[]>([]);
let nextId = 1;

export function dismissAlert(id: number): void {
  alertStore.set((alerts) => alerts.filter((alert) => alert.id !== id));
}

export function showAlert(type: AlertType, message: string, timeoutMs?: number, title?: string): number {
  const id = nextId++;
  alertStore.set((alerts) => [...alerts, { id, type, message, ...(title ? { title } : {}) }]);
  const duration = timeoutMs ?? (type === 'danger' ? ALERT_ERROR_MS : ALERT_CONFIRM_MS);
  window.setTimeout(() => dismissAlert(id), duration);
  return id;
}

export function useAlerts(): AppAlert[] {
  return useStore(alertStore);
}
