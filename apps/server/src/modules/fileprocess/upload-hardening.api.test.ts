/**
 * Uploads that must not hurt the server or other users: hostile tables read in worker threads within
 * limits while the API keeps answering, status streams capped per user, the unpacked size and the
 * per-user storage capped and cleaned up, documents checked like single uploads, clean file names,
 * and clear answers for a too-long entry name and a full disk.
 */
import { randomUUID } from 'node:crypto';
import {
  STUDIES_UPLOAD_MAX_STREAMS,
  STUDIES_UPLOAD_MESSAGES,
  type FileProcessDetail,
  type FileTreeNode,
} from '@accord/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileProcesses, studyFileVersions } from '../../db/schema.ts';
import { buildXlsx } from '../../seed/documents.ts';
import { buildSampleZips } from '../../seed/sample-zips.ts';
import { buildZip, type ZipEntry } from '../../seed/zip.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import { createTestApp, errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';
import { seedSearchFixtures, type FixtureIds } from '../search/search-fixtures.ts';
import { createFileProcessRepository } from './fileprocess.repository.ts';
import { createFileProcessService } from './fileprocess.service.ts';
import { unpackToMemory } from './unpack.ts';

let t: TestApp;
let disk: FileStorage;
let ids: FixtureIds;
const tokens = {} as Record<DemoRole, string>;
/** Awaited before every stored stream or file: a test holds or fails the disk through it. */
let beforeStore: ((key: string) => Promise<void>) | null = null;
const samples = buildSampleZips();

