// A studies upload whose studies say another client, region or year than the upload form stops at
// VALIDATED, with the differences on the file tree and a message asking to confirm; processing it
// needs confirm_form. A zip that matches its form goes to the library at once.
import { STUDIES_UPLOAD_MESSAGES, type FileProcessDetail, type FileTreeNode } from '@accord/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studyZipEntries } from '../../seed/sample-zips.ts';
import { generateAnswers, planStudy } from '../../seed/study-plan.ts';
import { buildZip } from '../../seed/zip.ts';
import { createTestApp, errorBody, type DemoRole, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const tokens = {} as Record<DemoRole, string>;

beforeAll(async () => {
  t = await createTestApp();
  for (const role of ['admin', 'researcher', 'client', 'sales'] as const) tokens[role] = await t.login(role);
});
afterAll(async () => {
  await t?.close();
});

const shape = { seed: 41, products: 3, respondents: 20, questions: 8, lastYear: 2024 };

function studyZip(index: number) {
  const plan = planStudy(shape, index);
  return { plan, zip: buildZip(studyZipEntries(plan, generateAnswers(plan, shape.seed))) };
}

async function upload(zip: Uint8Array, fields: Record<string, string>, role: DemoRole = 'researcher') {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('file', new Blob([zip]), 'studies.zip');
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  const response = await t.request({
    method: 'POST',
    url: '/api/fileprocess/studies_upload',
    token: tokens[role],
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ task_id: string; file_process_id: number }>();
}

async function lastEvent(taskId: string, role: DemoRole = 'researcher') {
  const response = await t.request({
    method: 'GET',
    url: `/api/fileprocess/${taskId}/status`,
    token: tokens[role],
  });
  const blocks = response.body.split('\n\n').filter((block) => block.startsWith('event:'));
  const [eventLine, dataLine] = blocks.at(-1)!.split('\n');
  return {
    event: eventLine!.slice('event: '.length),
    data: JSON.parse(dataLine!.slice('data: '.length)) as Record<string, unknown>,
  };
}

async function detail(id: number) {
  const response = await t.request({
    method: 'GET',
    url: `/api/fileprocess/file-process/${id}`,
    token: tokens.researcher,
  });
  expect(response.statusCode).toBe(200);
  return response.json<FileProcessDetail>().file_process;
}

const issues = (nodes: FileTreeNode[]): FileTreeNode['errors'] =>
  nodes.flatMap((node) => [...node.errors, ...issues(node.children ?? [])]);

const processStudies = (id: number, payload: unknown, role: DemoRole | null = 'researcher') =>
  t.request({
    method: 'POST',
    url: `/api/fileprocess/fileprocess/${id}/process_studies`,
    token: role ? tokens[role] : undefined,
    payload,
  });

describe('a studies upload that differs from its form', () => {
  it('goes to the library at once when its study matches the form', async () => {
    const { plan, zip } = studyZip(0);
    const { task_id, file_process_id } = await upload(zip, {
      client: plan.metadata.client,
      study_type: 'Fragrance',
      region: plan.metadata.region[0]!,
      year: String(plan.metadata.year),
    });
    expect(await lastEvent(task_id)).toMatchObject({ event: 'result', data: { status: 'SUCCEED' } });
    const process = await detail(file_process_id);
    expect(process.status).toBe('SUCCEED');
    expect(process.message).toBeNull();
  });

  it('stops at VALIDATED with the differences, refuses to process without a confirmation, then adds it', async () => {
    const { plan, zip } = studyZip(1);
    const otherYear = plan.metadata.year === 2024 ? 2023 : 2024;
    const { task_id, file_process_id } = await upload(zip, {
      client: plan.metadata.client,
      study_type: 'Fragrance',
      region: plan.metadata.region[0]!,
      year: String(otherYear),
    });
    // The task ends with the process waiting: no study was added.
    expect(await lastEvent(task_id)).toEqual({
      event: 'result',
      data: { file_process_id, status: 'VALIDATED', study_ids: [] },
    });
    const waiting = await detail(file_process_id);
    expect(waiting.status).toBe('VALIDATED');
    expect(waiting.study_ids).toEqual([]);
    expect(waiting.message).toBe(STUDIES_UPLOAD_MESSAGES.confirmForm(1));
    expect(
      issues(waiting.file_tree)
        .filter((issue) => issue.high_msg === STUDIES_UPLOAD_MESSAGES.formMismatch)
        .map((issue) => issue.msg),
    ).toEqual([`year is "${plan.metadata.year}" in this study but "${otherYear}" on the upload form.`]);

    // Who may process it, and only with the confirmation.
    expect((await processStudies(file_process_id, { confirm_form: true }, null)).statusCode).toBe(401);
    expect((await processStudies(file_process_id, { confirm_form: true }, 'client')).statusCode).toBe(403);
    expect((await processStudies(file_process_id, { confirm_form: 'yes' })).statusCode).toBe(400);
    const unconfirmed = await processStudies(file_process_id, {});
    expect(unconfirmed.statusCode).toBe(400);
    expect(errorBody(unconfirmed).message).toBe(STUDIES_UPLOAD_MESSAGES.confirmForm(1));
    expect((await detail(file_process_id)).status).toBe('VALIDATED');

    const confirmed = await processStudies(file_process_id, { confirm_form: true });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const done = await lastEvent(confirmed.json<{ task_id: string }>().task_id);
    expect(done).toMatchObject({ event: 'result', data: { file_process_id, status: 'SUCCEED' } });
    const added = await detail(file_process_id);
    expect(added.status).toBe('SUCCEED');
    expect(added.message).toBeNull();
    expect(added.study_ids).toHaveLength(1);
    const again = await processStudies(file_process_id, { confirm_form: true });
    expect(again.statusCode).toBe(409);
  });
});
