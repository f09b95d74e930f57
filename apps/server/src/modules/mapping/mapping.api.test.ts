import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers, metrics, productMetricStats, products, questions, studies } from '../../db/schema.ts';
import { METRICS } from '../../seed/catalogue.ts';
import { seedDemoLibrary } from '../../seed/library.ts';
import { createLocalFileStorage } from '../../storage/file-storage.ts';
import { createTestApp, errorBody, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let tempDir: string;
let admin: string;
let researcher: string;
let client: string;
let sales: string;
/** Visible to the demo client user (first client of the library). */
let own: number;
/** Of a client nobody is limited to. */
let foreign: number;

beforeAll(async () => {
  tempDir = await mkdtemp(path.join(os.tmpdir(), 'accord-mapping-'));
  t = await createTestApp({
    seed: async (database) => {
      const summary = await seedDemoLibrary(database, createLocalFileStorage(tempDir), {
        studies: 3,
        seed: 5,
        lastYear: 2024,
        products: 3,
        respondents: 12,
        questions: 14,
      });
      own = summary.firstStudyId;
      foreign = summary.lastStudyId;
      await database.db.update(studies).set({ client: 'Outsider Holdings' }).where(eq(studies.id, foreign));
      // Client and sales users read only verified studies: the generated one may not be.
      await database.db.update(studies).set({ verified: true }).where(eq(studies.id, own));
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
  await rm(tempDir, { recursive: true, force: true });
});

const get = (url: string, token?: string) => t.request({ method: 'GET', url, token });
const put = (studyId: number, token: string | undefined, q_upd: unknown) =>
  t.request({ method: 'PUT', url: `/api/study/${studyId}/question/`, token, payload: { q_upd } });
const metricId = (name: string) => METRICS.find((m) => m.name === name)!.id;

async function questionsOf(studyId: number) {
  return t.database.db
    .select()
    .from(questions)
    .where(eq(questions.studyId, studyId))
    .orderBy(asc(questions.sortOrder));
}
async function questionById(id: number) {
  const [row] = await t.database.db.select().from(questions).where(eq(questions.id, id));
  return row!;
}
/** A metric no question of the study uses. */
async function unusedHedonicMetric(studyId: number, skip: string[] = []): Promise<string> {
  const used = new Set((await questionsOf(studyId)).map((q) => q.metricId));
  return METRICS.find((m) => m.kind === 'hedonic' && !used.has(m.id) && !skip.includes(m.name))!.name;
}
/** The precomputed statistics of a study for a metric, by product, and what the answers say. */
async function statsAndTruth(studyId: number, metric: string) {
  const id = metricId(metric);
  const productIds = (await t.database.db.select().from(products).where(eq(products.studyId, studyId))).map(
    (p) => p.id,
  );
  const stored = await t.database.db
    .select()
    .from(productMetricStats)
    .where(and(eq(productMetricStats.metricId, id), inArray(productMetricStats.productId, productIds)))
    .orderBy(asc(productMetricStats.productId));
  const truth = await t.database.db
    .select({
      productId: answers.productId,
      n: sql<number>`count(*)::int`,
      sum: sql<number>`sum(${answers.value})::float8`,
      top2: sql<number>`(count(*) filter (where ${answers.value} >= 3.5 - 1e-6))::int`,
    })
    .from(answers)
    .where(and(eq(answers.studyId, studyId), eq(answers.metricId, id)))
    .groupBy(answers.productId)
    .orderBy(asc(answers.productId));
  return {
    stored: stored.map((s) => ({ productId: s.productId, n: s.n, sum: s.sum, top2: s.nTop2Box })),
    truth: truth.map((r) => ({ productId: r.productId, n: r.n, sum: r.sum, top2: r.top2 })),
  };
}

describe('GET /api/study/metrics/', () => {
  it('needs a session', async () => {
    expect((await get('/api/study/metrics/')).statusCode).toBe(401);
  });

  it('answers the catalogue with names, labels, types and kinds', async () => {
    const response = await get('/api/study/metrics/', client);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toHaveLength(METRICS.length);
    expect(body).toContainEqual({
      name: 'liking',
      label: 'Overall Liking',
      metric_type: 'Performance',
      kind: 'hedonic',
    });
    expect(body).toContainEqual({
      name: 'strength',
      label: 'Strength',
      metric_type: 'Performance',
      kind: 'jar',
    });
  });
});

describe('GET /api/study/metrics/:studyId', () => {
  it('needs a session, a valid id and a visible study', async () => {
    expect((await get(`/api/study/metrics/${own}`)).statusCode).toBe(401);
    expect((await get('/api/study/metrics/abc', admin)).statusCode).toBe(400);
    const missing = await get('/api/study/metrics/999999', admin);
    expect(missing.statusCode).toBe(404);
    expect(errorBody(missing).message).toBe('Study 999999 does not exist.');
    expect((await get(`/api/study/metrics/${foreign}`, client)).statusCode).toBe(404);
    expect((await get(`/api/study/metrics/${foreign}`, sales)).statusCode).toBe(404);
  });

  it('lists the metrics in use with their questions, the product codes and the code column', async () => {
    const response = await get(`/api/study/metrics/${own}`, client);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    const liking = body.metrics.find((m: { value: string }) => m.value === 'liking');
    expect(liking).toMatchObject({ label: 'Overall Liking', metric_type: 'Performance' });
    expect(liking.used_in).toEqual([expect.objectContaining({ qid: 'Q1' })]);
    const mapped = (await questionsOf(own)).filter((q) => q.metricId !== null).length;
    expect(body.metrics.reduce((sum: number, m: { used_in: unknown[] }) => sum + m.used_in.length, 0)).toBe(
      mapped,
    );
    expect(body.product_codes).toHaveLength(3);
    expect(body.product_codes[0].label).toMatch(/^\S+ - .+/);
    expect(body.product_code_columns).toEqual([{ value: 'product_code', label: 'Product code' }]);
  });
});

describe('GET /api/study/:id/questions/', () => {
  it('needs a session, a valid id and a visible study', async () => {
    expect((await get(`/api/study/${own}/questions/`)).statusCode).toBe(401);
    expect((await get('/api/study/0/questions/', admin)).statusCode).toBe(400);
    expect((await get('/api/study/999999/questions/', admin)).statusCode).toBe(404);
    expect((await get(`/api/study/${foreign}/questions/`, client)).statusCode).toBe(404);
    expect((await get(`/api/study/${own}/questions/`, client)).statusCode).toBe(200);
    expect((await get(`/api/study/${foreign}/questions/`, researcher)).statusCode).toBe(200);
  });

  it('groups the questions by file with domain, metric, suggestion and validation', async () => {
    const response = await get(`/api/study/${own}/questions/`, researcher);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ study_id: own, c_mi_number: expect.stringMatching(/^CMI-/) });
    expect(body.files).toHaveLength(1);
    const [file] = body.files;
    const rows = await questionsOf(own);
    expect(file.questions).toHaveLength(rows.length);
    expect(file.filename).toBe(rows[0]!.filename);
    const q1 = file.questions[0];
    expect(q1).toMatchObject({
      qid: 'Q1',
      text: 'Overall, how much do you like or dislike this fragrance?',
      metric: { name: 'liking', label: 'Overall Liking' },
      suggested_metric: { name: 'liking', label: 'Overall Liking' },
      domain: { type: 'numerical', min: rows[0]!.scaleMin, max: rows[0]!.scaleMax },
      filename: file.filename,
      path: file.path,
    });
    const binary = file.questions.find((q: { question_type: string }) => q.question_type === 'binary');
    expect(binary.domain).toMatchObject({
      type: 'categorical',
      values: expect.arrayContaining([expect.objectContaining({ name: 'Selected' })]),
    });
    // The suggestion is real: each question's suggestion is the generator's true metric.
    const truth = new Map(rows.map((r) => [r.id, r.suggestedMetricId]));
    const names = new Map(METRICS.map((m) => [m.id, m.name]));
    for (const question of file.questions) {
      const expected = truth.get(question.id);
      expect(question.suggested_metric?.name ?? null, question.text).toBe(
        expected ? names.get(expected) : null,
      );
      // Every suggestion says how sure it is and why; no suggestion, no explanation.
      if (question.suggested_metric) {
        expect(['high', 'medium']).toContain(question.suggestion.confidence);
        expect(question.suggestion.reasons.length, question.text).toBeGreaterThan(0);
      } else expect(question.suggestion).toBeNull();
    }
    // The liking question is explained by its words, its scale's labels and its validated twins.
    expect(q1.suggestion.confidence).toBe('high');
    const kinds = q1.suggestion.reasons.map((reason: { kind: string }) => reason.kind);
    expect(kinds).toEqual(expect.arrayContaining(['words', 'scale', 'example']));
    expect(q1.suggestion.reasons).toContainEqual(
      expect.objectContaining({ kind: 'words', words: expect.arrayContaining(['like']) }),
    );
    expect(q1.suggestion.reasons).toContainEqual(
      expect.objectContaining({ kind: 'example', text: q1.text, count: expect.any(Number) }),
    );
  });
});

describe('PUT /api/study/:id/question/', () => {
  it('needs a session', async () => {
    expect((await put(own, undefined, { id: 1, metric: 'liking' })).statusCode).toBe(401);
  });

  it('is refused to client and sales users, whatever they send (403)', async () => {
    const [q] = await questionsOf(own);
    for (const token of [client, sales]) {
      const response = await put(own, token, { id: q!.id, metric_validated: false });
      expect(response.statusCode).toBe(403);
      expect((await put(own, token, { nonsense: true })).statusCode).toBe(403);
    }
    expect((await questionById(q!.id)).metricValidated).toBe(q!.metricValidated);
  });

  it('answers 400 with a clear message for bad input', async () => {
    const [q] = await questionsOf(own);
    const missing = await t.request({
      method: 'PUT',
      url: `/api/study/${own}/question/`,
      token: admin,
      payload: {},
    });
    expect(missing.statusCode).toBe(400);
    const nothing = await put(own, admin, { id: q!.id });
    expect(nothing.statusCode).toBe(400);
    expect(errorBody(nothing).message).toContain('Send a metric, a value or metric_validated to change.');
    const noText = await put(own, admin, { text: '  ', filename: q!.filename, value: '1' });
    expect(noText.statusCode).toBe(400);
    expect(errorBody(noText).message).toContain('Enter the substance of the question.');
    const unknown = await put(own, admin, { id: q!.id, metric: 'smell_of_rain' });
    expect(unknown.statusCode).toBe(400);
    expect(errorBody(unknown).message).toBe('Unknown metric "smell_of_rain".');
    const badFile = await put(own, admin, { text: 'Panel', filename: 'elsewhere.csv', value: 'A' });
    expect(badFile.statusCode).toBe(400);
    expect(errorBody(badFile).message).toBe('"elsewhere.csv" is not a results file of this study.');
  });

  it('answers 404 for an unknown study, a study out of scope or a question of another study', async () => {
    const [q] = await questionsOf(own);
    expect((await put(999999, admin, { id: q!.id, metric_validated: true })).statusCode).toBe(404);
    const elsewhere = await put(foreign, admin, { id: q!.id, metric_validated: true });
    expect(elsewhere.statusCode).toBe(404);
    expect(errorBody(elsewhere).message).toBe(`Question ${q!.id} is not a question of this study.`);
  });

  it('maps an unmapped question: its answers count under the metric at once', async () => {
    const rows = await questionsOf(own);
    const unmapped = rows.find((q) => q.metricId === null && q.questionType === 'numerical')!;
    const metric = await unusedHedonicMetric(own);
    expect((await statsAndTruth(own, metric)).stored).toEqual([]);

    const response = await put(own, researcher, { id: unmapped.id, metric });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      message: 'Mapping saved.',
      question: { id: unmapped.id, metric: { name: metric }, metric_validated: false },
    });
    const moved = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(answers)
      .where(and(eq(answers.questionId, unmapped.id), eq(answers.metricId, metricId(metric))));
    expect(moved[0]!.n).toBeGreaterThan(0);
    const { stored, truth } = await statsAndTruth(own, metric);
    expect(stored).toHaveLength(3);
    expect(stored.map((s) => ({ ...s, sum: Math.round(s.sum * 1e4) }))).toEqual(
      truth.map((s) => ({ ...s, sum: Math.round(s.sum * 1e4) })),
    );

    // A changed mapping moves the answers: the old metric's statistics lose them.
    const other = await unusedHedonicMetric(own, [metric]);
    expect((await put(own, admin, { id: unmapped.id, metric: other })).statusCode).toBe(200);
    expect((await statsAndTruth(own, metric)).stored).toEqual([]);
    const after = await statsAndTruth(own, other);
    expect(after.stored.map((s) => s.n)).toEqual(after.truth.map((s) => s.n));
    expect(after.stored).toHaveLength(3);

    // Unmapping takes them out of analytics.
    expect((await put(own, admin, { id: unmapped.id, metric: null })).statusCode).toBe(200);
    expect((await statsAndTruth(own, other)).stored).toEqual([]);
    expect((await questionById(unmapped.id)).metricId).toBeNull();
  });

  it('refuses a metric already used in the same file, and changes nothing', async () => {
    const rows = await questionsOf(own);
    const target = rows.find((q) => q.metricId === null && q.questionType === 'numerical')!;
    const before = await statsAndTruth(own, 'liking');
    const response = await put(own, admin, { id: target.id, metric: 'liking' });
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).message).toBe(
      `Overall Liking is already mapped to question Q1 of ${target.filename}. A metric can be used once per file.`,
    );
    expect((await questionById(target.id)).metricId).toBeNull();
    expect(await statsAndTruth(own, 'liking')).toEqual(before);
  });

  it('validates, keeps a validated metric, and un-validates', async () => {
    const rows = await questionsOf(own);
    const target = rows.find((q) => q.metricId === null && q.questionType === 'numerical')!;
    const noMetric = await put(own, admin, { id: target.id, metric_validated: true });
    expect(noMetric.statusCode).toBe(400);
    expect(errorBody(noMetric).message).toBe('Choose a metric before validating the question.');

    const metric = await unusedHedonicMetric(own);
    expect((await put(own, admin, { id: target.id, metric })).statusCode).toBe(200);
    const listed = (await get(`/api/study/${own}/questions/`, admin)).json();
    const full = listed.files[0].questions.find((q: { id: number }) => q.id === target.id);
    const validated = await put(own, admin, { ...full, metric_validated: true });
    expect(validated.statusCode, validated.body).toBe(200);
    expect(validated.json().question).toMatchObject({ metric_validated: true, metric: { name: metric } });

    const locked = await put(own, admin, { id: target.id, metric: await unusedHedonicMetric(own, [metric]) });
    expect(locked.statusCode).toBe(400);
    expect(errorBody(locked).message).toBe(
      'This question is validated, so its metric cannot change. Remove the validation first.',
    );
    expect((await questionById(target.id)).metricId).toBe(metricId(metric));

    const unvalidated = await put(own, admin, { id: target.id, metric_validated: false });
    expect(unvalidated.statusCode).toBe(200);
    expect((await questionById(target.id)).metricValidated).toBe(false);
    expect((await put(own, admin, { id: target.id, metric: null })).statusCode).toBe(200);
  });

  it('adds a constant question and edits its value', async () => {
    const rows = await questionsOf(own);
    const filename = rows[0]!.filename;
    const metric = await unusedHedonicMetric(own);
    const added = await put(own, researcher, {
      text: 'Panel wave',
      min: null,
      max: null,
      value: 'Wave 2',
      metric,
      attribute: '',
      results_id: rows[0]!.resultsFileId,
      filename,
      path: rows[0]!.path,
    });
    expect(added.statusCode, added.body).toBe(200);
    const question = added.json().question;
    expect(added.json().message).toBe('Question added.');
    expect(question).toMatchObject({
      qid: 'C1',
      text: 'Panel wave',
      question_type: 'constant',
      domain: { type: 'constant', value: 'Wave 2', min: null, max: null, values: [] },
      metric: { name: metric },
      metric_validated: false,
      filename,
      results_id: rows[0]!.resultsFileId,
    });

    const edited = await put(own, admin, { id: question.id, value: 'Wave 3' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().question.domain.value).toBe('Wave 3');

    const second = await put(own, admin, { text: 'Fieldwork agency', filename, value: null, metric: null });
    expect(second.json().question.qid).toBe('C2');

    const duplicate = await put(own, admin, { text: 'Another', filename, value: 'x', metric });
    expect(duplicate.statusCode).toBe(400);
    expect(errorBody(duplicate).message).toContain('is already mapped to question C1');

    const notConstant = await put(own, admin, { id: rows[0]!.id, value: '3' });
    expect(notConstant.statusCode).toBe(400);
    expect(errorBody(notConstant).message).toBe('Only constant questions have a value to edit.');

    const listed = (await get(`/api/study/${own}/questions/`, client)).json();
    expect(listed.files[0].questions.at(-1)).toMatchObject({ qid: 'C2', text: 'Fieldwork agency' });
    const [catalogue] = await t.database.db.select().from(metrics).where(eq(metrics.name, metric));
    expect(catalogue).toBeDefined();
  });
});

describe('GET /api/docs/json', () => {
  it('documents the mapping calls', async () => {
    const response = await get('/api/docs/json');
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/study/metrics/',
        '/api/study/metrics/{studyId}',
        '/api/study/{id}/questions/',
        '/api/study/{id}/question/',
      ]),
    );
  });
});
