/**
 * The background job queue (pg-boss) on the application's own database, so jobs survive a restart
 * and can run in separate worker processes. Features register their queues and workers here.
 *
 * A job is sent with the id of its status row (job_results), so the row the client polls and the
 * pg-boss job share one id. `enqueue` wakes this process's worker at once instead of waiting for
 * its next poll, a worker that finishes a job fetches the next at once (a job queued while all were
 * busy does not wait for a polling interval), and `settled` lets a request wait briefly for a quick
 * job: a job that finishes in milliseconds then answers its final state at the first poll.
 * Between processes (PostgreSQL), a NOTIFY on `accord_jobs` carries the same two signals: a queued
 * job wakes the idle workers of every process ("queued:<queue>"), and a finished one ends the waits
 * for it in every process ("done:<id>"), so a web process beside a worker process waits for neither
 * the worker's polling interval nor its own.
 */
import PgBoss from 'pg-boss';
import type { Database } from '../db/client.ts';

export interface WorkerOptions {
  /** How often an idle worker looks for jobs another process queued (seconds, at least 0.5). */
  pollingIntervalSeconds?: number;
  /** Retries when the worker throws or the process dies mid-job (the job then expires). */
  retryLimit?: number;
  /** A job still active after this long is given up and retried (seconds). */
  expireInSeconds?: number;
  /** Jobs of the queue this process runs at the same time (one pg-boss worker each). */
  concurrency?: number;
}

export interface SettleOptions {
  /** Whether the job has ended, for a job another process runs (looked at every 250 ms). */
  check?: () => Promise<boolean>;
  /** Ends the wait early when it resolves (e.g. a result already known in memory). */
  until?: Promise<unknown>;
}

export interface JobQueue {
  boss: PgBoss;
  /** Creates the queue and runs `handler` for each of its jobs in this process. */
  register<T extends object>(
    name: string,
    handler: (data: T) => Promise<void>,
    options?: WorkerOptions,
  ): Promise<void>;
  /** Sends a job under `id` and answers that id. */
  enqueue<T extends object>(name: string, id: string, data: T): Promise<string>;
  /**
   * Resolves true when this process's worker has finished the job (or `check` says it has ended, or
   * `until` resolves), false after `timeoutMs`.
   */
  settled(id: string, timeoutMs: number, options?: SettleOptions): Promise<boolean>;
  stop(): Promise<void>;
}

/**
 * The advisory lock around queue creation: pg-boss creates a queue's tables and partitions, and two
 * processes creating the same queues at once (web processes or hosts starting together) deadlock.
 */
const QUEUE_CREATION_LOCK = 7_311_023;

/** The NOTIFY channel of queued and finished jobs between processes. */
const JOB_CHANNEL = 'accord_jobs';

export async function startJobQueue(database: Database): Promise<JobQueue> {
  // pg-boss accepts any object with executeSql; both engines provide one.
  const boss = new PgBoss({
    db: database.sql,
    schema: 'pgboss',
    supervise: true,
    schedule: false,
  } as PgBoss.ConstructorOptions);
  boss.on('error', (error) => console.error('job queue:', error));
  await boss.start();

  const workers = new Map<string, string[]>();
  const sendOptions = new Map<string, PgBoss.SendOptions>();
  const waiting = new Map<string, Set<(finished: boolean) => void>>();
  // Jobs finished here lately, for a request that starts waiting after its job already ended.
  const recent = new Set<string>();
  let stopped = false;

  /** Tells the other processes (PostgreSQL); a failed notice only leaves them to their polling. */
  const tellOthers = (payload: string) => {
    if (database.engine !== 'postgresql' || stopped) return Promise.resolve();
    return database.sql
      .executeSql(`select pg_notify('${JOB_CHANNEL}', $1)`, [payload])
      .then(() => undefined)
      .catch(() => undefined);
  };

  const announce = (id: string, finished: boolean) => {
    if (finished) {
      recent.add(id);
      setTimeout(() => recent.delete(id), 60_000).unref();
    }
    for (const wake of waiting.get(id) ?? []) wake(finished);
    waiting.delete(id);
  };

  const listener = await database.listen(JOB_CHANNEL, (payload) => {
    if (stopped) return;
    const [kind, value] = [payload.slice(0, payload.indexOf(':')), payload.slice(payload.indexOf(':') + 1)];
    if (kind === 'queued') for (const workerId of workers.get(value) ?? []) boss.notifyWorker(workerId);
    else if (kind === 'done') announce(value, true);
  });

  return {
    boss,

    async register(name, handler, options = {}) {
      // Looked at first without the lock: after the first start every queue exists.
      if (!(await boss.getQueue(name)))
        await database.withLock(QUEUE_CREATION_LOCK, async () => {
          if (!(await boss.getQueue(name))) await boss.createQueue(name);
        });
      sendOptions.set(name, {
        retryLimit: options.retryLimit ?? 1,
        expireInSeconds: options.expireInSeconds ?? 15 * 60,
      });
      const ids: string[] = [];
      for (let index = 0; index < (options.concurrency ?? 1); index++) {
        let workerId = '';
        workerId = await boss.work<object>(
          name,
          { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2, batchSize: 1 },
          async (jobs) => {
            for (const job of jobs) {
              try {
                await handler(job.data as never);
              } finally {
                announce(job.id, true);
                void tellOthers(`done:${job.id}`);
              }
            }
            // A worker that has just finished a job looks for the next one at once: jobs queued
            // while every worker was busy would otherwise wait for its polling interval.
            if (!stopped && jobs.length > 0) boss.notifyWorker(workerId);
          },
        );
        ids.push(workerId);
      }
      workers.set(name, ids);
    },

    async enqueue(name, id, data) {
      const sent = await boss.send(name, data, { ...sendOptions.get(name), id });
      if (!sent) throw new Error(`job ${id} was not queued on ${name}`);
      // An idle worker fetches at once; a busy one ignores the call. Other processes' too.
      for (const workerId of workers.get(name) ?? []) boss.notifyWorker(workerId);
      await tellOthers(`queued:${name}`);
      return sent;
    },

    async settled(id, timeoutMs, { check, until } = {}) {
      if (recent.has(id)) return true;
      if (stopped) return false;
      return new Promise<boolean>((resolve) => {
        let done = false;
        const finish = (value: boolean) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          clearInterval(poll);
          waiting.get(id)?.delete(wake);
          resolve(value);
        };
        const wake = (finished: boolean) => finish(finished);
        const timer = setTimeout(() => finish(false), timeoutMs).unref();
        // A worker in another process does not announce here: look at the status row now and then.
        const poll = setInterval(() => {
          if (check)
            void check().then(
              (finished) => finished && finish(true),
              () => undefined,
            );
        }, 250).unref();
        until?.then(
          () => finish(true),
          () => undefined,
        );
        if (!waiting.has(id)) waiting.set(id, new Set());
        waiting.get(id)!.add(wake);
      });
    },

    async stop() {
      if (stopped) return;
      stopped = true;
      await listener?.close().catch(() => undefined);
      for (const id of [...waiting.keys()]) announce(id, false);
      await boss.stop({ graceful: true, wait: true, timeout: 5000 });
    },
  };
}
