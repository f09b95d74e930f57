/**
 * Several web processes on one port (node:cluster): the primary forks `count` processes, which share
 * the listening socket, restarts one that dies unexpectedly (after a pause, so a process failing at
 * start does not spin), and on SIGINT/SIGTERM asks each to stop gracefully and exits when all have.
 */
import cluster, { type Worker } from 'node:cluster';

/** Seconds a process must have run for its death to be restarted at once rather than after a pause. */
const STABLE_SECONDS = 10;

export function superviseWebProcesses(
  count: number,
  options: { onAllListening: () => void; log?: (line: string) => void },
): void {
  const log = options.log ?? ((line: string) => console.log(line));
  let stopping = false;
  const startedAt = new Map<number, number>();
  const listening = new Set<number>();
  let announced = false;

  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
  };
  cluster.on('listening', (worker: Worker) => {
    listening.add(worker.id);
    if (!announced && listening.size >= count) {
      announced = true;
      options.onAllListening();
    }
  });
  cluster.on('exit', (worker: Worker, code, signal) => {
    listening.delete(worker.id);
    const ranFor = (Date.now() - (startedAt.get(worker.id) ?? Date.now())) / 1000;
    startedAt.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    log(`web process ${worker.process.pid} ended (${signal ?? `code ${code}`}); starting another`);
    setTimeout(fork, ranFor < STABLE_SECONDS ? 2000 : 0).unref();
  });
  for (let index = 0; index < count; index++) fork();

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log(`\n${signal}: stopping ${count} web processes...`);
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => !!worker);
    if (workers.length === 0) process.exit(0);
    for (const worker of workers) worker.process.kill('SIGTERM');
    // A process that does not end within its graceful stop is ended.
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      process.exit(1);
    }, 15_000).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