beforeAll(async () => {
  t = await createTestApp({
    seed: async (database) => {
      ids = await seedSearchFixtures(database);
    },
    storage: (storage) => {
      disk = storage;
      return {
        ...storage,
        async putStream(key, stream) {
          await beforeStore?.(key);
          return storage.putStream(key, stream);
        },
        async put(key, bytes) {
          await beforeStore?.(key);
          return storage.put(key, bytes);
        },
      };
    },
  });
  for (const role of ['admin', 'researcher'] as const) tokens[role] = await t.login(role);
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

async function upload(app: TestApp, token: string, zip: Uint8Array, name = 'studies.zip') {
  const body = await multipart(FORM, { name, bytes: zip });
  return app.request({ method: 'POST', url: '/api/fileprocess/studies_upload', token, ...body });
}

const statusStream = (app: TestApp, token: string, taskId: string) =>
  app.request({ method: 'GET', url: `/api/fileprocess/${taskId}/status`, token });

/** The last event of a (finished) status stream. */
function lastEvent(body: string): { event: string; data: Record<string, unknown> } {
  const block = body
    .split('\n\n')
    .filter((b) => b.startsWith('event:'))
    .pop()!;
  const [eventLine, dataLine] = block.split('\n');
  return { event: eventLine!.slice('event: '.length), data: JSON.parse(dataLine!.slice('data: '.length)) };
}

async function uploadAndWait(app: TestApp, token: string, zip: Uint8Array, name?: string) {
  const response = await upload(app, token, zip, name);
  expect(response.statusCode, response.body).toBe(200);
  const { task_id: taskId, file_process_id: processId } = response.json<{
    task_id: string;
    file_process_id: number;
  }>();
  const stream = await statusStream(app, token, taskId);
  const last = lastEvent(stream.body);
  if (last.event !== 'result' || last.data.status !== 'VALIDATED') return { taskId, processId, last };
  // Studies that differ from the upload form (the clean sample holds several clients) wait for a confirmation.
  const confirmed = await app.request({
    method: 'POST',
    url: `/api/fileprocess/fileprocess/${processId}/process_studies`,
    token,
    payload: { confirm_form: true },
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  const again = await statusStream(app, token, confirmed.json<{ task_id: string }>().task_id);
  return { taskId, processId, last: lastEvent(again.body) };
}

const detail = async (app: TestApp, id: number) => {
  const response = await app.request({
    method: 'GET',
    url: `/api/fileprocess/file-process/${id}`,
    token: tokens.researcher,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<FileProcessDetail>();
};

const issuesOf = (nodes: FileTreeNode[]): { file: string; high_msg: string; msg: string }[] =>
  nodes.flatMap((node) => [
    ...node.errors.map((e) => ({ file: e.path.file, high_msg: e.high_msg, msg: e.msg })),
    ...issuesOf(node.children ?? []),
  ]);

async function storedUnder(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const entry of disk.list(prefix)) keys.push(entry.key);
  return keys;
}

/** The entries of the clean sample, to build variants of it. */
const cleanEntries = async (): Promise<ZipEntry[]> =>
  Promise.all(
    (await unpackToMemory(samples.clean)).map(async (file) => ({ name: file.path, data: await file.read() })),
  );

/**
 * The workbook with its second sheet replaced by one of `rows` rows of two inline strings each. The
 * sheet is written into one buffer, so building it leaves no heap garbage for the collector to sweep
 * while the test measures latency.
 */
async function withLongSheet(workbook: Buffer, rows: number): Promise<Buffer> {
  const parts = await unpackToMemory(workbook, { maxEntries: 100, maxUnpackedBytes: 1e6 });
  const head = Buffer.from(
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>',
  );
  const tail = Buffer.from('</sheetData></worksheet>');
  const sheet = Buffer.alloc(head.length + tail.length + rows * 160);
  let at = head.copy(sheet, 0);
  for (let r = 1; r <= rows; r++)
    at += sheet.write(
      `<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>Fragrance ${r}</t></is></c><c r="B${r}" t="inlineStr"><is><t>F${r}</t></is></c></row>`,
      at,
    );
  at += tail.copy(sheet, at);
  const entries: ZipEntry[] = [];
  for (const part of parts)
    entries.push({
      name: part.path,
      data: part.path === 'xl/worksheets/sheet2.xml' ? sheet.subarray(0, at) : await part.read(),
    });
  return buildZip(entries);
}

describe('hostile tables are read off the request loop, within limits', () => {
  it('keeps GET /api/ under a second (reading these tables on the loop holds it for many) and memory within 256 MB of where it started while a 480,000-row request form and a 100,000-column csv are refused by name', async () => {
    const requestForm = await withLongSheet(
      buildXlsx([
        {
          name: 'Study',
          rows: [
            ['field', 'value'],
            ['project_name', 'Wide'],
          ],
        },
        { name: 'Fragrances', rows: [['name', 'fragrance_code']] },
      ]),
      480_000,
    );
    const zip = buildZip([{ name: 'CMI-WIDE/request_form.xlsx', data: requestForm }]);
    expect(zip.length).toBeLessThan(3 * 1024 * 1024);
    const header = Array.from({ length: 100_000 }, (_, i) => `q${i}`).join(',');
    const wideCsv = Buffer.from(`${header}\n${Array.from({ length: 100_000 }, () => '3').join(',')}\n`);
    expect(wideCsv.length).toBeLessThan(1.2 * 1024 * 1024);

    // The request bodies are built before the measurement: only the server's work is measured.
    const zipBody = await multipart(FORM, { name: 'studies.zip', bytes: zip });
    const csvBody = await multipart({ study_name: 'Wide' }, { name: 'wide.csv', bytes: wideCsv });

    const latencies: number[] = [];
    // The test process already holds the embedded database and the app (about 1 GB): what the hostile
    // tables may cost is measured from there.
    const startRss = process.memoryUsage().rss;
    let peakRss = startRss;
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const started = performance.now();
        const response = await t.request({ method: 'GET', url: '/api/' });
        latencies.push(performance.now() - started);
        expect(response.statusCode).toBe(200);
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    try {
      const [zipOutcome, csvResponse] = await Promise.all([
        (async () => {
          const response = await t.request({
            method: 'POST',
            url: '/api/fileprocess/studies_upload',
            token: tokens.researcher,
            ...zipBody,
          });
          expect(response.statusCode, response.body).toBe(200);
          const { task_id: taskId, file_process_id: processId } = response.json<{
            task_id: string;
            file_process_id: number;
          }>();
          const stream = await statusStream(t, tokens.researcher, taskId);
          return { processId, last: lastEvent(stream.body) };
        })(),
        t.request({ method: 'POST', url: '/api/rdf/upload/', token: tokens.researcher, ...csvBody }),
      ]);
      expect(zipOutcome.last.event).toBe('error');
      const issues = issuesOf((await detail(t, zipOutcome.processId)).file_process.file_tree);
      expect(issues).toContainEqual({
        file: 'CMI-WIDE/request_form.xlsx',
        high_msg: 'Request form too large',
        msg: expect.stringMatching(/^CMI-WIDE\/request_form\.xlsx has more than 10,000 rows/),
      });
      expect(csvResponse.statusCode, csvResponse.body).toBe(400);
      expect(errorBody(csvResponse).message).toMatch(/^wide\.csv has more than 2,000 columns/);
    } finally {
      probing = false;
      await probe;
    }
    expect(latencies.length).toBeGreaterThan(5);
    expect(Math.max(...latencies)).toBeLessThan(1000);
    expect(peakRss - startRss).toBeLessThan(256 * 1024 * 1024);
  });
});

describe('status streams', () => {
  it(`holds at most ${STUDIES_UPLOAD_MAX_STREAMS} open streams per user, all fed by one watcher, and frees them as they end`, async () => {
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    beforeStore = async (key) => {
      if (key.includes('/files/')) await held;
    };
    try {
      const response = await upload(t, tokens.researcher, samples.clean);
      expect(response.statusCode, response.body).toBe(200);
      const taskId = response.json<{ task_id: string }>().task_id;
      const streams = Array.from({ length: STUDIES_UPLOAD_MAX_STREAMS }, () =>
        statusStream(t, tokens.researcher, taskId),
      );
      // Let the streams open before the one too many.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const refused = await statusStream(t, tokens.researcher, taskId);
      expect(refused.statusCode).toBe(429);
      expect(errorBody(refused).message).toBe(
        STUDIES_UPLOAD_MESSAGES.tooManyStreams(STUDIES_UPLOAD_MAX_STREAMS),
      );
      // The cap is per user: an admin still follows the task.
      const adminStream = statusStream(t, tokens.admin, taskId);
      release();
      const ended = await Promise.all([...streams, adminStream]);
      for (const stream of ended) {
        expect(stream.statusCode).toBe(200);
        expect(lastEvent(stream.body).event).toBe('result');
      }
      // Every stream has ended, so the user may open one again.
      expect((await statusStream(t, tokens.researcher, taskId)).statusCode).toBe(200);
    } finally {
      beforeStore = null;
      release();
    }
  });
});

/** A zip whose entries declare `sizes` bytes each in the central directory (their data is tiny). */
function zipDeclaring(sizes: number[]): Buffer {
  const zip = buildZip(sizes.map((_, i) => ({ name: `CMI-BIG/report/part${i}.pdf`, data: 'x' })));
  let at = zip.length - 22;
  while (zip.readUInt32LE(at) !== 0x06054b50) at--;
  let entry = zip.readUInt32LE(at + 16);
  for (const size of sizes) {
    zip.writeUInt32LE(size, entry + 24);
    entry += 46 + zip.readUInt16LE(entry + 28) + zip.readUInt16LE(entry + 30) + zip.readUInt16LE(entry + 32);
  }
  return zip;
}

describe('disk use of uploads', () => {
  it('refuses a small zip whose entries add up to two 1,000 MiB files before storing anything', async () => {
    const before = await storedUnder('fileprocess/');
    const response = await upload(
      t,
      tokens.researcher,
      zipDeclaring([1000 * 1024 * 1024, 1000 * 1024 * 1024]),
    );
    expect(response.statusCode, response.body).toBe(400);
    expect(errorBody(response).message).toBe('The zip unpacks to more than 1 GiB, the most accepted.');
    expect(await storedUnder('fileprocess/')).toEqual(before);
  });

  it('removes the files it had unpacked when unpacking fails part way', async () => {
    const entries = await cleanEntries();
    // The last entry fails while it is stored, after the others were unpacked.
    const last = entries[entries.length - 1]!.name;
    beforeStore = async (key) => {
      if (key.endsWith(`/files/${last}`)) throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
    };
    try {
      const { processId, last: event } = await uploadAndWait(t, tokens.researcher, buildZip(entries));
      expect(event.event).toBe('error');
      const [row] = await t.database.db.select().from(fileProcesses).where(eq(fileProcesses.id, processId));
      const folder = row!.storageKey.replace(/\/upload\.zip$/, '');
      expect(await storedUnder(`${folder}/files/`)).toEqual([]);
      expect(await storedUnder(`${folder}/`)).toEqual([row!.storageKey]);
    } finally {
      beforeStore = null;
    }
  });

  it(`removes the files of uploads ended more than a week ago, keeping their row with a message`, async () => {
    const entries = await cleanEntries();
    const broken = buildZip(entries.filter((entry) => !entry.name.endsWith('request_form.xlsx')));
    const { processId } = await uploadAndWait(t, tokens.researcher, broken);
    const [row] = await t.database.db.select().from(fileProcesses).where(eq(fileProcesses.id, processId));
    const folder = row!.storageKey.replace(/\/upload\.zip$/, '');
    expect((await storedUnder(`${folder}/`)).length).toBeGreaterThan(1);
    t.clock.set(new Date(Date.now() + 8 * 24 * 60 * 60 * 1000));
    try {
      // The next upload cleans up first.
      await uploadAndWait(t, tokens.researcher, broken);
    } finally {
      t.clock.reset();
    }
    expect(await storedUnder(`${folder}/`)).toEqual([]);
    expect((await detail(t, processId)).file_process.message).toBe(STUDIES_UPLOAD_MESSAGES.filesRemoved);
    const again = await t.request({
      method: 'POST',
      url: `/api/fileprocess/fileprocess/${processId}/process_studies`,
      token: tokens.researcher,
      payload: {},
    });
    expect(again.statusCode).toBe(409);
    expect(errorBody(again).message).toBe(STUDIES_UPLOAD_MESSAGES.filesRemoved);
  });

  it('removes at start the study files an interrupted injection left behind, and only those', async () => {
    // Studies in the library, whose files must stay.
    expect((await uploadAndWait(t, tokens.researcher, samples.clean)).last.event).toBe('result');
    const orphan = `studies/987654/report/${randomUUID()}/left-behind.pdf`;
    await disk.put(orphan, Buffer.from('%PDF-1.4 x %%EOF'));
    // The files of the studies uploaded above stay.
    const library = await t.database.db.select({ key: studyFileVersions.storageKey }).from(studyFileVersions);
    expect(library.length).toBeGreaterThan(0);
    const restart = () =>
      createFileProcessService({
        processes: createFileProcessRepository(t.database.db),
        database: t.database,
        storage: disk,
        clock: t.clock,
        jobs: t.jobs,
      }).recover();
    // A fresh file may belong to an injection still running elsewhere.
    await restart();
    expect(await disk.exists(orphan)).toBe(true);
    t.clock.set(new Date(Date.now() + 2 * 60 * 60 * 1000));
    try {
      await restart();
    } finally {
      t.clock.reset();
    }
    expect(await disk.exists(orphan)).toBe(false);
    for (const { key } of library) expect(await disk.exists(key), key).toBe(true);
  });

  it("refuses an upload beyond the user's storage quota with a clear 413, storing nothing", async () => {
    const small = await createTestApp({ uploads: { quotaBytes: samples.clean.length * 3 } });
    try {
      const token = await small.login('researcher');
      const first = await upload(small, token, samples.clean);
      expect(first.statusCode, first.body).toBe(200);
      await statusStream(small, token, first.json<{ task_id: string }>().task_id);
      const second = await upload(small, token, samples.clean);
      expect(second.statusCode, second.body).toBe(413);
      expect(errorBody(second).message).toMatch(
        /^Your uploads keep .+ of your .+ of upload storage and this zip needs .+ more\./,
      );
      const other = await upload(small, await small.login('admin'), samples.clean);
      expect(other.statusCode, other.body).toBe(200);
      await statusStream(small, await small.login('admin'), other.json<{ task_id: string }>().task_id);
    } finally {
      await small.close();
    }
  });
});

describe('what a studies zip holds', () => {
  it('refuses a document whose content is not of its type, as a single upload would', async () => {
    const entries = await cleanEntries();
    const folder = entries[0]!.name.split('/')[0]!;
    entries.push({ name: `${folder}/report/fake.pdf`, data: 'x' });
    const { last, processId } = await uploadAndWait(t, tokens.researcher, buildZip(entries));
    expect(last.event).toBe('error');
    expect(issuesOf((await detail(t, processId)).file_process.file_tree)).toContainEqual({
      file: `${folder}/report/fake.pdf`,
      high_msg: 'The file is not a valid PDF',
      msg: 'fake.pdf has no %PDF- header in its first 1024 bytes, so it is not a PDF.',
    });
  });

  it('answers a too-long entry name with a validation message, not a server error', async () => {
    const long = `CMI-LONG/report/${'n'.repeat(300)}.pdf`;
    const response = await upload(t, tokens.researcher, buildZip([{ name: long, data: '%PDF-1.4 %%EOF' }]));
    expect(response.statusCode, response.body).toBe(400);
    expect(errorBody(response).message).toMatch(
      /^The zip entry "CMI-LONG\/report\/n+…" has a path of 320 characters; at most 255 are accepted\.$/,
    );
  });

  it('keeps the base name of an uploaded file, without its path or control characters', async () => {
    const zipUpload = await upload(
      t,
      tokens.researcher,
      samples.clean,
      'C:\\Users\\me\\stu\u0007dies\u202E.zip',
    );
    expect(zipUpload.statusCode, zipUpload.body).toBe(200);
    const processId = zipUpload.json<{ file_process_id: number }>().file_process_id;
    await statusStream(t, tokens.researcher, zipUpload.json<{ task_id: string }>().task_id);
    expect((await detail(t, processId)).file_process.filename).toBe('studies.zip');

    const body = await multipart(
      { filename: 'CMI-2015-001_Final_Report.pdf', filetype: 'report', foldertype: 'report' },
      { name: '../../x/Fin\u0000al\u0007\u001b.pdf', bytes: new TextEncoder().encode('%PDF-1.4 x\n%%EOF') },
    );
    const fileUpload = await t.request({
      method: 'POST',
      url: `/api/study/${ids.s1}/upload`,
      token: tokens.admin,
      ...body,
    });
    expect(fileUpload.statusCode, fileUpload.body).toBe(200);
    const status = await t.request({
      method: 'GET',
      url: `/api/study/${ids.s1}/upload/${fileUpload.json<{ job_id: string }>().job_id}`,
      token: tokens.admin,
    });
    expect(status.json<{ filename: string }>().filename).toBe('Final.pdf');
  });
});

describe('a full disk', () => {
  it('answers 507 with a clear message when storage has no room left', async () => {
    beforeStore = async () => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    };
    try {
      const zip = await upload(t, tokens.researcher, samples.clean);
      expect(zip.statusCode, zip.body).toBe(507);
      expect(errorBody(zip).message).toBe(STUDIES_UPLOAD_MESSAGES.diskFull);
      const body = await multipart(
        { filename: 'CMI-2015-001_Final_Report.pdf', filetype: 'report', foldertype: 'report' },
        { name: 'Final.pdf', bytes: new TextEncoder().encode('%PDF-1.4 x\n%%EOF') },
      );
      const file = await t.request({
        method: 'POST',
        url: `/api/study/${ids.s1}/upload`,
        token: tokens.admin,
        ...body,
      });
      expect(file.statusCode, file.body).toBe(507);
      expect(errorBody(file).message).toBe(STUDIES_UPLOAD_MESSAGES.diskFull);
    } finally {
      beforeStore = null;
    }
  });
});
