/**
 * Summarises the samples of bench/memory-sampler.mjs per endpoint of a bench run:
 *
 *   npx tsx bench/memory-report.ts /tmp/memory.jsonl [bench/results.json]
 *
 * For the time before the first endpoint (at rest after the warm-up) and each endpoint of
 * results.json (its startedAt..endedAt), prints the highest process RSS and, at their highest, the
 * server thread's heap (used and total), external and array-buffer bytes, and the worker threads'
 * heaps together (their V8 heaps' physical size). Without results.json, the whole run as one row.
 */
import { readFileSync } from 'node:fs';

interface Sample {
  t: number;
  thread: string;
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  physical: number;
}

const [samplesFile, resultsFile] = process.argv.slice(2);
if (!samplesFile) {
  console.error('usage: npx tsx bench/memory-report.ts SAMPLES.jsonl [results.json]');
  process.exit(2);
}
const samples: Sample[] = readFileSync(samplesFile, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Sample);
const results: { name: string; startedAt?: number; endedAt?: number }[] = resultsFile
  ? (JSON.parse(readFileSync(resultsFile, 'utf8')) as { endpoints: never[] }).endpoints
  : [];

const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)}`.padStart(6);

function row(label: string, from: number, to: number): void {
  const inside = samples.filter((sample) => sample.t >= from && sample.t <= to);
  const main = inside.filter((sample) => sample.thread === 'main');
  if (main.length === 0) return;
  const max = (list: Sample[], key: keyof Sample) => Math.max(...list.map((sample) => sample[key] as number));
  // The worker threads' heaps at each moment: the latest sample of each thread within 150 ms.
  let workerPeak = 0;
  for (const sample of main) {
    const latest = new Map<string, number>();
    for (const other of inside)
      if (other.thread !== 'main' && Math.abs(other.t - sample.t) <= 150)
        latest.set(other.thread, other.physical);
    workerPeak = Math.max(
      workerPeak,
      [...latest.values()].reduce((a, b) => a + b, 0),
    );
  }
  console.log(
    `${label.padEnd(62)}${mb(max(main, 'rss'))}${mb(max(main, 'heapUsed'))}${mb(max(main, 'heapTotal'))}` +
      `${mb(max(main, 'external'))}${mb(max(main, 'arrayBuffers'))}${mb(workerPeak)}`,
  );
}

console.log(
  `${'MB (highest in each window)'.padEnd(62)}${'rss'.padStart(6)}${'used'.padStart(6)}${'heap'.padStart(6)}` +
    `${'ext'.padStart(6)}${'abuf'.padStart(6)}${'wrkrs'.padStart(6)}`,
);
const timed = results.filter((result) => result.startedAt !== undefined && result.endedAt !== undefined);
if (timed.length === 0) row('whole run', 0, Number.MAX_SAFE_INTEGER);
else {
  const first = timed[0]!.startedAt!;
  // At rest: the last 5 s before the first endpoint (after the warm-up).
  row('at rest (5 s before the first endpoint)', first - 5_000, first);
  for (const result of timed) row(result.name, result.startedAt!, result.endedAt!);
}
