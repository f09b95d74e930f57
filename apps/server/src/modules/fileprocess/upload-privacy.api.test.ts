/**
 * A studies upload is private to the user who made it and to admins, as a statistics working folder
 * is: another researcher does not see it in the history, and cannot read its tree, download its
 * files, replace one or process it (404, as for an upload that does not exist, so its id tells
 * nothing).
 */
import { STUDIES_UPLOAD_MESSAGES } from '@accord/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileProcesses, users } from '../../db/schema.ts';
import { createTestApp, type DemoRole, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const tokens = {} as Record<DemoRole, string>;
let ownUpload: number;
let adminUpload: number;
beforeAll(async () => {
  t = await createTestApp();
  for (const role of ['admin', 'researcher', 'client'] as const) tokens[role] = await t.login(role);
  const userId = async (email: string) =>
    (await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;
  /** An upload that stopped on an error, as the verification page shows it. */
  const errored = async (owner: number, filename: string) => {
    const [row] = await t.database.db
      .insert(fileProcesses)
      .values({
        userId: owner,
        client: 'Northwind',
        studyType: 'Fragrance',
        region: 'Europe',
        year: 2024,
        filename,
        storageKey: `fileprocess/${filename}/upload.zip`,
        status: 'ERRORED',
        fileTree: [
          {
            type: 'file',
            name: 'report.pdf',
            file_path: 'CMI-1/report.pdf',
            errors: [
              {
                level: 'error',
                high_msg: 'Empty file.',
                msg: 'Empty file.',
                path: { file: 'CMI-1/report.pdf' },
              },
            ],
          },
        ],
        message: 'The upload has errors.',
      })
      .returning({ id: fileProcesses.id });
    return row!.id;
  };
  ownUpload = await errored(await userId('researcher@accord.test'), 'researcher.zip');
  adminUpload = await errored(await userId('admin@accord.test'), 'admin.zip');
});
afterAll(async () => {
  await t.close();
});

const history = async (role: DemoRole) =>
  (
    (
      await t.request({ method: 'GET', url: '/api/fileprocess/file-processes', token: tokens[role] })
    ).json() as {
      id: number;
    }[]
  ).map((row) => row.id);

const calls = (id: number) => [
  { method: 'GET' as const, url: `/api/fileprocess/file-process/${id}` },
  {
    method: 'GET' as const,
    url: `/api/fileprocess/${id}/${Buffer.from('CMI-1/report.pdf').toString('base64url')}/download`,
  },
  {
    method: 'PUT' as const,
    url: `/api/fileprocess/fileprocess/${id}/replace_file`,
    ...multipart('CMI-1/report.pdf'),
  },
  {
    method: 'POST' as const,
    url: `/api/fileprocess/fileprocess/${id}/process_studies`,
    payload: { replace_existing: false },
  },
];

/** A replacement file as the verification page sends it. */
function multipart(filepath: string) {
  const boundary = 'accordprivacy';
  const payload =
    `--${boundary}\r\nContent-Disposition: form-data; name="filepath"\r\n\r\n${filepath}\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="report.pdf"\r\n` +
    `Content-Type: application/pdf\r\n\r\n%PDF-1.4 replacement\r\n--${boundary}--\r\n`;
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('a studies upload of another researcher', () => {
  it('is left out of the upload history, which admins see whole', async () => {
    expect(await history('researcher')).toEqual([ownUpload]);
    expect((await history('admin')).sort()).toEqual([ownUpload, adminUpload].sort());
  });

  it('cannot be read, downloaded, replaced or processed (404, as an unknown upload)', async () => {
    for (const call of calls(adminUpload)) {
      const response = await t.request({ ...call, token: tokens.researcher });
      expect(response.statusCode, `${call.method} ${call.url}: ${response.body}`).toBe(404);
      expect(response.json().message).toBe(STUDIES_UPLOAD_MESSAGES.noSuchProcess);
    }
    const after = await t.database.db
      .select({ status: fileProcesses.status, replaced: fileProcesses.hasUploadedNewFile })
      .from(fileProcesses)
      .where(eq(fileProcesses.id, adminUpload));
    expect(after).toEqual([{ status: 'ERRORED', replaced: false }]);
  });

  it('is read by its owner and by admins; client users have no uploads at all (403)', async () => {
    const own = await t.request({
      method: 'GET',
      url: `/api/fileprocess/file-process/${ownUpload}`,
      token: tokens.researcher,
    });
    expect(own.statusCode).toBe(200);
    expect(own.json().file_process.filename).toBe('researcher.zip');
    const byAdmin = await t.request({
      method: 'GET',
      url: `/api/fileprocess/file-process/${ownUpload}`,
      token: tokens.admin,
    });
    expect(byAdmin.statusCode).toBe(200);
    const byClient = await t.request({
      method: 'GET',
      url: `/api/fileprocess/file-process/${ownUpload}`,
      token: tokens.client,
    });
    expect(byClient.statusCode).toBe(403);
  });
});
