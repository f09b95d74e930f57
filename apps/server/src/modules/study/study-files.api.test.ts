import { STUDY_UPLOAD_MAX_BYTES } from '@accord/contracts';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studyEditHistory, studyFiles, studyFileVersions } from '../../db/schema.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import { createTestApp, errorBody, type TestApp } from '../../testing/test-app.ts';
import { seedSearchFixtures, type FixtureIds } from '../search/search-fixtures.ts';
import { STUDY_UPLOAD_QUEUE, UPLOAD_WAIT_MS } from './study-files.service.ts';

let t: TestApp;
let ids: FixtureIds;
let admin: string;
let researcher: string;
let client: string;
let sales: string;
let disk: FileStorage;
/** The upload worker's reads of stored bytes: slowed down or failing on demand (a slow or broken disk). */
const diskTrouble = { delayMs: 0, fail: false, reads: [] as string[] };

beforeAll(async () => {
  t = await createTestApp({
    seed: async (database) => {
      ids = await seedSearchFixtures(database);
    },
    storage: (inner) => {
      disk = inner;
      return {
        ...inner,
        async get(key) {
          diskTrouble.reads.push(key);
          if (diskTrouble.delayMs > 0)
            await new Promise((resolve) => setTimeout(resolve, diskTrouble.delayMs));
          if (diskTrouble.fail)
            throw Object.assign(new Error(`EIO: i/o error, read '${key}'`), { code: 'EIO' });
          return inner.get(key);
        },
      };
    },
  });
  [admin, researcher, client, sales] = await Promise.all([
    t.login('admin'),
    t.login('researcher'),
    t.login('client'),
    t.login('sales'),
  ]);
});
afterAll(async () => {
  await t.close();
});

const get = (url: string, token?: string) => t.request({ method: 'GET', url, token });
const post = (url: string, token: string | undefined, payload: unknown) =>
  t.request({ method: 'POST', url, token, payload });

/** A multipart/form-data body as a browser sends it. */
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

async function upload(
  studyId: number,
  token: string | undefined,
  fields: Record<string, string>,
  file?: { name: string; bytes: Uint8Array },
) {
  const body = await multipart(fields, file);
  return t.request({ method: 'POST', url: `/api/study/${studyId}/upload`, token, ...body });
}

const REPORT = 'CMI-2015-001_Final_Report.pdf';
const reportFields = { filename: REPORT, filetype: 'report', foldertype: 'report' };
const pdf = (text: string) => ({
  name: 'Final report v2.pdf',
  bytes: new TextEncoder().encode(`%PDF-1.4 ${text}\n%%EOF`),
});

async function fileRow(studyId: number, name: string) {
  const [row] = await t.database.db
    .select()
    .from(studyFiles)
    .where(and(eq(studyFiles.studyId, studyId), eq(studyFiles.name, name)));
  return row!;
}

describe('GET /api/study/:id/study-files/ and related-study-files/', () => {
  it('needs a session; 400 bad id; 404 unknown or out-of-scope study', async () => {
    expect((await get(`/api/study/${ids.s1}/study-files/`)).statusCode).toBe(401);
    expect((await get('/api/study/x/study-files/', admin)).statusCode).toBe(400);
    expect((await get('/api/study/999999/study-files/', admin)).statusCode).toBe(404);
    expect((await get(`/api/study/${ids.s4}/study-files/`, client)).statusCode).toBe(404);
    expect((await get(`/api/study/${ids.s4}/related-study-files/`, client)).statusCode).toBe(404);
  });

  it('lists the files; RDF files only for admins and users who may download', async () => {
    const forResearcher = (await get(`/api/study/${ids.s1}/study-files/`, researcher)).json();
    expect(forResearcher.map((file: { type: string }) => file.type).sort()).toEqual(
      ['RDF', 'protocol', 'questionnaire', 'report', 'screener'].sort(),
    );
    expect(forResearcher.find((file: { type: string }) => file.type === 'RDF')).toMatchObject({
      name: 'CMI-2015-001_results.csv',
      extension: 'csv',
      category: 'RDFs',
      id: expect.any(Number),
    });
    const forClient = await get(`/api/study/${ids.s1}/study-files/`, client);
    expect(forClient.statusCode).toBe(200);
    expect(forClient.json().map((file: { type: string }) => file.type)).not.toContain('RDF');
    expect(forClient.json()).toHaveLength(4);
  });

  it('answers the files page tree: folders sorted by name, then files', async () => {
    const response = await get(`/api/study/${ids.s1}/related-study-files/`, admin);
    expect(response.statusCode, response.body).toBe(200);
    const root = response.json();
    expect(root).toMatchObject({ name: 'CMI-2015-001', type: 'directory' });
    expect(root.children.map((node: { name: string }) => node.name)).toEqual([
      'protocol',
      'questionnaire',
      'report',
      'results',
      'screener',
    ]);
    expect(root.children[2].children[0]).toMatchObject({
      name: REPORT,
      type: 'file',
      file_type: 'report',
      errors: [],
      children: [],
    });
    const forClient = (await get(`/api/study/${ids.s1}/related-study-files/`, client)).json();
    expect(forClient.children.map((node: { name: string }) => node.name)).not.toContain('results');
  });
});

