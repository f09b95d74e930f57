import { describe, expect, it } from 'vitest';
import type { StoredResult } from './analytics-job-runner.ts';
import { createSignificanceCache, significanceFingerprint } from './significance-cache.ts';

/** A computation the test ends by hand, counting how often it was started. */
function computation(text: string) {
  let started = 0;
  let finish: (result: StoredResult) => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  return {
    compute: () => {
      started++;
      return new Promise<StoredResult>((resolve, reject) => {
        finish = resolve;
        fail = reject;
      });
    },
    finish: () => finish({ text }),
    fail: (error: Error) => fail(error),
    started: () => started,
  };
}

const done = (text: string) => () => Promise.resolve({ text });
/** Jobs answered within their request, of user 7. */
const OWNED = { owner: 7 };

describe('significance cache', () => {
  it('computes two identical Calculates asked at once once, and answers both with the first job', async () => {
    const cache = createSignificanceCache();
    const work = computation('{"marks":1}');
    const first = cache.get('request', 'v1', 'job-1', work.compute, OWNED);
    const second = cache.get('request', 'v1', 'job-2', work.compute, OWNED);
    work.finish();
    const [one, two] = await Promise.all([first, second]);
    expect(work.started()).toBe(1);
    expect(one).toEqual({ result: { text: '{"marks":1}' }, jobId: 'job-1' });
    expect(two).toEqual({ result: { text: '{"marks":1}' }, jobId: 'job-1' });
    expect(cache.forJob('job-1', 7)?.text).toBe('{"marks":1}');
    expect(cache.forJob('job-2', 7)?.text).toBe('{"marks":1}');
    expect(cache.size()).toMatchObject({ entries: 1, computed: 1 });
  });

  it('reads a finished Calculate asked again, and computes it again under another data version', async () => {
    const cache = createSignificanceCache();
    await cache.get('request', 'v1', 'job-1', done('old'), OWNED);
    const again = await cache.get('request', 'v1', 'job-2', done('never'), OWNED);
    expect(again).toEqual({ result: { text: 'old' }, jobId: 'job-1' });
    const changed = await cache.get('request', 'v2', 'job-3', done('new'), OWNED);
    expect(changed).toEqual({ result: { text: 'new' }, jobId: 'job-3' });
    // The jobs of the old version are answered by their rows, not by the new marks.
    expect(cache.forJob('job-1', 7)).toBeNull();
    expect(cache.forJob('job-2', 7)).toBeNull();
    expect(cache.forJob('job-3', 7)?.text).toBe('new');
    expect(cache.size().computed).toBe(2);
  });

  it('computes afresh when asked without the cache, and after the kept answer grew old', async () => {
    let clock = 0;
    const cache = createSignificanceCache({ maxAgeMs: 1000, now: () => clock });
    await cache.get('request', 'v1', 'job-1', done('first'));
    expect((await cache.get('request', 'v1', 'job-2', done('fresh'), { fresh: true })).jobId).toBe('job-2');
    clock = 999;
    expect((await cache.get('request', 'v1', 'job-3', done('kept'))).result.text).toBe('fresh');
    clock = 1001;
    expect(await cache.get('request', 'v1', 'job-4', done('aged'))).toEqual({
      result: { text: 'aged' },
      jobId: 'job-4',
    });
  });

  it("answers a job's polls only for its owner, and only for jobs answered within their request", async () => {
    const cache = createSignificanceCache();
    await cache.get('request', 'v1', 'job-1', done('marks'), OWNED);
    await cache.get('request', 'v1', 'queued', done('never'));
    expect(cache.forJob('job-1', 7)?.text).toBe('marks');
    expect(cache.forJob('job-1', 8)).toBeNull();
    expect(cache.forJob('queued', 7)).toBeNull();
  });

  it('keeps nothing of a failed computation: the next ask computes again', async () => {
    const cache = createSignificanceCache();
    const work = computation('x');
    const first = cache.get('request', 'v1', 'job-1', work.compute);
    const second = cache.get('request', 'v1', 'job-2', work.compute);
    work.fail(new Error('database gone'));
    await expect(first).rejects.toThrow('database gone');
    await expect(second).rejects.toThrow('database gone');
    expect(cache.size().entries).toBe(0);
    expect((await cache.get('request', 'v1', 'job-3', done('ok'))).result.text).toBe('ok');
  });

  it('holds at most its characters, the least recently used out first, the newest always', async () => {
    const cache = createSignificanceCache({ maxChars: 10 });
    await cache.get('a', 'v1', 'job-a', done('aaaa'), OWNED);
    await cache.get('b', 'v1', 'job-b', done('bbbb'), OWNED);
    // Reading a makes b the least recently used.
    await cache.get('a', 'v1', 'job-a2', done('never'), OWNED);
    await cache.get('c', 'v1', 'job-c', done('cccc'), OWNED);
    expect(cache.size()).toMatchObject({ entries: 2, chars: 8 });
    expect(cache.forJob('job-b', 7)).toBeNull();
    expect(cache.forJob('job-a2', 7)?.text).toBe('aaaa');
    await cache.get('big', 'v1', 'job-big', done('x'.repeat(50)), OWNED);
    expect(cache.size()).toMatchObject({ entries: 1, chars: 50 });
  });

  it('forgets the jobs of an answer no longer kept, so that they hold none of its text', async () => {
    const cache = createSignificanceCache({ maxChars: 10 });
    await cache.get('a', 'v1', 'job-a', done('aaaa'), OWNED);
    await cache.get('a', 'v1', 'job-a2', done('never'), OWNED);
    expect(cache.size()).toMatchObject({ entries: 1, jobs: 2 });
    // Asked afresh: the new answer's job alone is remembered.
    await cache.get('a', 'v1', 'job-a3', done('again'), { ...OWNED, fresh: true });
    expect(cache.size()).toMatchObject({ entries: 1, jobs: 1 });
    expect(cache.forJob('job-a', 7)).toBeNull();
    expect(cache.forJob('job-a3', 7)?.text).toBe('again');
    // Pushed out by the bound: its job goes with it.
    await cache.get('big', 'v1', 'job-big', done('x'.repeat(50)), OWNED);
    expect(cache.size()).toMatchObject({ entries: 1, jobs: 1 });
    expect(cache.forJob('job-a3', 7)).toBeNull();
    expect(cache.forJob('job-big', 7)?.text).toBe('x'.repeat(50));
    // Under way while asked afresh by another caller: the first job is answered, never remembered.
    const slow = computation('slow');
    const first = cache.get('s', 'v1', 'job-s1', slow.compute, OWNED);
    const second = cache.get('s', 'v1', 'job-s2', done('quick'), { ...OWNED, fresh: true });
    slow.finish();
    expect((await first).result.text).toBe('slow');
    expect((await second).result.text).toBe('quick');
    expect(cache.forJob('job-s1', 7)).toBeNull();
    expect(cache.forJob('job-s2', 7)?.text).toBe('quick');
  });

  it('keys a request by the caller scope: clients, and admin or not', () => {
    const request = { data: [{ id: 1 }, { id: 2 }], calculation: 'rest' };
    const admin = significanceFingerprint({ clients: null, admin: true }, request);
    const researcher = significanceFingerprint({ clients: null, admin: false }, request);
    const client = significanceFingerprint({ clients: ['Northwind'], admin: false }, request);
    const otherClient = significanceFingerprint({ clients: ['Brightwell'], admin: false }, request);
    expect(new Set([admin, researcher, client, otherClient]).size).toBe(4);
    expect(significanceFingerprint({ clients: ['Northwind'], admin: false }, { ...request })).toBe(client);
    expect(
      significanceFingerprint({ clients: null, admin: true }, { ...request, correction: 'none' }),
    ).not.toBe(admin);
  });
});
