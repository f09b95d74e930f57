import {
  STUDIES_UPLOAD_MESSAGES,
  type FileProcessDetail,
  type FileProcessRow,
  type FileTreeNode,
  type MetricSearchStatus,
} from '@accord/contracts';
import { BOX_TOLERANCE, harmoniseToFivePoint } from '@accord/stats';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileProcesses, jobResults, studies } from '../../db/schema.ts';
import { buildSampleZips, studyZipEntries } from '../../seed/sample-zips.ts';
import { generateAnswers, planStudy } from '../../seed/study-plan.ts';
import { buildZip } from '../../seed/zip.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import { createTestApp, errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';
import { csvRecords } from '../../lib/csv-table.ts';
import { createFileProcessRepository } from './fileprocess.repository.ts';
import { createFileProcessService } from './fileprocess.service.ts';
import { unpackToMemory } from './unpack.ts';

let t: TestApp;
let disk: FileStorage;
/** Called before every stored stream: a test makes the disk fail through it. */
let beforeStore: ((key: string) => Promise<void>) | null = null;
const tokens = {} as Record<DemoRole, string>;
const samples = buildSampleZips();

beforeAll(async () => {
  t = await createTestApp({
    storage: (storage) => {
      disk = storage;
      return {
        ...storage,
        async putStream(key, stream) {
          await beforeStore?.(key);
          return storage.putStream(key, stream);
        },
      };
    },
  });
  for (const role of ['admin', 'researcher', 'client', 'sales'] as const) tokens[role] = await t.login(role);
});
afterAll(async () => {
  await t?.close();
});

async function multipart(fields: Record<string, string>, file?: { name: string; bytes: Uint8Array }) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (file) form.append('file', new Blob([file.bytes]), file.name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}

const FORM = { client: 'Northwind', study_type: 'Fragrance', region: 'Europe', year: '2024' };

async function upload(
  zip: Uint8Array,
  role: DemoRole | null = 'researcher',
  fields: Record<string, string> = FORM,
) {
  const body = await multipart(fields, { name: 'studies.zip', bytes: zip });
  return t.request({
    method: 'POST',
    url: '/api/fileprocess/studies_upload',
    token: role ? tokens[role] : undefined,
    ...body,
  });
}

interface StreamEvent {
  event: string;
  data: Record<string, unknown>;
}

/** The whole status stream of a task (it ends after its result or error event). */
async function statusEvents(taskId: string, role: DemoRole = 'researcher'): Promise<StreamEvent[]> {
  const response = await t.request({
    method: 'GET',
    url: `/api/fileprocess/${taskId}/status`,
    token: tokens[role],
  });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toContain('text/event-stream');
  return response.body
    .split('\n\n')
    .filter((block) => block.startsWith('event:'))
    .map((block) => {
      const [eventLine, dataLine] = block.split('\n');
      return {
        event: eventLine!.slice('event: '.length),
        data: JSON.parse(dataLine!.slice('data: '.length)),
      };
    });
}

/**
 * The events of a task, and when it stopped for the studies' differences from the upload form (the
 * form of these tests names one client, region and year for studies of several), those of the
 * confirmation that processes them.
 */
