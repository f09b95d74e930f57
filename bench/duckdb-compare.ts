/**
 * The DuckDB comparison of `npm run bench` (PostgreSQL only): the answers of the measured metric, with
 * their respondents' gender and age and the products the server's metric search returned, are copied
 * (COPY ... TO STDOUT as CSV files) into an in-memory DuckDB, which computes the same aggregates per
 * product: n, mean and top 2 box share, unfiltered and under the gender and age filter. Each query runs
 * once to warm up, then `runs` times; its median is set against our server times. The numbers are
 * checked against the server's result, so both compute the same thing from the same answers.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { BOX_TOLERANCE } from '@accord/stats';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';

export interface DuckdbFilter {
  gender: string[];
  startAge: number;
  endAge: number;
}

export interface DuckdbAggregate {
  /** Median of the timed runs. */
  medianMs: number;
  runs: number[];
  products: number;
  /** Products whose n or top 2 box share differ from the server's result. */
  mismatches: number;
}

export interface DuckdbComparison {
  metric: string;
  answers: number;
  respondents: number;
  products: number;
  exportMs: number;
  loadMs: number;
  unfiltered: DuckdbAggregate;
  filtered: DuckdbAggregate;
}

/** Per product, what the server answered for a metric search: base and top 2 box share. */
export type ServerNumbers = Map<number, { n: number; top2: number | null }>;

const median = (values: number[]) => {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function copyToFile(client: pg.Client, query: string, file: string): Promise<void> {
  await pipeline(
    client.query(copyTo(`COPY (${query}) TO STDOUT WITH (FORMAT csv)`)),
    createWriteStream(file),
  );
}

async function count(connection: DuckDBConnection, table: string): Promise<number> {
  const reader = await connection.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM ${table}`);
  return Number(reader.getRowObjects()[0]?.n ?? 0);
}

export async function compareWithDuckdb(options: {
  databaseUrl: string;
  metric: string;
  filter: DuckdbFilter;
  unfilteredServer: ServerNumbers;
  filteredServer: ServerNumbers;
  runs: number;
}): Promise<DuckdbComparison> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'accord-duckdb-'));
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const { rows } = await client.query<{ id: number }>('SELECT id FROM metrics WHERE name = $1', [
      options.metric,
    ]);
    const metricId = Number(rows[0]?.id);
    if (!Number.isInteger(metricId)) throw new Error(`No metric ${options.metric}`);
    const productIds = [...options.unfilteredServer.keys()];

    const exportStarted = performance.now();
    const answersFile = path.join(dir, 'answers.csv');
    const respondentsFile = path.join(dir, 'respondents.csv');
    await copyToFile(
      client,
      `SELECT product_id, respondent_id, value FROM answers WHERE metric_id = ${metricId}`,
      answersFile,
    );
    await copyToFile(client, 'SELECT id, gender, age FROM respondents', respondentsFile);
    const exportMs = performance.now() - exportStarted;

    const loadStarted = performance.now();
    await connection.run(`CREATE TABLE answers AS SELECT * FROM read_csv('${answersFile}', header = false,
      columns = {'product_id': 'INTEGER', 'respondent_id': 'INTEGER', 'value': 'FLOAT'})`);
    await connection.run(`CREATE TABLE respondents AS SELECT * FROM read_csv('${respondentsFile}', header = false,
      columns = {'id': 'INTEGER', 'gender': 'VARCHAR', 'age': 'SMALLINT'})`);
    await connection.run('CREATE TABLE products (id INTEGER)');
    const appender = await connection.createAppender('products');
    for (const id of productIds) {
      appender.appendInteger(id);
      appender.endRow();
    }
    appender.closeSync();
    const loadMs = performance.now() - loadStarted;

    // The server's rules (METRICS.md section 1): answers outside the 5-point scale are left out; the
    // top 2 box counts harmonised values of 3.5 and above, with the same tolerance.
    const lo = (threshold: number) => threshold - BOX_TOLERANCE;
    const hi = (threshold: number) => threshold + BOX_TOLERANCE;
    const aggregate = (where: string) => `SELECT a.product_id, count(*)::INTEGER AS n,
        avg(a.value::DOUBLE) AS mean,
        count(*) FILTER (WHERE a.value::DOUBLE >= ${lo(3.5)}) / count(*) AS top2
      FROM answers a JOIN products p ON p.id = a.product_id ${where}
      WHERE a.value::DOUBLE BETWEEN ${lo(1)} AND ${hi(5)}
      GROUP BY a.product_id`;
    const genders = options.filter.gender.map((value) => `'${value.replaceAll("'", "''")}'`).join(', ');
    const queries = {
      unfiltered: aggregate(''),
      filtered: aggregate(
        `JOIN respondents r ON r.id = a.respondent_id AND r.gender IN (${genders})
          AND r.age BETWEEN ${Math.trunc(options.filter.startAge)} AND ${Math.trunc(options.filter.endAge)}`,
      ),
    };

    const measure = async (sql: string, server: ServerNumbers): Promise<DuckdbAggregate> => {
      const checked = await connection.runAndReadAll(sql);
      const found = checked.getRowObjects() as { product_id: number; n: number; top2: number }[];
      let mismatches = 0;
      const seen = new Set<number>();
      for (const row of found) {
        const ours = server.get(Number(row.product_id));
        seen.add(Number(row.product_id));
        if (
          !ours ||
          ours.n !== Number(row.n) ||
          ours.top2 === null ||
          Math.abs(ours.top2 - Number(row.top2)) > 1e-9
        )
          mismatches++;
      }
      for (const [id, ours] of server) if (!seen.has(id) && ours.n > 0) mismatches++;
      const runs: number[] = [];
      for (let i = 0; i < options.runs; i++) {
        const started = performance.now();
        await connection.runAndReadAll(sql);
        runs.push(performance.now() - started);
      }
      return { medianMs: median(runs), runs, products: found.length, mismatches };
    };

    return {
      metric: options.metric,
      answers: await count(connection, 'answers'),
      respondents: await count(connection, 'respondents'),
      products: productIds.length,
      exportMs,
      loadMs,
      unfiltered: await measure(queries.unfiltered, options.unfilteredServer),
      filtered: await measure(queries.filtered, options.filteredServer),
    };
  } finally {
    connection.closeSync();
    instance.closeSync();
    await client.end();
    await rm(dir, { recursive: true, force: true });
  }
}