describe('POST /api/study/:id/upload and GET /api/study/:studyId/upload/:jobId', () => {
  it('needs a session and admin rights, and a known study', async () => {
    expect((await upload(ids.s1, undefined, reportFields, pdf('a'))).statusCode).toBe(401);
    expect((await upload(ids.s1, researcher, reportFields, pdf('a'))).statusCode).toBe(403);
    expect((await upload(ids.s1, client, reportFields, pdf('a'))).statusCode).toBe(403);
    expect((await upload(999999, admin, reportFields, pdf('a'))).statusCode).toBe(404);
  });

  it('refuses bad uploads with a clear 400 and stores nothing', async () => {
    const versionsBefore = await t.database.db.select().from(studyFileVersions);
    const cases: [Record<string, string>, { name: string; bytes: Uint8Array } | undefined, RegExp][] = [
      [
        reportFields,
        { name: 'notes.txt', bytes: new Uint8Array([1]) },
        /report folder does not take \.txt files/,
      ],
      [
        { filename: 'CMI-2015-001_results.csv', filetype: 'RDF', foldertype: 'results' },
        { name: 'results.pdf', bytes: new Uint8Array([1]) },
        /results folder does not take \.pdf files; it takes \.csv, \.xlsx/,
      ],
      [reportFields, { name: 'empty.pdf', bytes: new Uint8Array() }, /The file is empty/],
      [reportFields, undefined, /Choose a file to upload/],
      [{ filename: REPORT, filetype: 'report' }, pdf('x'), /foldertype/],
      [{ ...reportFields, foldertype: 'attic' }, pdf('x'), /foldertype/],
      [{ ...reportFields, filetype: 'RDF' }, pdf('x'), /does not hold RDF files/],
    ];
    for (const [fields, file, message] of cases) {
      const response = await upload(ids.s1, admin, fields, file);
      expect(response.statusCode, `${JSON.stringify(fields)} ${file?.name}`).toBe(400);
      expect(errorBody(response).message).toMatch(message);
    }
    const notMultipart = await post(`/api/study/${ids.s1}/upload`, admin, reportFields);
    expect(notMultipart.statusCode).toBe(400);
    expect(await t.database.db.select().from(studyFileVersions)).toEqual(versionsBefore);
  });

  it('refuses a file above the size limit', async () => {
    const response = await upload(ids.s1, admin, reportFields, {
      name: 'huge.pdf',
      bytes: new Uint8Array(STUDY_UPLOAD_MAX_BYTES + 1),
    });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).message).toBe('The file is larger than the 50 MB limit.');
    expect((await fileRow(ids.s1, REPORT)).currentVersionId).toBeNull();
  });

  it('stores a new version, answers a job that is finished at the first poll, keeps the old one', async () => {
    const first = await upload(ids.s1, admin, reportFields, pdf('first'));
    expect(first.statusCode, first.body).toBe(200);
    const { job_id: jobId } = first.json();
    const status = await get(`/api/study/${ids.s1}/upload/${jobId}`, admin);
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json()).toEqual({
      status: 'finished',
      filename: 'Final report v2.pdf',
      high_msg: 'Uploaded Final report v2.pdf.',
    });

    const second = await upload(ids.s1, admin, reportFields, {
      ...pdf('second'),
      name: 'Final report v3.pdf',
    });
    expect(second.statusCode).toBe(200);
    const file = await fileRow(ids.s1, REPORT);
    const versions = await t.database.db
      .select()
      .from(studyFileVersions)
      .where(eq(studyFileVersions.fileId, file.id))
      .orderBy(asc(studyFileVersions.id));
    expect(versions.map((version) => version.name)).toEqual(['Final report v2.pdf', 'Final report v3.pdf']);
    expect(file.currentVersionId).toBe(versions[1]!.id);
    expect(versions[0]!.storageKey).not.toBe(versions[1]!.storageKey);

    const history = await t.database.db
      .select()
      .from(studyEditHistory)
      .where(eq(studyEditHistory.studyId, ids.s1));
    expect(history).toHaveLength(2);
    expect((history[1]!.changes as { field: string }[])[0]!.field).toBe(`file report/${REPORT}`);
  });

  it("answers 404 'No such job' for unknown jobs, other users' jobs and other studies", async () => {
    const unknown = await get(`/api/study/${ids.s1}/upload/nope`, admin);
    expect(unknown.statusCode).toBe(404);
    expect(errorBody(unknown).message).toBe('No such job');
    const mine = (
      await upload(ids.s2, admin, { filetype: 'report', foldertype: 'report' }, pdf('new'))
    ).json();
    expect((await get(`/api/study/${ids.s1}/upload/${mine.job_id}`, admin)).statusCode).toBe(404);
    expect((await get(`/api/study/${ids.s2}/upload/${mine.job_id}`, researcher)).statusCode).toBe(404);
    expect((await get(`/api/study/${ids.s2}/upload/${mine.job_id}`)).statusCode).toBe(401);
    // Without a filename the upload is a new file of the folder.
    expect((await fileRow(ids.s2, 'Final report v2.pdf')).fileType).toBe('report');
  });
});

