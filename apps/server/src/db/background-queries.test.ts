import { describe, expect, it } from 'vitest';
import { createQueryTurns, inBackground, requestsQuietFor } from './background-queries.ts';

/** A query that records its start and runs for `ms` (as PGlite, one at a time on the thread). */
const recorded =
  (order: string[], name: string, ms = 1) =>
  () =>
    new Promise<string>((resolve) => {
      order.push(name);
      setTimeout(resolve, ms, name);
    });

describe('background queries', () => {
  it("runs a request's query ahead of the background queries asked before it", async () => {
    const turns = createQueryTurns();
    const order: string[] = [];
    const warmUp = inBackground(() =>
      Promise.all(['b1', 'b2', 'b3'].map((name) => turns.run(recorded(order, name, 5)))),
    );
    const request = turns.run(recorded(order, 'request'));
    await Promise.all([warmUp, request]);
    expect(order[0]).toBe('request');
    expect(order.slice(1)).toEqual(['b1', 'b2', 'b3']);
  });

  it('runs one background query at a time, each after a return to the event loop', async () => {
    const turns = createQueryTurns();
    const order: string[] = [];
    let timerRan = false;
    setImmediate(() => (timerRan = true));
    const running: string[] = [];
    await inBackground(() =>
      Promise.all(
        ['b1', 'b2'].map((name) =>
          turns.run(async () => {
            expect(timerRan).toBe(true);
            running.push(name);
            expect(running).toHaveLength(1);
            await recorded(order, name, 5)();
            running.pop();
          }),
        ),
      ),
    );
    expect(order).toEqual(['b1', 'b2']);
  });

  it('tells when the requests have left the database quiet', async () => {
    const turns = createQueryTurns();
    await turns.run(recorded([], 'request'));
    const asked = performance.now();
    await requestsQuietFor(50);
    expect(performance.now() - asked).toBeGreaterThanOrEqual(45);
  });
});
