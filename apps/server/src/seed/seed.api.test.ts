import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client.ts';
import { createLocalFileStorage, type FileStorage } from '../storage/file-storage.ts';
import { METRICS } from './catalogue.ts';
import { seedDemoLibrary, type DemoLibrarySummary } from './library.ts';
import { seedReferenceData } from './reference-data.ts';
import { planStudy } from './study-plan.ts';
import { seedUsers } from './users.ts';

const SEED = 7;
const LAST_YEAR = 2024;

let database: Database;
let storage: FileStorage;
let tempDir: string;
let summary: DemoLibrarySummary;

async function scalar(text: string, values?: unknown[]): Promise<number> {
  const { rows } = await database.sql.executeSql(text, values);
  return Number(Object.values(rows[0] ?? {})[0]);
}

beforeAll(async () => {
  database = await openDatabase({ dataDir: 'memory://' });
  tempDir = await mkdtemp(path.join(os.tmpdir(), 'accord-seed-'));
  storage = createLocalFileStorage(tempDir);
  await seedReferenceData(database);
  await seedUsers(database, { password: 'seed-test-password' });
  summary = await seedDemoLibrary(database, storage, { studies: 3, seed: SEED, lastYear: LAST_YEAR });
});

afterAll(async () => {
  await database.close();
  await rm(tempDir, { recursive: true, force: true });
});

describe('seedReferenceData and seedUsers', () => {
  it('are idempotent', async () => {
    const before = await Promise.all(
      ['roles', 'metrics', 'field_definitions', 'field_options', 'users'].map((t) =>
        scalar(`SELECT count(*) FROM ${t}`),
      ),
    );
    await seedReferenceData(database);
    expect(await seedUsers(database, { password: 'other' })).toEqual([]);
    const after = await Promise.all(
      ['roles', 'metrics', 'field_definitions', 'field_options', 'users'].map((t) =>
        scalar(`SELECT count(*) FROM ${t}`),
      ),
    );
    expect(after).toEqual(before);
    expect(before[0]).toBe(4);
    expect(before[1]).toBe(METRICS.length);
    expect(before[4]).toBe(4);
  });

  it('limits the client user to two clients that own studies of the library', async () => {
    const { rows } = await database.sql.executeSql(
      `SELECT clients FROM users WHERE email = 'client@accord.test'`,
    );
    const clients = rows[0]?.clients as string[];
    expect(clients).toHaveLength(2);
    for (const client of clients) {
      expect(await scalar('SELECT count(*) FROM studies WHERE client = $1', [client])).toBeGreaterThan(0);
    }
  });
});