describe('downloads', () => {
  it('answers the current version with its content type and name, to users who may download', async () => {
    const file = await fileRow(ids.s1, REPORT);
    const url = `/api/study/${ids.s1}/study-files/${file.id}`;
    expect((await get(url)).statusCode).toBe(401);
    const forbidden = await get(url, client);
    expect(forbidden.statusCode).toBe(403);
    const response = await get(url, sales);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="Final report v3.pdf"; filename*=UTF-8''Final%20report%20v3.pdf`,
    );
    expect(response.body).toBe('%PDF-1.4 second\n%%EOF');

    const byName = await get(
      `/api/study/${ids.s1}/study-files-path/${encodeURIComponent(REPORT)}`,
      researcher,
    );
    expect(byName.statusCode).toBe(200);
    expect(byName.body).toBe('%PDF-1.4 second\n%%EOF');
  });

  it('answers 404 for files of other studies, out-of-scope studies and unknown names', async () => {
    const file = await fileRow(ids.s1, REPORT);
    expect((await get(`/api/study/${ids.s2}/study-files/${file.id}`, admin)).statusCode).toBe(404);
    const s4File = await fileRow(ids.s4, 'CMI-2012-004_Final_Report.pdf');
    // The sales user sees Brightwell (s4) but not Halden & Crane (s3); the client user neither.
    expect((await get(`/api/study/${ids.s4}/study-files/${s4File.id}`, client)).statusCode).toBe(404);
    const s3File = await fileRow(ids.s3, 'CMI-2020-003_Final_Report.pdf');
    expect((await get(`/api/study/${ids.s3}/study-files/${s3File.id}`, sales)).statusCode).toBe(404);
    expect((await get(`/api/study/${ids.s1}/study-files-path/nothing.pdf`, admin)).statusCode).toBe(404);
    expect((await get(`/api/study/${ids.s1}/study-files/abc`, admin)).statusCode).toBe(400);
    // A file slot without stored bytes (fixture data) is not found either.
    const screener = await fileRow(ids.s1, 'CMI-2015-001_screener.docx');
    expect((await get(`/api/study/${ids.s1}/study-files/${screener.id}`, admin)).statusCode).toBe(404);
  });
});

describe('version history and swap', () => {
  const historyUrl = `/api/study/__ID__/version-history/${encodeURIComponent(REPORT)}`;

  it('needs a session and valid input; 404 for unknown files', async () => {
    const url = historyUrl.replace('__ID__', String(ids.s1));
    expect((await post(url, undefined, { foldertype: 'report' })).statusCode).toBe(401);
    expect((await post(url, admin, { foldertype: 'cellar' })).statusCode).toBe(400);
    expect((await post(url, admin, { foldertype: 'protocol' })).statusCode).toBe(404);
    expect(
      (await post(historyUrl.replace('__ID__', String(ids.s4)), client, { foldertype: 'report' })).statusCode,
    ).toBe(404);
  });

  it('lists the current file and the earlier versions, newest first', async () => {
    const response = await post(historyUrl.replace('__ID__', String(ids.s1)), client, {
      foldertype: 'report',
    });
    expect(response.statusCode, response.body).toBe(200);
    const source = response.json()._source;
    expect(source).toMatchObject({ current_file: 'Final report v3.pdf', errors: [], status: 'success' });
    expect(source.file_history.map((version: { name: string }) => version.name)).toEqual([
      'Final report v2.pdf',
    ]);
  });

  it('swaps the current version back (admins), with a history row', async () => {
    const file = await fileRow(ids.s1, REPORT);
    const versions = await t.database.db
      .select()
      .from(studyFileVersions)
      .where(eq(studyFileVersions.fileId, file.id))
      .orderBy(asc(studyFileVersions.id));
    const older = versions[0]!;
    const url = `/api/study/${ids.s1}/swap-version-file/${encodeURIComponent(REPORT)}/${older.id}`;
    const body = { filetype: 'report', foldertype: 'report' };
    expect((await post(url, undefined, body)).statusCode).toBe(401);
    expect((await post(url, researcher, body)).statusCode).toBe(403);
    expect((await post(url, admin, { filetype: 'report' })).statusCode).toBe(400);
    expect((await post(url, admin, { filetype: 'protocol', foldertype: 'report' })).statusCode).toBe(400);
    const otherVersion = `/api/study/${ids.s1}/swap-version-file/${encodeURIComponent(REPORT)}/999999`;
    expect((await post(otherVersion, admin, body)).statusCode).toBe(404);

    const response = await post(url, admin, body);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      message: 'Final report v2.pdf is now the current version.',
      _source: { current_file: 'Final report v2.pdf', file_history: [{ name: 'Final report v3.pdf' }] },
    });
    expect((await fileRow(ids.s1, REPORT)).currentVersionId).toBe(older.id);
    const download = await get(`/api/study/${ids.s1}/study-files/${file.id}`, admin);
    expect(download.body).toBe('%PDF-1.4 first\n%%EOF');
    const history = (await get(`/api/study/study_edit_history/${ids.s1}`, admin)).json();
    expect(history.grouped[0].changes[0]).toMatchObject({
      field: `file report/${REPORT}`,
      new_value: expect.stringMatching(/^Final report v2\.pdf \(version/),
    });
  });
});

describe('content checks of uploads', () => {
  const S3_REPORT = 'CMI-2020-003_Final_Report.pdf';
  const S3_RESULTS = 'CMI-2020-003_results.csv';
  const s3Report = { filename: S3_REPORT, filetype: 'report', foldertype: 'report' };
  const s3Results = { filename: S3_RESULTS, filetype: 'RDF', foldertype: 'results' };
  const text = (name: string, body: string) => ({ name, bytes: new TextEncoder().encode(body) });

  async function uploadAndPoll(
    studyId: number,
    fields: Record<string, string>,
    file: { name: string; bytes: Uint8Array },
  ) {
    const started = await upload(studyId, admin, fields, file);
    expect(started.statusCode, started.body).toBe(200);
    const status = await get(`/api/study/${studyId}/upload/${started.json().job_id}`, admin);
    expect(status.statusCode, status.body).toBe(200);
    return { started: started.json(), status: status.json() };
  }

  async function treeNode(studyId: number, folder: string, name: string, token = admin) {
    const root = (await get(`/api/study/${studyId}/related-study-files/`, token)).json();
    const folderNode = root.children.find((node: { name: string }) => node.name === folder);
    return {
      folder: folderNode,
      file: folderNode?.children.find((node: { name: string }) => node.name === name),
    };
  }

  it('keeps a broken pdf as a failed version with its errors; the current file stays', async () => {
    await uploadAndPoll(ids.s3, s3Report, pdf('good'));
    const good = await fileRow(ids.s3, S3_REPORT);
    const historyBefore = await t.database.db
      .select()
      .from(studyEditHistory)
      .where(eq(studyEditHistory.studyId, ids.s3));

    const { started, status } = await uploadAndPoll(ids.s3, s3Report, text('broken.pdf', 'not a pdf'));
    const highMsg = 'broken.pdf was not accepted: The file is not a valid PDF. The current file was kept.';
    expect(started.message).toBe(highMsg);
    expect(status).toEqual({ status: 'failed', filename: 'broken.pdf', high_msg: highMsg });
    expect((await fileRow(ids.s3, S3_REPORT)).currentVersionId).toBe(good.currentVersionId);
    const download = await get(`/api/study/${ids.s3}/study-files/${good.id}`, admin);
    expect(download.body).toBe('%PDF-1.4 good\n%%EOF');
    // Nothing about the study changed, so its edit history does not grow.
    expect(
      await t.database.db.select().from(studyEditHistory).where(eq(studyEditHistory.studyId, ids.s3)),
    ).toHaveLength(historyBefore.length);

    const expectedError = {
      id: 1,
      level: 'error',
      high_msg: 'The file is not a valid PDF',
      msg: 'broken.pdf has no %PDF- header in its first 1024 bytes, so it is not a PDF.',
      event: 'validation',
      error_file: 'broken.pdf',
    };
    const { folder, file } = await treeNode(ids.s3, 'report', S3_REPORT);
    expect(file.errors).toEqual([expectedError]);
    expect(folder.errors).toEqual([expectedError]);

    const history = await post(
      `/api/study/${ids.s3}/version-history/${encodeURIComponent(S3_REPORT)}`,
      researcher,
      { foldertype: 'report' },
    );
    expect(history.json()._source).toMatchObject({
      current_file: 'Final report v2.pdf',
      status: 'success',
      errors: [],
      file_history: [{ name: 'broken.pdf', status: 'failed', errors: [expectedError] }],
    });

    // The next good upload becomes current and the tree is clean again.
    await uploadAndPoll(ids.s3, s3Report, { ...pdf('fixed'), name: 'fixed.pdf' });
    expect((await treeNode(ids.s3, 'report', S3_REPORT)).file.errors).toEqual([]);
  });

  it('refuses office files that are not their format', async () => {
    const cases: [Record<string, string>, { name: string; bytes: Uint8Array }, string][] = [
      [
        { filetype: 'questionnaire', foldertype: 'questionnaire' },
        text('q.docx', 'just text'),
        'q.docx was not accepted: The file is not a valid Word document. The current file was kept.',
      ],
      [
        { filetype: 'report', foldertype: 'report' },
        text('deck.ppt', '%PDF-1.4'),
        'deck.ppt was not accepted: The file is not a valid PowerPoint 97-2003 presentation. The current file was kept.',
      ],
    ];
    for (const [fields, file, message] of cases) {
      const { status } = await uploadAndPoll(ids.s5, fields, file);
      expect(status).toEqual({ status: 'failed', filename: file.name, high_msg: message });
    }
  });

  it('gives a new file whose first upload fails no current version, but shows it with its errors', async () => {
    await uploadAndPoll(ids.s5, { filetype: 'report', foldertype: 'report' }, text('notes.xlsx', 'plain'));
    const slot = await fileRow(ids.s5, 'notes.xlsx');
    expect(slot.currentVersionId).toBeNull();
    const { file } = await treeNode(ids.s5, 'report', 'notes.xlsx');
    expect(file.errors.map((item: { high_msg: string }) => item.high_msg)).toEqual([
      'The file is not a valid Excel workbook',
    ]);
    expect((await get(`/api/study/${ids.s5}/study-files/${slot.id}`, admin)).statusCode).toBe(404);
  });

  it('refuses a results file without the respondent id column; accepts missing columns with warnings', async () => {
    const broken = await uploadAndPoll(
      ids.s3,
      s3Results,
      text('results.csv', 'id,product_code,Q1\n1,P1,4\n'),
    );
    expect(broken.status).toMatchObject({
      status: 'failed',
      high_msg:
        'results.csv was not accepted: The results file has no respondent_id column. The current file was kept.',
    });
    expect((await fileRow(ids.s3, S3_RESULTS)).currentVersionId).toBeNull();

    const warned = await uploadAndPoll(
      ids.s3,
      s3Results,
      text('results v2.csv', 'respondent_id,product_code,Q1\nR1,P1,4\n'),
    );
    expect(warned.status).toEqual({
      status: 'finished',
      filename: 'results v2.csv',
      high_msg: 'Uploaded results v2.csv with 1 warning.',
    });
    const warning = {
      id: 1,
      level: 'warning',
      high_msg: 'The results file lacks expected columns',
      msg: 'results v2.csv: no gender, age, ethnicity, social_class, country columns; those breakdowns will be missing.',
      event: 'validation',
      error_file: 'results v2.csv',
    };
    const current = await fileRow(ids.s3, S3_RESULTS);
    expect(current.currentVersionId).not.toBeNull();
    expect((await treeNode(ids.s3, 'results', S3_RESULTS)).file.errors).toEqual([warning]);
    const history = await post(
      `/api/study/${ids.s3}/version-history/${encodeURIComponent(S3_RESULTS)}`,
      admin,
      { foldertype: 'results' },
    );
    expect(history.json()._source).toMatchObject({
      current_file: 'results v2.csv',
      status: 'success',
      errors: [warning],
      file_history: [{ name: 'results.csv', status: 'failed' }],
    });
    // The tree of a study out of the user's scope stays hidden, problems included.
    expect((await get(`/api/study/${ids.s3}/related-study-files/`, sales)).statusCode).toBe(404);
  });

  it('refuses to make a failed version current, with the reason, and changes nothing', async () => {
    const file = await fileRow(ids.s3, S3_REPORT);
    const versions = await t.database.db
      .select()
      .from(studyFileVersions)
      .where(eq(studyFileVersions.fileId, file.id))
      .orderBy(asc(studyFileVersions.id));
    const failed = versions.find((version) => version.status === 'failed')!;
    const historyBefore = await t.database.sql.executeSql(
      'select count(*)::int as n from study_edit_history where study_id = $1',
      [ids.s3],
    );
    const swapped = await post(
      `/api/study/${ids.s3}/swap-version-file/${encodeURIComponent(S3_REPORT)}/${failed.id}`,
      admin,
      { filetype: 'report', foldertype: 'report' },
    );
    expect(swapped.statusCode, swapped.body).toBe(400);
    expect(errorBody(swapped).message).toBe(
      'broken.pdf cannot be made the current file: it failed its checks (The file is not a valid PDF). Upload a corrected file instead.',
    );
    expect((await fileRow(ids.s3, S3_REPORT)).currentVersionId).toBe(file.currentVersionId);
    const historyAfter = await t.database.sql.executeSql(
      'select count(*)::int as n from study_edit_history where study_id = $1',
      [ids.s3],
    );
    expect(historyAfter.rows).toEqual(historyBefore.rows);
    const { file: node } = await treeNode(ids.s3, 'report', S3_REPORT);
    expect(node.errors.map((item: { level: string }) => item.level)).not.toContain('error');
  });
});

describe('uploads run as jobs on the queue', () => {
  const slotFields = { filetype: 'report', foldertype: 'report' };

  async function pollUntilEnded(studyId: number, jobId: string) {
    for (let attempt = 0; attempt < 100; attempt++) {
      const status = (await get(`/api/study/${studyId}/upload/${jobId}`, admin)).json();
      if (status.status === 'finished' || status.status === 'failed') return status;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`upload job ${jobId} did not end`);
  }

  it('answers a slow job while it runs: the poller sees it started, then finished', async () => {
    diskTrouble.delayMs = UPLOAD_WAIT_MS + 1500;
    try {
      const startedAt = Date.now();
      const started = await upload(ids.s2, admin, slotFields, { ...pdf('slow'), name: 'slow.pdf' });
      expect(started.statusCode, started.body).toBe(200);
      // The request waited for its job as long as it may, then answered it as still running.
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(UPLOAD_WAIT_MS - 50);
      const { job_id: jobId, message } = started.json();
      expect(message).toBe('slow.pdf is being checked.');
      const running = await get(`/api/study/${ids.s2}/upload/${jobId}`, admin);
      expect(running.json()).toEqual({ status: 'started', filename: 'slow.pdf', high_msg: '' });
      // The job is a pg-boss job under the same id, active in a worker.
      expect((await t.jobs.boss.getJobById(STUDY_UPLOAD_QUEUE, jobId))?.state).toBe('active');
      // Nothing is visible in the files until the worker has checked the file.
      const [slotBefore] = await t.database.db
        .select()
        .from(studyFiles)
        .where(and(eq(studyFiles.studyId, ids.s2), eq(studyFiles.name, 'slow.pdf')));
      expect(slotBefore).toBeUndefined();

      expect(await pollUntilEnded(ids.s2, jobId)).toEqual({
        status: 'finished',
        filename: 'slow.pdf',
        high_msg: 'Uploaded slow.pdf.',
      });
      await expect
        .poll(async () => (await t.jobs.boss.getJobById(STUDY_UPLOAD_QUEUE, jobId))?.state, {
          timeout: 5000,
        })
        .toBe('completed');
      const slot = await fileRow(ids.s2, 'slow.pdf');
      expect(slot.currentVersionId).not.toBeNull();
      expect((await get(`/api/study/${ids.s2}/study-files/${slot.id}`, admin)).body).toBe(
        '%PDF-1.4 slow\n%%EOF',
      );
    } finally {
      diskTrouble.delayMs = 0;
    }
  });

  it('fails the job with a clear message when the worker cannot finish, and stores nothing', async () => {
    const versionsBefore = await t.database.db.select().from(studyFileVersions);
    const historyBefore = await t.database.db.select().from(studyEditHistory);
    const current = await fileRow(ids.s1, REPORT);
    diskTrouble.fail = true;
    diskTrouble.reads = [];
    try {
      const started = await upload(ids.s1, admin, reportFields, { ...pdf('lost'), name: 'lost.pdf' });
      expect(started.statusCode, started.body).toBe(200);
      const highMsg =
        'lost.pdf could not be processed, so nothing was stored. The current file was kept; try the upload again.';
      expect(started.json().message).toBe(highMsg);
      const status = await get(`/api/study/${ids.s1}/upload/${started.json().job_id}`, admin);
      expect(status.json()).toEqual({ status: 'failed', filename: 'lost.pdf', high_msg: highMsg });
    } finally {
      diskTrouble.fail = false;
    }
    expect(await t.database.db.select().from(studyFileVersions)).toEqual(versionsBefore);
    expect(await t.database.db.select().from(studyEditHistory)).toEqual(historyBefore);
    expect((await fileRow(ids.s1, REPORT)).currentVersionId).toBe(current.currentVersionId);
    // The bytes the request stored for the job are gone again.
    expect(diskTrouble.reads).toHaveLength(1);
    expect(await disk.exists(diskTrouble.reads[0]!)).toBe(false);
  });
});
