/**
 * npx tsx bench/duckdb-filters.ts --database-url URL --origin URL [--runs N] [--ethnicity TEXT]
 *   [--memory-limit SIZE]
 *
 * What the analytics still compute from the answers table, set against DuckDB over a columnar copy of
 * the same answers: a metric search under a respondent filter the in-memory demographic tables do not
 * hold (ethnicity), and the trace of a group value (the answers of 200 products against 200 others).
 * Our figures are the running server's (`--origin`, one client alone, the caller's time, no cache);
 * DuckDB's are its queries alone, in memory, after a warm-up run. The search's numbers are checked
 * against the server's (base and top 2 box of every product), so both compute the same thing.
 * `--memory-limit` (e.g. 256MB) bounds DuckDB's memory as an embedded copy in the server would be
 * bounded (beyond it DuckDB spills to a temporary folder); the memory DuckDB holds after loading the
 * copy is printed.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { BOX_TOLERANCE } from '@accord/stats';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    origin: { type: 'string' },
    runs: { type: 'string', default: '7' },
    ethnicity: { type: 'string', default: 'East Asian' },
    'memory-limit': { type: 'string' },
    password: { type: 'string', default: process.env.ACCORD_DEMO_PASSWORD ?? 'accord-demo' },
  },
});
if (!values['database-url'] || !values.origin) {
  console.error('Usage: npx tsx bench/duckdb-filters.ts --database-url URL --origin URL [--runs N]');
  process.exit(2);
}
const databaseUrl = values['database-url'];
const origin = values.origin.replace(/\/$/, '');
const runs = Number(values.runs);
const ethnicity = values.ethnicity;

const percentile = (list: number[], share: number) => {
  const sorted = list.slice().sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN;
};
const summary = (list: number[]) => ({ p50: percentile(list, 0.5), p95: percentile(list, 0.95) });

async function signIn(email: string): Promise<string> {
  const response = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: values.password, remember: false }),
  });
  const header = response.headers.get('authorization');
  if (!response.ok || !header) throw new Error(`Sign-in of ${email} failed: ${response.status}`);
  return header.replace(/^Bearer /, '');
}

type SearchRow = { id: number; values: Record<string, number | null>; bases: Record<string, number> };

/** A metric search through the server without its cache, until the caller holds the whole result. */
async function serverSearch(token: string, body: unknown): Promise<{ ms: number; rows: SearchRow[] }> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const started = performance.now();
  const queued = await fetch(`${origin}/api/analytics/fragrances?no_cache=true`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  const { jobid } = (await queued.json()) as { jobid: string };
  for (;;) {
    const response = await fetch(`${origin}/api/analytics/fragrances/${jobid}`, { headers });
    const status = (await response.json()) as {
      status: string;
      error: string | null;
      result: { json: { results: SearchRow[] } } | null;
    };
    if (status.status === 'FAILURE') throw new Error(`The search failed: ${status.error}`);
    if (status.status === 'SUCCESS' && status.result)
      return { ms: performance.now() - started, rows: status.result.json.results };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const GROUP = Array.from({ length: 200 }, (_, index) => index + 1);
const VERSUS = Array.from({ length: 200 }, (_, index) => index + 201);

async function serverTrace(token: string): Promise<{ ms: number; answers: number; respondents: number }> {
  const started = performance.now();
  const response = await fetch(`${origin}/api/trace`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      products: GROUP,
      metric: 'liking',
      aggregation: 'mean',
      unit: 'products',
      versus: { products: VERSUS },
    }),
  });
  const answer = (await response.json()) as { base: { answers: number; respondents: number } };
  if (!response.ok) throw new Error(`The trace failed: ${response.status} ${JSON.stringify(answer)}`);
  return { ms: performance.now() - started, ...answer.base };
}

async function copyToFile(client: pg.Client, query: string, file: string): Promise<void> {
  await pipeline(
    client.query(copyTo(`COPY (${query}) TO STDOUT WITH (FORMAT csv)`)),
    createWriteStream(file),
  );
}