describe('seedDemoLibrary', () => {
  it('loads the default shape: 8 products, 150 respondents, 25 questions per study', async () => {
    expect(await scalar('SELECT count(*) FROM studies')).toBe(3);
    expect(await scalar('SELECT count(*) FROM products')).toBe(24);
    expect(await scalar('SELECT count(*) FROM respondents')).toBe(450);
    expect(await scalar('SELECT count(*) FROM questions')).toBe(75);
    expect(await scalar('SELECT count(*) FROM answers')).toBe(summary.answers);
    expect(summary.answers).toBeGreaterThan(3 * 8 * 150 * 25 * 0.6);
    expect(summary.rebuiltIndexes).toBe(true);
    // The dropped answer indexes are back.
    const { rows: indexes } = await database.sql.executeSql(
      `SELECT indexname AS name FROM pg_indexes WHERE tablename = 'answers' ORDER BY 1`,
    );
    expect(indexes.map((i) => i.name)).toEqual([
      'answers_metric_product_idx',
      'answers_question_id_product_id_respondent_id_pk',
    ]);
  });

  it('stores harmonised values: 1 + 4 (v - min) / (max - min), EEG scores unchanged', async () => {
    const worst = await scalar(`
      SELECT max(abs(a.value - CASE WHEN q.question_type = 'eeg' THEN a.raw_value
        ELSE 1 + 4 * (a.raw_value - q.scale_min) / (q.scale_max - q.scale_min) END))
      FROM answers a JOIN questions q ON q.id = a.question_id`);
    expect(worst).toBeLessThan(1e-5);
    expect(await scalar('SELECT count(*) FROM answers WHERE value < 0 OR value > 5')).toBe(0);
    expect(
      await scalar(
        'SELECT count(*) FROM answers a JOIN questions q ON q.id = a.question_id WHERE a.metric_id IS DISTINCT FROM q.metric_id',
      ),
    ).toBe(0);
  });

  it('precomputes product statistics that match the answers', async () => {
    const mismatches = await scalar(`
      SELECT count(*) FROM product_metric_stats s
      JOIN (SELECT product_id, metric_id, count(*) AS n, sum(value::float8) AS total,
              count(*) FILTER (WHERE value >= 3.5 - 1e-6) AS t2b
            FROM answers WHERE metric_id IS NOT NULL GROUP BY 1, 2) a USING (product_id, metric_id)
      JOIN metrics m ON m.id = s.metric_id
      WHERE s.n <> a.n OR abs(s.sum - a.total) > 1e-6
        OR (m.kind <> 'eeg' AND s.n_top_2_box <> a.t2b)`);
    expect(mismatches).toBe(0);
    expect(await scalar('SELECT count(*) FROM product_metric_stats')).toBe(
      await scalar(
        'SELECT count(*) FROM (SELECT DISTINCT product_id, metric_id FROM answers WHERE metric_id IS NOT NULL) x',
      ),
    );
  });

  it('writes every file type with its versions to storage', async () => {
    const { rows } = await database.sql.executeSql(`
      SELECT f.file_type, v.storage_key, v.size, f.current_version_id, v.id AS version_id
      FROM study_files f JOIN study_file_versions v ON v.file_id = f.id`);
    expect(new Set(rows.map((r) => r.file_type))).toEqual(
      new Set(['report', 'questionnaire', 'protocol', 'RDF', 'screener']),
    );
    for (const row of rows) {
      expect(await storage.size(String(row.storage_key))).toBe(Number(row.size));
    }
    expect(await scalar('SELECT count(*) FROM study_files WHERE current_version_id IS NULL')).toBe(0);
    expect(await scalar('SELECT count(*) FROM questions WHERE results_file_id IS NULL')).toBe(0);
  });

  it('gives fragrances of higher latent quality higher liking on average', async () => {
    const { rows } = await database.sql.executeSql(`
      SELECT s.c_mi_number, p.code, avg(a.value)::float8 AS liking
      FROM answers a JOIN products p ON p.id = a.product_id JOIN studies s ON s.id = a.study_id
      JOIN metrics m ON m.id = a.metric_id
      WHERE m.name = 'liking' AND p.kind = 'fragrance'
      GROUP BY s.c_mi_number, p.code`);
    const shape = { seed: SEED, products: 8, respondents: 150, questions: 25, lastYear: LAST_YEAR };
    const qualities: number[] = [];
    const likings: number[] = [];
    for (let index = 0; index < 3; index++) {
      const plan = planStudy(shape, index);
      const fragrances = plan.products.filter((p) => p.kind === 'fragrance');
      const likingOf = (code: string) =>
        Number(rows.find((r) => r.c_mi_number === plan.metadata.cMiNumber && r.code === code)?.liking);
      const best = fragrances.reduce((a, b) => (b.latent.quality > a.latent.quality ? b : a));
      const worst = fragrances.reduce((a, b) => (b.latent.quality < a.latent.quality ? b : a));
      expect(likingOf(best.code)).toBeGreaterThan(likingOf(worst.code));
      for (const fragrance of fragrances) {
        qualities.push(fragrance.latent.quality);
        likings.push(likingOf(fragrance.code));
      }
    }
    expect(pearson(qualities, likings)).toBeGreaterThan(0.5);
  });

  it('is deterministic and appends further studies after the existing ones', async () => {
    const other = await openDatabase({ dataDir: 'memory://' });
    const otherDir = await mkdtemp(path.join(os.tmpdir(), 'accord-seed-'));
    try {
      await seedReferenceData(other);
      const again = await seedDemoLibrary(other, createLocalFileStorage(otherDir), {
        studies: 3,
        seed: SEED,
        lastYear: LAST_YEAR,
      });
      expect(again.answers).toBe(summary.answers);
      const fingerprint = `SELECT (SELECT string_agg(project_name || c_mi_number, '|' ORDER BY id) FROM studies) AS studies,
        (SELECT sum(value::float8 * (question_id % 7 + 1)) FROM answers) AS answers`;
      expect((await other.sql.executeSql(fingerprint)).rows).toEqual(
        (await database.sql.executeSql(fingerprint)).rows,
      );
    } finally {
      await other.close();
      await rm(otherDir, { recursive: true, force: true });
    }

    const more = await seedDemoLibrary(database, storage, { studies: 1, seed: SEED, lastYear: LAST_YEAR });
    expect(more.firstStudyId).toBe(4);
    expect(more.rebuiltIndexes).toBe(false);
    expect(await scalar('SELECT count(DISTINCT c_mi_number) FROM studies')).toBe(4);
    expect(await scalar('SELECT count(*) FROM answers')).toBe(summary.answers + more.answers);
    expect(await scalar(`SELECT last_value FROM studies_id_seq`)).toBe(4);
  });
});

function pearson(xs: number[], ys: number[]): number {
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  xs.forEach((x, i) => {
    const y = ys[i] as number;
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
    syy += (y - my) ** 2;
  });
  return sxy / Math.sqrt(sxx * syy);
}