async function confirmedEvents(taskId: string, processId: number, role: DemoRole = 'admin') {
  const events = await statusEvents(taskId, role);
  const last = events.at(-1)!;
  if (last.event !== 'result' || last.data.status !== 'VALIDATED') return events;
  const confirmed = await t.request({
    method: 'POST',
    url: `/api/fileprocess/fileprocess/${processId}/process_studies`,
    token: tokens[role],
    payload: { confirm_form: true },
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return statusEvents(confirmed.json<{ task_id: string }>().task_id, role);
}

const detail = async (id: number, role: DemoRole = 'researcher') => {
  const response = await t.request({
    method: 'GET',
    url: `/api/fileprocess/file-process/${id}`,
    token: tokens[role],
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<FileProcessDetail>();
};

const allIssues = (
  nodes: FileTreeNode[],
): { file: string; node: string; level: string; high_msg: string }[] =>
  nodes.flatMap((node) => [
    ...node.errors.map((e) => ({
      file: e.path.file,
      node: node.file_path,
      level: e.level,
      high_msg: e.high_msg,
    })),
    ...allIssues(node.children ?? []),
  ]);

const encode = (filePath: string) => Buffer.from(filePath, 'utf8').toString('base64url');

/**
 * Rows that differ between the stored statistics tables and recomputing them from the answers (every
 * column; sums to 4 decimals): 0 when an upload, a replacement or a removal kept them in step.
 */
async function statisticsDifferences(): Promise<number> {
  const low = sql.raw(String(1 - BOX_TOLERANCE));
  const high = sql.raw(String(5 + BOX_TOLERANCE));
  const box = (value: string, tolerance: number) => {
    const at = (threshold: number, sign: 1 | -1) =>
      sql.raw(`${value} ${sign > 0 ? '>=' : '<='} ${threshold}`);
    const t = tolerance;
    return sql`count(*) filter (where ${at(4.5 - t, 1)})::int as top, count(*) filter (where ${at(3.5 - t, 1)})::int as top2,
      count(*) filter (where ${sql.raw(`${value} > ${2.5 + t} and ${value} < ${3.5 - t}`)})::int as jr,
      count(*) filter (where ${at(2.5 + t, -1)})::int as bottom2, count(*) filter (where ${at(1.5 + t, -1)})::int as bottom`;
  };
  const [row] = await t.database.rows<{ n: number }>(sql`
    with stored as (
      select product_id, metric_id, gender, age, in_scale, sum(n)::int as n,
        round(sum(sum)::numeric, 4) as s, round(sum(sum_sq)::numeric, 4) as sq,
        sum(n_top_box)::int as top, sum(n_top_2_box)::int as top2, sum(n_just_right)::int as jr,
        sum(n_bottom_2_box)::int as bottom2, sum(n_bottom_box)::int as bottom
      from product_metric_demo_stats group by 1, 2, 3, 4, 5),
    fresh as (
      select a.product_id, a.metric_id, r.gender, r.age, a.value between ${low} and ${high} as in_scale,
        count(*)::int as n, round(sum(a.value::float8)::numeric, 4) as s,
        round(sum(a.value::float8 * a.value::float8)::numeric, 4) as sq, ${box('a.value::float8', BOX_TOLERANCE)}
      from answers a join respondents r on r.id = a.respondent_id
      where a.metric_id is not null group by 1, 2, 3, 4, 5),
    kept as (
      select product_id, metric_id, n, round(sum::numeric, 4) as s, round(sum_sq::numeric, 4) as sq,
        n_top_box as top, n_top_2_box as top2, n_just_right as jr, n_bottom_2_box as bottom2, n_bottom_box as bottom
      from product_metric_stats),
    counted as (
      select a.product_id, a.metric_id, count(*)::int as n, round(sum(a.value::float8)::numeric, 4) as s,
        round(sum(a.value::float8 * a.value::float8)::numeric, 4) as sq, ${box('a.value', 1e-6)}
      from answers a join metrics m on m.id = a.metric_id
      where a.metric_id is not null and m.kind <> 'eeg' group by a.product_id, a.metric_id
      union all
      select a.product_id, a.metric_id, count(*)::int, round(sum(a.value::float8)::numeric, 4),
        round(sum(a.value::float8 * a.value::float8)::numeric, 4), 0, 0, 0, 0, 0
      from answers a join metrics m on m.id = a.metric_id
      where m.kind = 'eeg' group by a.product_id, a.metric_id)
    select (
      (select count(*) from (select * from stored except select * from fresh) x) +
      (select count(*) from (select * from fresh except select * from stored) y) +
      (select count(*) from (select * from kept except select * from counted) z) +
      (select count(*) from (select * from counted except select * from kept) w))::int as n`);
  return row!.n;
}

describe('POST /api/fileprocess/studies_upload', () => {
  it('needs a signed-in admin or analytics user', async () => {
    expect((await upload(samples.clean, null)).statusCode).toBe(401);
    for (const role of ['client', 'sales'] as const) {
      const response = await upload(samples.clean, role);
      expect(response.statusCode).toBe(403);
      expect(errorBody(response).message).toBe('You do not have permission to do this.');
    }
  });

  it('refuses empty fields, a missing file, a non-zip and unsafe zips with a clear message, storing nothing', async () => {
    const before = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(fileProcesses);
    const empty = await upload(samples.clean, 'researcher', { ...FORM, client: '' });
    expect(empty.statusCode).toBe(400);
    expect(errorBody(empty).message).toBe('client: Empty client');
    const noFile = await t.request({
      method: 'POST',
      url: '/api/fileprocess/studies_upload',
      token: tokens.researcher,
      ...(await multipart(FORM)),
    });
    expect(errorBody(noFile).message).toBe(STUDIES_UPLOAD_MESSAGES.noFile);
    const notZip = await upload(new TextEncoder().encode('%PDF-1.4 not a zip'));
    expect(notZip.statusCode).toBe(400);
    expect(errorBody(notZip).message).toBe('The file is not a zip archive.');
    const slip = await upload(buildZip([{ name: 'CMI-1/../../../etc/cron.d/evil', data: 'x' }]));
    expect(slip.statusCode).toBe(400);
    expect(errorBody(slip).message).toBe(
      'The zip entry "CMI-1/../../../etc/cron.d/evil" points outside the zip\'s folder.',
    );
    const nested = await upload(buildZip([{ name: 'CMI-1/inner.zip', data: 'PK' }]));
    expect(errorBody(nested).message).toBe(
      'The zip entry "CMI-1/inner.zip" is itself an archive; nested zips are not accepted.',
    );
    const after = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(fileProcesses);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('ends a zip bomb whose headers lie ERRORED with a clear message', async () => {
    const zip = Buffer.from(buildZip([{ name: 'CMI-1/results/bomb.csv', data: '0'.repeat(2_000_000) }]));
    // Declare 100 bytes in both headers: the directory looks harmless, the content is not.
    const eocd = zip.length - 22;
    const central = zip.readUInt32LE(eocd + 16);
    zip.writeUInt32LE(100, central + 24);
    zip.writeUInt32LE(100, 22);
    const response = await upload(zip);
    expect(response.statusCode).toBe(200);
    const { task_id, file_process_id } = response.json<{ task_id: string; file_process_id: number }>();
    const events = await statusEvents(task_id);
    expect(events.at(-1)).toEqual({
      event: 'error',
      data: {
        message: 'The zip entry "CMI-1/results/bomb.csv" unpacks to more than it declares (a zip bomb).',
      },
    });
    const { file_process } = await detail(file_process_id);
    expect(file_process.status).toBe('ERRORED');
    expect(file_process.message).toBe(
      'The zip entry "CMI-1/results/bomb.csv" unpacks to more than it declares (a zip bomb).',
    );
    expect(file_process.file_tree).toEqual([]);
  });
});

describe('the sample with errors: verify, replace, process', () => {
  let processId = 0;

  it('streams progress then an error event, and attaches exactly the expected problems to their files', async () => {
    const response = await upload(samples.withErrors);
    expect(response.statusCode).toBe(200);
    const { task_id, file_process_id } = response.json<{ task_id: string; file_process_id: number }>();
    processId = file_process_id;
    const events = await statusEvents(task_id);
    expect(events[0]!.event).toBe('progress');
    expect(events.at(-1)).toEqual({
      event: 'error',
      data: { message: '3 errors and 8 warnings found in the studies; see the file tree.' },
    });

    const { file_process, errors } = await detail(processId);
    expect(file_process).toMatchObject({
      status: 'ERRORED',
      has_uploaded_new_file: false,
      client: 'Northwind',
      study_type: 'Fragrance',
      region: 'Europe',
      year: 2024,
      cmi: samples.errorCmis.join(', '),
      filename: 'studies.zip',
    });
    expect(file_process.file_tree.map((n) => n.name)).toEqual(samples.errorCmis);
    const found = allIssues(file_process.file_tree);
    for (const issue of found) expect(issue.node).toBe(issue.file);
    const differs = 'Differs from the upload form';
    expect(
      found
        .filter((i) => i.high_msg !== differs)
        .map((i) => `${i.level} ${i.high_msg} ${i.file}`)
        .sort(),
    ).toEqual(samples.expected.map((e) => `${e.level} ${e.high_msg} ${e.file}`).sort());
    // The form said Northwind, Europe, 2024: each study that says otherwise is flagged on its Study sheet.
    const mismatches = errors
      .flatMap((e) => e.request_form)
      .filter((issue) => issue.high_msg === differs)
      .map((issue) => `${issue.level} ${issue.path.file.split('/')[0]} ${issue.msg}`);
    expect(mismatches.sort()).toEqual(
      [
        'warning CMI-2019-90003 client is "Verdant Living Co." in this study but "Northwind" on the upload form.',
        'warning CMI-2019-90003 year is "2019" in this study but "2024" on the upload form.',
        'warning CMI-2022-90004 client is "Solace Beauty Group" in this study but "Northwind" on the upload form.',
        'warning CMI-2022-90004 region is "South East Asia; Latin America" in this study but "Europe" on the upload form.',
        'warning CMI-2022-90004 year is "2022" in this study but "2024" on the upload form.',
      ].sort(),
    );
    expect(errors.map((e) => [e.path, e.request_form.length, e.results_file.length])).toEqual([
      [samples.errorCmis[0], 3, 0],
      [samples.errorCmis[1], 3, 5],
    ]);
    const outside = errors[1]!.results_file.find((e) => e.high_msg === 'Value outside its scale')!;
    expect(outside.path).toMatchObject({ file: samples.badResultsPath, row: 2 });
    expect(outside.msg).toMatch(/^99 lies outside the scale/);
  });

  it('lists the upload in the history, newest first', async () => {
    const response = await t.request({
      method: 'GET',
      url: '/api/fileprocess/file-processes',
      token: tokens.admin,
    });
    expect(response.statusCode).toBe(200);
    const rows = response.json<FileProcessRow[]>();
    expect(rows[0]).toMatchObject({ id: processId, status: 'ERRORED', client: 'Northwind', year: 2024 });
    expect(Object.keys(rows[0]!).sort()).toEqual(
      ['client', 'cmi', 'created_at', 'id', 'region', 'status', 'study_type', 'year'].sort(),
    );
  });

  it('downloads a file of the upload by its base64 path', async () => {
    const response = await t.request({
      method: 'GET',
      url: `/api/fileprocess/${processId}/${encode(samples.badResultsPath)}/download`,
      token: tokens.researcher,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain(samples.badResultsPath.split('/').pop());
    const files = await unpackToMemory(samples.withErrors);
    const original = await files.find((f) => f.path === samples.badResultsPath)!.read();
    expect(response.rawPayload.equals(original)).toBe(true);
    const missing = await t.request({
      method: 'GET',
      url: `/api/fileprocess/${processId}/${encode('nope/x.csv')}/download`,
      token: tokens.researcher,
    });
    expect(missing.statusCode).toBe(404);
    expect(errorBody(missing).message).toBe(STUDIES_UPLOAD_MESSAGES.noSuchFile);
  });

  it('replaces the bad results file, then processes the studies into the library', async () => {
    const noPath = await t.request({
      method: 'PUT',
      url: `/api/fileprocess/fileprocess/${processId}/replace_file`,
      token: tokens.researcher,
      ...(await multipart({ filepath: 'CMI-X/none.csv' }, { name: 'x.csv', bytes: samples.fixedResults })),
    });
    expect(noPath.statusCode).toBe(404);
    const replaced = await t.request({
      method: 'PUT',
      url: `/api/fileprocess/fileprocess/${processId}/replace_file`,
      token: tokens.researcher,
      ...(await multipart(
        { filepath: samples.badResultsPath },
        { name: 'fixed.csv', bytes: samples.fixedResults },
      )),
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    const after = replaced.json<FileProcessDetail>();
    expect(after.file_process.has_uploaded_new_file).toBe(true);
    // Both studies keep their warnings (the second, only those of the upload form).
    expect(after.errors.map((e) => e.path)).toEqual(samples.errorCmis);

    // The studies differ from the upload form: processing them is confirmed on Verify Studies.
    const started = await t.request({
      method: 'POST',
      url: `/api/fileprocess/fileprocess/${processId}/process_studies`,
      token: tokens.researcher,
      payload: { confirm_form: true },
    });
    expect(started.statusCode, started.body).toBe(200);
    const events = await statusEvents(started.json<{ task_id: string }>().task_id);
    const last = events.at(-1)!;
    expect(last.event).toBe('result');
    expect(last.data).toMatchObject({ file_process_id: processId, status: 'SUCCEED' });
    expect(events.filter((e) => e.event === 'progress').map((e) => e.data.status)).toContain('UNPACKED');

    const { file_process } = await detail(processId);
    expect(file_process.status).toBe('SUCCEED');
    expect(file_process.study_ids).toHaveLength(2);

    const again = await t.request({
      method: 'POST',
      url: `/api/fileprocess/fileprocess/${processId}/process_studies`,
      token: tokens.researcher,
      payload: {},
    });
    expect(again.statusCode).toBe(409);
    expect(errorBody(again).message).toBe(STUDIES_UPLOAD_MESSAGES.alreadyInjected);
  });

  it('makes the study searchable with its files, questions and answers, and analytics equal the uploaded file', async () => {
    const cmi = samples.errorCmis[1]!;
    const search = await t.request({
      method: 'POST',
      url: '/api/smartsearch/study_summarises',
      token: tokens.researcher,
      payload: { query: { essentials: { cmiNumber: cmi } } },
    });
    expect(search.statusCode).toBe(200);
    const [row] = search.json<{ id: number; c_mi_number: string }[]>();
    expect(row?.c_mi_number).toBe(cmi);
    const studyId = row!.id;

    const files = await t.request({
      method: 'GET',
      url: `/api/study/${studyId}/study-files/`,
      token: tokens.admin,
    });
    expect(files.statusCode).toBe(200);
    const names = files.json<{ name: string }[]>().map((f) => f.name);
    expect(names).toEqual(
      expect.arrayContaining([`${cmi}_results.csv`, `${cmi}_results.scale.csv`, `${cmi}_final_report.pdf`]),
    );

    // The liking means per product, computed from the uploaded files themselves.
    const zipFiles = await unpackToMemory(samples.withErrors);
    const scaleText = (
      await zipFiles.find((f) => f.path === `${cmi}/results/${cmi}_results.scale.csv`)!.read()
    ).toString();
    const scale: string[][] = [];
    for await (const r of csvRecords(scaleText, 'scale.csv')) scale.push(r);
    // Every question the scale file maps to liking counts (pooled per product).
    const liking = scale.filter((r) => r[6] === 'liking');
    expect(liking.length).toBeGreaterThan(0);
    const results: string[][] = [];
    for await (const r of csvRecords(samples.fixedResults, 'results.csv')) results.push(r);
    const header = results[0]!;
    const sums = new Map<string, { sum: number; n: number }>();
    let answerCount = 0;
    const questionColumns = header.length - 7;
    for (const r of results.slice(1)) {
      if (r.length < 2) continue;
      for (let c = 7; c < 7 + questionColumns; c++) if ((r[c] ?? '') !== '') answerCount++;
      for (const question of liking) {
        const cell = r[header.indexOf(question[0]!)] ?? '';
        if (cell === '') continue;
        const entry = sums.get(r[1]!) ?? { sum: 0, n: 0 };
        entry.sum += harmoniseToFivePoint(Number(cell), Number(question[3]), Number(question[4]));
        entry.n++;
        sums.set(r[1]!, entry);
      }
    }
    const stored = await t.database.rows<{ n: number }>(
      sql`select count(*)::int as n from answers where study_id = ${studyId}`,
    );
    expect(stored[0]!.n).toBe(answerCount);
    // The upload computed the statistics the analytics read as the database computes them.
    expect(await statisticsDifferences()).toBe(0);

    const queued = await t.request({
      method: 'POST',
      url: '/api/analytics/fragrances',
      token: tokens.researcher,
      payload: {
        q: {
          essentials: { cmiNumber: cmi },
          metrics: {
            rdfType: 'all',
            metricsList: [
              { metricType: 'Performance', metric: 'liking', aggregation: 'mean', confidence: false },
            ],
          },
        },
      },
    });
    expect(queued.statusCode, queued.body).toBe(200);
    const { jobid } = queued.json<{ jobid: string }>();
    let status: MetricSearchStatus | undefined;
    for (let i = 0; i < 100; i++) {
      const polled = await t.request({
        method: 'GET',
        url: `/api/analytics/fragrances/${jobid}`,
        token: tokens.researcher,
      });
      status = polled.json<MetricSearchStatus>();
      if (status.status === 'SUCCESS' || status.status === 'FAILURE') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status?.status).toBe('SUCCESS');
    const rows = status!.result!.json.results.filter((r) => r.study_id === studyId);
    expect(rows.length).toBeGreaterThan(0);
    for (const result of rows) {
      const expected = sums.get(result.prod)!;
      expect(result.values['liking.mean']).toBeCloseTo(expected.sum / expected.n, 4);
      expect(result.bases['liking.mean']).toBe(expected.n);
    }
  });

  it('refuses a study already in the library unless replaced explicitly', async () => {
    const response = await upload(samples.withErrors);
    const { task_id, file_process_id } = response.json<{ task_id: string; file_process_id: number }>();
    await statusEvents(task_id);
    const { file_process } = await detail(file_process_id);
    const issues = allIssues(file_process.file_tree).map((i) => i.high_msg);
    expect(issues.filter((m) => m === 'Study already in the library')).toHaveLength(2);
  });
});

describe('the clean sample', () => {
  it('removes the studies it had added, and their files, when a later study fails', async () => {
    const stored: string[] = [];
    let results = 0;
    let committedBefore = false;
    beforeStore = async (key) => {
      // The injection stores a study's files under studies/ (the upload's own copy is elsewhere).
      if (!key.startsWith('studies/')) return;
      stored.push(key);
      if (!key.endsWith('_results.csv') || ++results < 2) return;
      if (t.database.engine === 'postgresql') {
        // Studies go two at a time here: wait until the other one has committed.
        for (let i = 0; i < 100 && !committedBefore; i++) {
          const [row] = await t.database.rows<{ n: number }>(
            sql`select coalesce(max(cardinality(study_ids)), 0)::int as n from file_processes where status = 'VALIDATED'`,
          );
          committedBefore = row!.n > 0;
          if (!committedBefore) await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } else committedBefore = true; // one study after the other: the first has committed
      throw new Error('disk full');
    };
    try {
      const response = await upload(samples.clean, 'admin');
      const { task_id, file_process_id } = response.json<{ task_id: string; file_process_id: number }>();
      const events = await confirmedEvents(task_id, file_process_id);
      expect(events.at(-1)!.event).toBe('error');
      expect(committedBefore).toBe(true);
      const { file_process } = await detail(file_process_id, 'admin');
      expect(file_process.status).toBe('ERRORED');
      const [row] = await t.database.db
        .select({ studyIds: fileProcesses.studyIds })
        .from(fileProcesses)
        .where(eq(fileProcesses.id, file_process_id));
      expect(row!.studyIds).toEqual([]);
    } finally {
      beforeStore = null;
    }
    const left = await t.database.rows<{ n: number }>(
      sql`select count(*)::int as n from studies where c_mi_number in (${samples.cleanCmis[0]!}, ${samples.cleanCmis[1]!})`,
    );
    expect(left).toEqual([{ n: 0 }]);
    expect(stored.filter((key) => key.startsWith('studies/')).length).toBeGreaterThan(2);
    for (const key of stored.filter((k) => k.startsWith('studies/')))
      expect(await disk.exists(key)).toBe(false);
    expect(await statisticsDifferences()).toBe(0);
  });

  it('goes through every state to SUCCEED at once', async () => {
    const response = await upload(samples.clean, 'admin');
    const { task_id, file_process_id } = response.json<{ task_id: string; file_process_id: number }>();
    const events = await confirmedEvents(task_id, file_process_id);
    expect(events.at(-1)!.event).toBe('result');
    expect((await detail(file_process_id, 'admin')).file_process.status).toBe('SUCCEED');
  });

  it('replaces a study already in the library only when chosen, leaving one study, its new answers and no orphan files', async () => {
    const [first, second] = samples.cleanCmis as [string, string];
    const studyOf = async (cmi: string) =>
      t.database.rows<{ id: number }>(sql`select id from studies where lower(c_mi_number) = lower(${cmi})`);
    const keysOf = async (studyId: number) =>
      (
        await t.database.rows<{ key: string }>(sql`
          select v.storage_key as key from study_file_versions v
          join study_files f on f.id = v.file_id where f.study_id = ${studyId}`)
      ).map((r) => r.key);
    const [old] = await studyOf(first);
    const oldKeys = await keysOf(old!.id);
    expect(oldKeys.length).toBeGreaterThan(0);
    for (const key of oldKeys) expect(await disk.exists(key)).toBe(true);
    const oldAnswers = await t.database.rows<{ n: number }>(
      sql`select count(*)::int as n from answers where study_id = ${old!.id}`,
    );

    const response = await upload(samples.clean, 'admin');
    const { task_id, file_process_id } = response.json<{ task_id: string; file_process_id: number }>();
    await statusEvents(task_id, 'admin');
    const refused = await detail(file_process_id, 'admin');
    expect(refused.file_process.status).toBe('ERRORED');
    expect(
      allIssues(refused.file_process.file_tree)
        .filter((i) => i.high_msg === 'Study already in the library')
        .map((i) => i.node),
    ).toEqual([`${first}/request_form.xlsx`, `${second}/request_form.xlsx`]);

    // Choosing one study replaces nothing while the other is still refused.
    const process = async (body: Record<string, unknown>) => {
      const started = await t.request({
        method: 'POST',
        url: `/api/fileprocess/fileprocess/${file_process_id}/process_studies`,
        token: tokens.admin,
        payload: { confirm_form: true, ...body },
      });
      expect(started.statusCode, started.body).toBe(200);
      return (await statusEvents(started.json<{ task_id: string }>().task_id, 'admin')).at(-1)!;
    };
    const partly = await process({ replace_cmis: [first] });
    expect(partly.event).toBe('error');
    // Besides the replacement: the form's client, region and year differ from the studies' (5 warnings).
    expect(partly.data.message).toBe('1 error and 6 warnings found in the studies; see the file tree.');
    expect(await studyOf(first)).toEqual([{ id: old!.id }]);

    const bad = await t.request({
      method: 'POST',
      url: `/api/fileprocess/fileprocess/${file_process_id}/process_studies`,
      token: tokens.admin,
      payload: { replace_cmis: [''] },
    });
    expect(bad.statusCode).toBe(400);
    expect(errorBody(bad).message).toContain('Empty CMI number');

    const done = await process({ replace_cmis: [first, second.toLowerCase()] });
    expect(done.event).toBe('result');
    const replaced = await studyOf(first);
    expect(replaced).toHaveLength(1);
    expect(replaced[0]!.id).not.toBe(old!.id);
    expect(await studyOf(second)).toHaveLength(1);
    const answers = await t.database.rows<{ study_id: number; n: number }>(
      sql`select study_id, count(*)::int as n from answers where study_id in (${old!.id}, ${replaced[0]!.id}) group by study_id`,
    );
    expect(answers).toEqual([{ study_id: replaced[0]!.id, n: oldAnswers[0]!.n }]);
    // The replaced study's files are gone from storage; the new study's are there.
    for (const key of oldKeys) expect(await disk.exists(key)).toBe(false);
    const newKeys = await keysOf(replaced[0]!.id);
    expect(newKeys.length).toBe(oldKeys.length);
    for (const key of newKeys) expect(await disk.exists(key)).toBe(true);

    // The stored statistics still equal recomputing them from the answers left.
    expect(await statisticsDifferences()).toBe(0);
  });
});

describe('reading processes and tasks', () => {
  it('answers 400, 403 and 404 clearly', async () => {
    const bad = await t.request({
      method: 'GET',
      url: '/api/fileprocess/file-process/abc',
      token: tokens.admin,
    });
    expect(bad.statusCode).toBe(400);
    const missing = await t.request({
      method: 'GET',
      url: '/api/fileprocess/file-process/999999',
      token: tokens.admin,
    });
    expect(missing.statusCode).toBe(404);
    expect(errorBody(missing).message).toBe(STUDIES_UPLOAD_MESSAGES.noSuchProcess);
    const forbidden = await t.request({
      method: 'GET',
      url: '/api/fileprocess/file-processes',
      token: tokens.client,
    });
    expect(forbidden.statusCode).toBe(403);
    const noTask = await t.request({
      method: 'GET',
      url: '/api/fileprocess/00000000-0000-4000-8000-000000000000/status',
      token: tokens.admin,
    });
    expect(noTask.statusCode).toBe(404);
    expect(errorBody(noTask).message).toBe(STUDIES_UPLOAD_MESSAGES.noSuchTask);
  });

  it("keeps a task's stream to its owner and admins", async () => {
    const response = await upload(samples.clean, 'admin');
    const { task_id } = response.json<{ task_id: string }>();
    const other = await t.request({
      method: 'GET',
      url: `/api/fileprocess/${task_id}/status`,
      token: tokens.researcher,
    });
    expect(other.statusCode).toBe(404);
    await statusEvents(task_id, 'admin');
  });
});

describe('a restart during processing', () => {
  it('ends a process no job will finish ERRORED with a message, removing the studies it had added, and completes an injected one', async () => {
    const [user] = await t.database.rows<{ id: number }>(
      sql`select id from users where email = 'researcher@accord.test'`,
    );
    const make = async (status: 'VALIDATED' | 'INJECTED', studyIds: number[] = []) => {
      const taskId = crypto.randomUUID();
      await t.database.db.insert(jobResults).values({
        id: taskId,
        userId: user!.id,
        kind: 'fileprocess',
        status: 'STARTED',
        result: { file_process_id: 0 },
      });
      const [row] = await t.database.db
        .insert(fileProcesses)
        .values({
          client: 'Northwind',
          studyType: '',
          region: 'Europe',
          year: 2024,
          filename: 'x.zip',
          storageKey: 'fileprocess/none/upload.zip',
          status,
          taskId,
          studyIds,
        })
        .returning();
      return row!;
    };
    // A study the interrupted injection had committed (a copy of a library study).
    const [library] = await t.database.db.select().from(studies).limit(1);
    const { id: libraryId, ...fields } = library!;
    const [added] = await t.database.db
      .insert(studies)
      .values({ ...fields, cMiNumber: `${fields.cMiNumber}-RESTART` })
      .returning({ id: studies.id });
    expect(added!.id).not.toBe(libraryId);
    const stuck = await make('VALIDATED', [added!.id]);
    const injected = await make('INJECTED');
    const service = createFileProcessService({
      processes: createFileProcessRepository(t.database.db),
      database: t.database,
      storage: { remove: async () => undefined, list: async function* () {} } as never,
      clock: t.clock,
      jobs: t.jobs,
    });
    await service.recover();
    const [a] = await t.database.db.select().from(fileProcesses).where(eq(fileProcesses.id, stuck.id));
    expect(a).toMatchObject({ status: 'ERRORED', message: STUDIES_UPLOAD_MESSAGES.restarted });
    const [task] = await t.database.db.select().from(jobResults).where(eq(jobResults.id, stuck.taskId!));
    expect(task).toMatchObject({ status: 'FAILURE', error: STUDIES_UPLOAD_MESSAGES.restarted });
    expect(a!.studyIds).toEqual([]);
    expect(await t.database.db.select().from(studies).where(eq(studies.id, added!.id))).toEqual([]);
    expect(
      await t.database.db.select({ id: studies.id }).from(studies).where(eq(studies.id, libraryId)),
    ).toHaveLength(1);
    const [b] = await t.database.db.select().from(fileProcesses).where(eq(fileProcesses.id, injected.id));
    expect(b!.status).toBe('SUCCEED');
  });
});

describe('test dates of an uploaded study', () => {
  it('keeps each respondent’s test_date, which the profile’s time series is drawn by', async () => {
    // Study 0 of seed 14 is an EEG study whose results file has a test_date column.
    const shape = { seed: 14, products: 4, respondents: 40, questions: 12, lastYear: 2024 };
    const plan = planStudy(shape, 0);
    const zip = buildZip(studyZipEntries(plan, generateAnswers(plan, shape.seed)));
    const response = await upload(zip, 'admin');
    expect(response.statusCode, response.body).toBe(200);
    const { task_id, file_process_id } = response.json<{ task_id: string; file_process_id: number }>();
    expect((await confirmedEvents(task_id, file_process_id)).at(-1)!.event).toBe('result');
    expect((await detail(file_process_id, 'admin')).file_process.status).toBe('SUCCEED');
    const { rows } = await t.database.sql.executeSql(
      `select r.respondent_code, to_char(r.test_date, 'YYYY-MM-DD') as test_date
        from respondents r join studies s on s.id = r.study_id where s.c_mi_number = $1
        order by r.respondent_code`,
      [plan.metadata.cMiNumber],
    );
    expect(rows).toEqual(
      plan.respondents.map((respondent) => ({
        respondent_code: respondent.code,
        test_date: respondent.testDate,
      })),
    );
  });
});
