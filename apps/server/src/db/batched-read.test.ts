import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { batchedRead, textArrayLiteral } from './batched-read.ts';

/** A reader that records the keys of each query and answers each key's double, after `release`. */
function doubling() {
  const queries: number[][] = [];
  const pending: (() => void)[] = [];
  const read = batchedRead<number, number>(async (keys) => {
    queries.push([...keys]);
    await new Promise<void>((resolve) => pending.push(resolve));
    return new Map(keys.filter((key) => key >= 0).map((key) => [key, key * 2]));
  });
  const releaseAll = () => pending.splice(0).forEach((release) => release());
  return { read, queries, releaseAll };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('batched read', () => {
  it('sends the keys asked for in one turn as one query and answers each caller its own value', async () => {
    const { read, queries, releaseAll } = doubling();
    const answers = Promise.all([read(3), read(1), read(3), read(2)]);
    await turn();
    releaseAll();
    expect(await answers).toEqual([6, 2, 6, 4]);
    expect(queries).toEqual([[3, 1, 2]]);
  });

  it('answers undefined for a key the query returned nothing for, the others their values', async () => {
    const { read, queries, releaseAll } = doubling();
    const answers = Promise.all([read(-1), read(5)]);
    await turn();
    releaseAll();
    expect(await answers).toEqual([undefined, 10]);
    expect(queries).toHaveLength(1);
  });

  it('never joins a key onto a query already sent: it waits for the next, sent once that one is answered', async () => {
    const { read, queries, releaseAll } = doubling();
    const first = read(1);
    await turn();
    expect(queries).toEqual([[1]]);
    // The first query is on its way (not answered yet): the same key asked now is read again, with
    // the other keys asked for meanwhile, in one query sent when the first is answered.
    const again = read(1);
    await turn();
    const other = read(2);
    await turn();
    expect(queries).toEqual([[1]]);
    releaseAll();
    expect(await first).toBe(2);
    await turn();
    expect(queries).toEqual([[1], [1, 2]]);
    releaseAll();
    expect(await Promise.all([again, other])).toEqual([2, 4]);
  });

  it('sends a key asked for alone at the next turn, when no query is on its way', async () => {
    const { read, queries, releaseAll } = doubling();
    const first = read(4);
    await turn();
    releaseAll();
    expect(await first).toBe(8);
    await turn();
    const second = read(5);
    await turn();
    expect(queries).toEqual([[4], [5]]);
    releaseAll();
    expect(await second).toBe(10);
  });

  it('fails every caller of a failed batch with its error, and only them', async () => {
    let calls = 0;
    const read = batchedRead<string, string>(async (keys) => {
      calls++;
      if (calls === 1) throw new Error('connection lost');
      return new Map(keys.map((key) => [key, key.toUpperCase()]));
    });
    const failed = [read('a'), read('b'), read('a')].map((answer) =>
      answer.then(
        () => 'answered',
        (error: Error) => error.message,
      ),
    );
    expect(await Promise.all(failed)).toEqual(['connection lost', 'connection lost', 'connection lost']);
    expect(await Promise.all([read('a'), read('c')])).toEqual(['A', 'C']);
    expect(calls).toBe(2);
  });

  it('fails the batch when the reader throws before it returns a promise', async () => {
    const read = batchedRead<number, number>(() => {
      throw new Error('bad keys');
    });
    await expect(read(1)).rejects.toThrow('bad keys');
  });

  it("runs the query outside every caller's async context", async () => {
    const context = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    const read = batchedRead<number, number>(async (keys) => {
      seen.push(context.getStore());
      return new Map(keys.map((key) => [key, key]));
    });
    await context.run('request 1', () => Promise.all([read(1), context.run('request 2', () => read(2))]));
    expect(seen).toEqual([undefined]);
  });

  it('writes keys as one text[] literal, quotes and backslashes escaped', () => {
    expect(textArrayLiteral([])).toBe('{}');
    expect(textArrayLiteral(['ab12', 'x"y', 'c\\d', 'e,f'])).toBe('{"ab12","x\\"y","c\\\\d","e,f"}');
  });
});
