/**
 * npx tsx bench/studies-upload.ts [--database-url postgres://...] [--studies 20] [--json]
 *
 * Studies upload throughput: a zip of N generated studies (200 respondents, 8 products, 30 questions
 * each) goes through the real app (upload, unpack, validate, inject) on a scratch PostgreSQL
 * database, which is dropped afterwards. Prints answers injected per second (the injection step,
 * VALIDATED to INJECTED, and the whole pipeline) and the process's peak resident memory (the app
 * and this script run in one process, so it is an upper bound of the server's).
 * Targets: above 100,000 answers/s on PostgreSQL, peak memory under 500 MB.
 *
 * `npm run bench` calls `runStudiesUploadBench` (below): the same measurement in a child process, so
 * its peak memory is the upload's alone, not the bench's.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { startJobQueue } from '../apps/server/src/jobs/queue.ts';
import { createMailer } from '../apps/server/src/lib/mailer.ts';
import { seedReferenceData } from '../apps/server/src/seed/reference-data.ts';
import { buildStudiesZip } from '../apps/server/src/seed/sample-zips.ts';
import { seedUsers } from '../apps/server/src/seed/users.ts';
import { createLocalFileStorage } from '../apps/server/src/storage/file-storage.ts';

/** What one upload measurement found (written to bench/results.json as `studiesUpload`). */
export interface StudiesUploadResult {
  studies: number;
  zipBytes: number;
  answers: number;
  injectSeconds: number;
  injectAnswersPerSecond: number;
  totalSeconds: number;
  totalAnswersPerSecond: number;
  peakRssBytes: number;
  /** The machine's 1-minute load average when the measurement ended. */
  loadAverage: number;
}

const RESULT_PREFIX = 'STUDIES_UPLOAD_RESULT ';
const PASSWORD = 'bench-password-1';

/** Uploads a zip of `studies` generated studies through the app on a scratch database of the server. */
export async function measureStudiesUpload(serverUrl: string, studies: number): Promise<StudiesUploadResult> {
  const name = `accord_bench_upload_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const tempDir = await mkdtemp(path.join(os.tmpdir(), 'accord-bench-upload-'));

  const database = await openDatabase({ databaseUrl: url.toString() });
  let jobs: Awaited<ReturnType<typeof startJobQueue>> | undefined;
  try {
    await seedReferenceData(database);
    await seedUsers(database, { password: PASSWORD });
    jobs = await startJobQueue(database);
    const app = await buildApp({
      database,
      jobs,
      storage: createLocalFileStorage(path.join(tempDir, 'files')),
      mailer: createMailer({
        outboxDir: path.join(tempDir, 'outbox'),
        from: 'Accord <no-reply@accord.test>',
      }),
      clock: { now: () => new Date() },
      version: 'bench',
      publicUrl: 'http://localhost',
      loginRateLimit: 1000,
    });
    await app.ready();

    const zip = buildStudiesZip(studies, { products: 8, respondents: 200, questions: 30 });
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'admin@accord.test', password: PASSWORD, remember: false },
    });
    const token =
      (login.json() as { access_token?: string; token?: string }).access_token ??
      (login.json() as { token?: string }).token ??
      String(login.headers.authorization ?? '').replace(/^Bearer /, '');
    const form = new FormData();
    for (const [key, value] of Object.entries({
      client: 'Bench',
      study_type: '',
      region: 'Europe',
      year: '2024',
    }))
      form.append(key, value);
    form.append('file', new Blob([zip]), 'bench.zip');
    const request = new Request('http://localhost/', { method: 'POST', body: form });

    const started = performance.now();
    const uploaded = await app.inject({
      method: 'POST',
      url: '/api/fileprocess/studies_upload',
      headers: { authorization: `Bearer ${token}`, 'content-type': request.headers.get('content-type')! },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    if (uploaded.statusCode !== 200) throw new Error(`upload failed: ${uploaded.body}`);
    const { task_id } = uploaded.json() as { task_id: string };

    // Follow the task's row directly (the status stream reads the same row every 250 ms).
    const seen = new Map<string, number>();
    for (;;) {
      const { rows } = await database.sql.executeSql(
        `select j.status as task, j.error, f.status from job_results j
         join file_processes f on f.task_id = j.id where j.id = $1`,
        [task_id],
      );
      const row = rows[0] as { task: string; error: string | null; status: string } | undefined;
      if (row && !seen.has(row.status)) seen.set(row.status, performance.now());
      if (row?.task === 'FAILURE') throw new Error(`processing failed: ${row.error}`);
      if (row?.task === 'SUCCESS') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const ended = performance.now();
    const { rows } = await database.sql.executeSql('select count(*)::int as n from answers');
    const answers = Number(rows[0]?.n ?? 0);
    const validatedAt = seen.get('VALIDATED') ?? started;
    const injectedAt = seen.get('INJECTED') ?? seen.get('SUCCEED') ?? ended;
    const injectSeconds = (injectedAt - validatedAt) / 1000;
    const totalSeconds = (ended - started) / 1000;
    await app.close();
    return {
      studies,
      zipBytes: zip.length,
      answers,
      injectSeconds,
      injectAnswersPerSecond: Math.round(answers / injectSeconds),
      totalSeconds,
      totalAnswersPerSecond: Math.round(answers / totalSeconds),
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
      loadAverage: os.loadavg()[0] ?? 0,
    };
  } finally {
    await jobs?.stop();
    await database.close();
    await rm(tempDir, { recursive: true, force: true });
    const cleanup = new pg.Client({ connectionString: serverUrl });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  }
}

/** The measurement's lines, as printed alone and in `npm run bench`. */
export function printStudiesUpload(result: StudiesUploadResult): void {
  const rate = (value: number) => value.toLocaleString('en-GB');
  console.log(
    `studies upload: ${result.studies} studies, ${(result.zipBytes / 1024 / 1024).toFixed(1)} MB zip, ${result.answers} answers`,
  );
  console.log(
    `  injection   ${result.injectSeconds.toFixed(2)} s  ${rate(result.injectAnswersPerSecond)} answers/s (target > 100,000)`,
  );
  console.log(
    `  whole run   ${result.totalSeconds.toFixed(2)} s  ${rate(result.totalAnswersPerSecond)} answers/s (upload, unpack, validate, inject)`,
  );
  console.log(
    `  peak memory ${(result.peakRssBytes / 1024 / 1024).toFixed(0)} MB (target < 500 MB), load average ${result.loadAverage.toFixed(2)}`,
  );
}

/**
 * The measurement in a child process (this file run with --json), so its peak memory is the upload's
 * own; what `npm run bench` calls after the HTTP endpoints on PostgreSQL.
 */
export async function runStudiesUploadBench(serverUrl: string, studies = 20): Promise<StudiesUploadResult> {
  const script = fileURLToPath(import.meta.url);
  const child = spawn(
    process.execPath,
    [...process.execArgv, script, '--database-url', serverUrl, '--studies', String(studies), '--json'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    output += chunk;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const line = output.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
  if (code !== 0 || !line) throw new Error(`the studies upload measurement failed (exit ${code})`);
  return JSON.parse(line.slice(RESULT_PREFIX.length)) as StudiesUploadResult;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      'database-url': { type: 'string', default: 'postgres://postgres:postgres@localhost:5432/postgres' },
      studies: { type: 'string', default: '20' },
      json: { type: 'boolean', default: false },
    },
  });
  const result = await measureStudiesUpload(values['database-url'] as string, Number(values.studies));
  if (values.json) console.log(`${RESULT_PREFIX}${JSON.stringify(result)}`);
  else printStudiesUpload(result);
}
