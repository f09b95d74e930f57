import { describe, expect, it } from 'vitest';
import { createFingerprintCache } from './analytics-cache.ts';

/** A cache over computations that count how often they ran. */
function counted<T>(cache: ReturnType<typeof createFingerprintCache<T>>) {
  const runs = new Map<string, number>();
  return {
    runs,
    get: (key: string, fingerprint: string, answer: T) =>
      cache.get(key, fingerprint, async () => {
        runs.set(key, (runs.get(key) ?? 0) + 1);
        return answer;
      }),
  };
}

describe('createFingerprintCache', () => {
  it('keeps an answer while the fingerprint is the same and recomputes it after a change', async () => {
    const cache = counted(createFingerprintCache<string>(4));
    expect(await cache.get('a', 'v1', 'one')).toBe('one');
    expect(await cache.get('a', 'v1', 'two')).toBe('one');
    expect(await cache.get('a', 'v2', 'three')).toBe('three');
    expect(cache.runs.get('a')).toBe(2);
  });

  it('drops the least recently used answer beyond the count', async () => {
    const cache = counted(createFingerprintCache<string>(2));
    await cache.get('a', 'v', 'a');
    await cache.get('b', 'v', 'b');
    await cache.get('a', 'v', 'a');
    await cache.get('c', 'v', 'c');
    await cache.get('a', 'v', 'a');
    await cache.get('b', 'v', 'b');
    expect(cache.runs.get('a')).toBe(1);
    expect(cache.runs.get('b')).toBe(2);
  });

  it('keeps answers within the weight budget, oldest out first, the newest always kept', async () => {
    const cache = counted(createFingerprintCache<string>(10, { weigh: (text) => text.length, max: 10 }));
    await cache.get('a', 'v', 'xxxx');
    await cache.get('b', 'v', 'yyyy');
    await cache.get('c', 'v', 'zzzz');
    // a + b + c weigh 12 > 10: a went.
    await cache.get('b', 'v', 'yyyy');
    await cache.get('c', 'v', 'zzzz');
    await cache.get('a', 'v', 'xxxx');
    expect([cache.runs.get('a'), cache.runs.get('b'), cache.runs.get('c')]).toEqual([2, 1, 1]);
    // One answer over the budget alone stays (and pushes out all others).
    await cache.get('big', 'v', 'x'.repeat(50));
    await cache.get('big', 'v', 'x'.repeat(50));
    expect(cache.runs.get('big')).toBe(1);
    await cache.get('c', 'v', 'zzzz');
    expect(cache.runs.get('c')).toBe(2);
  });

  it('forgets a failed computation, so the next lookup tries again', async () => {
    const cache = createFingerprintCache<number>(4);
    await expect(cache.get('a', 'v', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('a', 'v', async () => 7)).toBe(7);
  });
});
