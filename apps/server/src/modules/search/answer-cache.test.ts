import { describe, expect, it } from 'vitest';
import { createAnswerCache } from './answer-cache.ts';

describe('createAnswerCache', () => {
  it('answers from the cache while the fingerprint is unchanged and recomputes when it changes', async () => {
    let fingerprint = 'a';
    let computed = 0;
    const cache = createAnswerCache<number>({ maxEntries: 10, fingerprint: async () => fingerprint });
    const compute = async () => ++computed;
    expect(await cache.get('k', compute)).toBe(1);
    expect(await cache.get('k', compute)).toBe(1);
    expect(await cache.get('other', compute)).toBe(2);
    fingerprint = 'b';
    expect(await cache.get('k', compute)).toBe(3);
    expect(await cache.get('k', compute)).toBe(3);
  });

  it('shares one computation between concurrent lookups, each reading the fingerprint itself', async () => {
    let reads = 0;
    let computed = 0;
    const cache = createAnswerCache<number>({
      maxEntries: 10,
      fingerprint: async () => {
        reads += 1;
        return 'same';
      },
    });
    const compute = async () => {
      computed += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return 42;
    };
    expect(
      await Promise.all([cache.get('k', compute), cache.get('k', compute), cache.get('k', compute)]),
    ).toEqual([42, 42, 42]);
    expect(computed).toBe(1);
    // Each lookup asks for the fingerprint (the reads of one turn share a query in db/data-versions.ts).
    expect(reads).toBe(3);
  });

  it('forgets failures and the least recently used answers', async () => {
    let computed = 0;
    const cache = createAnswerCache<number>({ maxEntries: 2, fingerprint: async () => 'f' });
    await expect(cache.get('bad', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cache.get('bad', async () => 7)).toBe(7);
    const compute = async () => ++computed;
    await cache.get('a', compute); // 1
    await cache.get('b', compute); // 2
    await cache.get('a', compute); // still 1, now most recent
    await cache.get('c', compute); // 3, evicts b
    expect(await cache.get('a', compute)).toBe(1);
    expect(await cache.get('b', compute)).toBe(4);
  });
});
