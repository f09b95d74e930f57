/**
 * One watcher per task for the status streams: however many pages follow a task (a user's tabs, an
 * admin), the task is read once per interval and every stream gets that one reading. The watcher
 * stops with the last stream of its task.
 */

/** What a watcher read; an Error when the read failed. */
export type Reading<T> = T | Error;

export interface TaskWatcher<T> {
  /** Calls `listener` with each reading of the task until the returned function is called. */
  subscribe(taskId: string, listener: (reading: Reading<T>) => void): () => void;
  /** Tasks watched now. */
  readonly watching: number;
}

export function createTaskWatcher<T>(
  read: (taskId: string) => Promise<T>,
  intervalMs: number,
): TaskWatcher<T> {
  const watched = new Map<
    string,
    { listeners: Set<(reading: Reading<T>) => void>; timer?: NodeJS.Timeout }
  >();

  const tick = async (taskId: string) => {
    const entry = watched.get(taskId);
    if (!entry) return;
    let reading: Reading<T>;
    try {
      reading = await read(taskId);
    } catch (error) {
      reading = error instanceof Error ? error : new Error(String(error));
    }
    for (const listener of [...entry.listeners]) listener(reading);
    if (watched.get(taskId) === entry && entry.listeners.size > 0)
      entry.timer = setTimeout(() => void tick(taskId), intervalMs);
  };

  return {
    subscribe(taskId, listener) {
      let entry = watched.get(taskId);
      if (!entry) {
        const created: { listeners: Set<(reading: Reading<T>) => void>; timer?: NodeJS.Timeout } = {
          listeners: new Set(),
        };
        created.timer = setTimeout(() => void tick(taskId), intervalMs);
        watched.set(taskId, created);
        entry = created;
      }
      const own = entry;
      own.listeners.add(listener);
      return () => {
        own.listeners.delete(listener);
        if (own.listeners.size === 0 && watched.get(taskId) === own) {
          clearTimeout(own.timer);
          watched.delete(taskId);
        }
      };
    },
    get watching() {
      return watched.size;
    },
  };
}