async function timed(connection: DuckDBConnection, sql: string): Promise<number[]> {
  await connection.runAndReadAll(sql);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await connection.runAndReadAll(sql);
    times.push(performance.now() - started);
  }
  return times;
}

async function main(): Promise<void> {
  const researcher = await signIn('researcher@accord.test');
  const admin = await signIn('admin@accord.test');
  const searchBody = {
    q: {
      demographics: { ethnicity: [ethnicity] },
      metrics: { rdfType: 'all', metricsList: [{ metric: 'liking', aggregation: 'top_2_box' }] },
    },
  };

  // Ours: one client alone, after one call that warms what a first call loads.
  const first = await serverSearch(researcher, searchBody);
  const searchTimes: number[] = [];
  for (let i = 0; i < runs; i++) searchTimes.push((await serverSearch(researcher, searchBody)).ms);
  await serverTrace(admin);
  const traceTimes: number[] = [];
  let traced = { answers: 0, respondents: 0 };
  for (let i = 0; i < runs; i++) {
    const { ms, ...base } = await serverTrace(admin);
    traceTimes.push(ms);
    traced = base;
  }

  const dir = await mkdtemp(path.join(os.tmpdir(), 'accord-duckdb-filters-'));
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const memoryLimit = values['memory-limit'];
  if (memoryLimit) {
    if (!/^\d+(\.\d+)?\s*[KMG]i?B$/i.test(memoryLimit)) throw new Error(`Not a size: ${memoryLimit}`);
    await connection.run(`SET memory_limit = '${memoryLimit}'`);
    await connection.run(`SET temp_directory = '${path.join(dir, 'spill')}'`);
  }
  try {
    const { rows } = await client.query<{ id: number }>("SELECT id FROM metrics WHERE name = 'liking'");
    const metricId = Number(rows[0]?.id);
    const copyStarted = performance.now();
    const answersFile = path.join(dir, 'answers.csv');
    const respondentsFile = path.join(dir, 'respondents.csv');
    await copyToFile(
      client,
      `SELECT product_id, respondent_id, question_id, value FROM answers WHERE metric_id = ${metricId}`,
      answersFile,
    );
    await copyToFile(client, 'SELECT id, gender, age, ethnicity FROM respondents', respondentsFile);
    const copyMs = performance.now() - copyStarted;
    const loadStarted = performance.now();
    await connection.run(`CREATE TABLE answers AS SELECT * FROM read_csv('${answersFile}', header = false,
      columns = {'product_id': 'INTEGER', 'respondent_id': 'INTEGER', 'question_id': 'INTEGER', 'value': 'FLOAT'})`);
    await connection.run(`CREATE TABLE respondents AS SELECT * FROM read_csv('${respondentsFile}', header = false,
      columns = {'id': 'INTEGER', 'gender': 'VARCHAR', 'age': 'SMALLINT', 'ethnicity': 'VARCHAR'})`);
    // The products the server's search covers (fragrances of the studies it searches), as DuckDB's list.
    await connection.run('CREATE TABLE products (id INTEGER)');
    const appender = await connection.createAppender('products');
    for (const row of first.rows) {
      appender.appendInteger(row.id);
      appender.endRow();
    }
    appender.closeSync();
    const loadMs = performance.now() - loadStarted;
    const heldBytes = Number(
      (
        await connection.runAndReadAll('SELECT sum(memory_usage_bytes)::BIGINT AS bytes FROM duckdb_memory()')
      ).getRowObjects()[0]?.bytes,
    );
    const answers = Number(
      (await connection.runAndReadAll('SELECT count(*)::INTEGER AS n FROM answers')).getRowObjects()[0]?.n,
    );

    const lo = (threshold: number) => threshold - BOX_TOLERANCE;
    const hi = (threshold: number) => threshold + BOX_TOLERANCE;
    const inScale = `a.value::DOUBLE BETWEEN ${lo(1)} AND ${hi(5)}`;
    const filtered = `SELECT a.product_id, count(*)::INTEGER AS n,
        count(*) FILTER (WHERE a.value::DOUBLE >= ${lo(3.5)}) / count(*) AS top2
      FROM answers a JOIN products p ON p.id = a.product_id
        JOIN respondents r ON r.id = a.respondent_id AND r.ethnicity = '${ethnicity.replaceAll("'", "''")}'
      WHERE ${inScale}
      GROUP BY a.product_id`;
    // The trace's reads: per product and per question the counted answers and their sums, the
    // distinct respondents and the answers out of scale, for the group and the group it is set against.
    const productList = (ids: number[]) => ids.join(', ');
    const traceQueries = [GROUP, VERSUS].flatMap((ids) => [
      `SELECT product_id, question_id, count(*) AS n, sum(value::DOUBLE) AS s, sum(value::DOUBLE * value::DOUBLE) AS ss
        FROM answers a WHERE product_id IN (${productList(ids)}) AND ${inScale} GROUP BY product_id, question_id`,
      `SELECT count(DISTINCT respondent_id) AS n FROM answers a WHERE product_id IN (${productList(ids)}) AND ${inScale}`,
      `SELECT count(*) AS n FROM answers a WHERE product_id IN (${productList(ids)}) AND NOT (${inScale})`,
    ]);

    const duckRows = (await connection.runAndReadAll(filtered)).getRowObjects() as {
      product_id: number;
      n: number;
      top2: number;
    }[];
    const ours = new Map(first.rows.map((row) => [row.id, row]));
    let mismatches = 0;
    for (const row of duckRows) {
      const mine = ours.get(Number(row.product_id));
      const n = mine?.bases['liking.top_2_box'];
      const top2 = mine?.values['liking.top_2_box'];
      if (n !== Number(row.n) || top2 == null || Math.abs(top2 - Number(row.top2)) > 1e-9) {
        mismatches++;
        if (process.env.SHOW_MISMATCHES && mismatches <= 5)
          console.log('differs', row.product_id, { ours: { n, top2 }, duckdb: { n: row.n, top2: row.top2 } });
      }
    }
    const searchDuck = await timed(connection, filtered);
    const traceDuck: number[] = [];
    await Promise.all(traceQueries.map((query) => connection.runAndReadAll(query)));
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      for (const query of traceQueries) await connection.runAndReadAll(query);
      traceDuck.push(performance.now() - started);
    }
    const groupAnswers = Number(
      (
        await connection.runAndReadAll(
          `SELECT count(*)::INTEGER AS n FROM answers a WHERE product_id IN (${productList(GROUP)}) AND ${inScale}`,
        )
      ).getRowObjects()[0]?.n,
    );

    const ms = (value: number) => value.toFixed(1);
    console.log(
      `liking: ${answers.toLocaleString('en-US')} answers copied in ${ms(copyMs)} ms, loaded into DuckDB in ${ms(loadMs)} ms, held in ${(heldBytes / 1048576).toFixed(1)} MB (memory limit ${memoryLimit ?? 'DuckDB default'})`,
    );
    const table = [
      ['measured (one client alone)', 'ours p50', 'ours p95', 'DuckDB p50', 'DuckDB p95', 'ours/DuckDB p95'],
      [
        `metric search, ethnicity ${ethnicity}, whole result (${duckRows.length} products, ${mismatches} differ)`,
        ...[summary(searchTimes), summary(searchDuck)].flatMap((s) => [ms(s.p50), ms(s.p95)]),
        (summary(searchTimes).p95 / summary(searchDuck).p95).toFixed(1),
      ],
      [
        `trace of a group value, 200 vs 200 products (group answers: ours ${traced.answers}, DuckDB ${groupAnswers})`,
        ...[summary(traceTimes), summary(traceDuck)].flatMap((s) => [ms(s.p50), ms(s.p95)]),
        (summary(traceTimes).p95 / summary(traceDuck).p95).toFixed(1),
      ],
    ];
    const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
    for (const row of table)
      console.log(
        row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '),
      );
  } finally {
    connection.closeSync();
    instance.closeSync();
    await client.end();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
