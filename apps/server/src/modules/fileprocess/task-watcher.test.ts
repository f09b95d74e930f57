import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTaskWatcher } from './task-watcher.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('createTaskWatcher', () => {
  it('reads a task once per interval however many streams follow it', async () => {
    vi.useFakeTimers();
    const reads: string[] = [];
    const watcher = createTaskWatcher(async (taskId) => {
      reads.push(taskId);
      return reads.length;
    }, 250);
    const seen: unknown[][] = [];
    const stops = Array.from({ length: 150 }, (_, i) => {
      seen[i] = [];
      return watcher.subscribe('a', (reading) => seen[i]!.push(reading));
    });
    const other = watcher.subscribe('b', () => undefined);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(reads.filter((id) => id === 'a')).toHaveLength(4);
    expect(reads.filter((id) => id === 'b')).toHaveLength(4);
    expect(seen.every((readings) => readings.length === 4)).toBe(true);
    expect(watcher.watching).toBe(2);

    for (const stop of stops) stop();
    other();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(reads).toHaveLength(8);
    expect(watcher.watching).toBe(0);
  });

  it('hands a failed read to the streams as an error and keeps watching', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const watcher = createTaskWatcher(async () => {
      calls++;
      if (calls === 1) throw new Error('database away');
      return 'ok';
    }, 100);
    const readings: unknown[] = [];
    const stop = watcher.subscribe('a', (reading) => readings.push(reading));
    await vi.advanceTimersByTimeAsync(250);
    expect(readings[0]).toBeInstanceOf(Error);
    expect(readings[1]).toBe('ok');
    stop();
  });
});
