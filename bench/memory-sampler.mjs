/**
 * Where a server's memory goes during a bench: loaded into the server with
 *
 *   BENCH_MEMORY_SAMPLES=/tmp/memory.jsonl BENCH_SERVER_NODE_ARGS="--import ./bench/memory-sampler.mjs" npm run bench -- ...
 *
 * it appends one JSON line every 100 ms per thread (the server's own and each worker thread, which
 * inherit the option): the time, the thread, process.memoryUsage() (rss, heapTotal, heapUsed,
 * external, arrayBuffers; rss is the whole process's) and the thread's V8 heap statistics
 * (malloced memory and the heap's physical size). `npx tsx bench/memory-report.ts FILE` summarises
 * the lines between two times. Nothing is written without BENCH_MEMORY_SAMPLES.
 */
import { appendFileSync } from 'node:fs';
import { setInterval } from 'node:timers';
import { getHeapStatistics } from 'node:v8';
import { isMainThread, threadId } from 'node:worker_threads';

const file = process.env.BENCH_MEMORY_SAMPLES;
if (file) {
  const sample = () => {
    const memory = process.memoryUsage();
    const heap = getHeapStatistics();
    const line = {
      t: Date.now(),
      pid: process.pid,
      thread: isMainThread ? 'main' : `worker ${threadId}`,
      rss: memory.rss,
      heapTotal: memory.heapTotal,
      heapUsed: memory.heapUsed,
      external: memory.external,
      arrayBuffers: memory.arrayBuffers,
      physical: heap.total_physical_size,
      malloced: heap.malloced_memory,
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  };
  setInterval(sample, 100).unref();
}
