import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fragrances, products, studies } from '../../db/schema.ts';
import { seedDemoLibrary } from '../../seed/library.ts';
import { createLocalFileStorage } from '../../storage/file-storage.ts';
import { readReport } from '../../testing/report-table.ts';
import { createTestApp, errorBody, type TestApp } from '../../testing/test-app.ts';
import { sampleFiles } from './engine/sample-data.ts';
import type { StatisticsResults } from '@accord/contracts';
import { anovaIntrablock, assignSignificanceLetters } from '@accord/stats';

let t: TestApp;
let tempDir: string;
let admin: string;
let researcher: string;
let client: string;
/** Visible to the demo client user. */
let own: number;
/** Of a client nobody is limited to. */
let foreign: number;
const samples = sampleFiles();

beforeAll(async () => {
  tempDir = await mkdtemp(path.join(os.tmpdir(), 'accord-statistics-'));
  t = await createTestApp({
    seed: async (database) => {
      const summary = await seedDemoLibrary(database, createLocalFileStorage(tempDir), {
        studies: 3,
        seed: 5,
        lastYear: 2024,
        products: 3,
        respondents: 40,
        questions: 14,
      });
      own = summary.firstStudyId;
      foreign = summary.lastStudyId;
      await database.db.update(studies).set({ client: 'Outsider Holdings' }).where(eq(studies.id, foreign));
      // Client and sales users read only verified studies: the generated one may not be.
      await database.db.update(studies).set({ verified: true }).where(eq(studies.id, own));
    },
  });
  [admin, researcher, client] = await Promise.all([
    t.login('admin'),
    t.login('researcher'),
    t.login('client'),
  ]);
});
afterAll(async () => {
  await t.close();
  await rm(tempDir, { recursive: true, force: true });
});

async function multipart(
  fields: Record<string, string>,
  file?: { field: string; name: string; text: string },
) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (file) form.append(file.field, new Blob([file.text]), file.name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}

async function send(
  method: 'POST' | 'PUT',
  url: string,
  token: string | undefined,
  fields: Record<string, string>,
  file?: { field: string; name: string; text: string },
) {
  return t.request({ method, url, token, ...(await multipart(fields, file)) });
}

const uploadData = (token: string | undefined, text = samples['sample_data.csv'], name = 'sample_data.csv') =>
  send(
    'POST',
    '/api/rdf/upload/',
    token,
    { study_name: 'Sample study' },
    { field: 'data_input', name, text },
  );
const uploadScale = (
  token: string,
  folder: string,
  text = samples['sample_scale.csv'],
  name = 'sample_scale.csv',
) => send('PUT', '/api/rdf/upload/', token, { folder_name: folder }, { field: 'likert_scale', name, text });
const uploadFile = (token: string, folder: string, kind: string, name: string, text: string) =>
  send('POST', '/api/rdf/upload/files/', token, { folder_name: folder, kind }, { field: 'file', name, text });
const post = (url: string, token: string | undefined, payload: unknown) =>
  t.request({ method: 'POST', url, token, payload });
const download = (token: string | undefined, folder: string, file: string) =>
  t.request({
    method: 'GET',
    url: `/api/rdf/download_templates/${folder}/${encodeURIComponent(file)}`,
    token,
  });

const form = (folder: string) => ({
  folder_name: folder,
  study_name: 'Sample study',
  product_code: 'product_code',
  product_order: 'Unspecified Product Order',
  main_question_column: 'liking',
  strength_questions: ['strength'],
  cpv_question: ['purchase_intention'],
  test_types: ['two_99', 'two_95', 'two_90'],
  paired: true,
  parametric: true,
  regression: true,
  replace_product_codes: true,
  charts: true,
  binary_option: '0 and 1',
});

async function workbook(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  return book;
}

describe('the wizard of a new upload', () => {
  let folder = '';

  it('POST /api/rdf/upload/: 401, 403 for client users, 400 for bad files, then a private folder', async () => {
    expect((await uploadData(undefined)).statusCode).toBe(401);
    expect((await uploadData(client)).statusCode).toBe(403);
    const wrongType = await uploadData(admin, 'a,b\n1,2\n', 'data.xlsx');
    expect(wrongType.statusCode).toBe(400);
    expect(errorBody(wrongType).message).toBe('Invalid file extension');
    const semicolons = await uploadData(admin, 'respondent_id;product_code;liking\nR1;F1;5\n', 'semi.csv');
    expect(errorBody(semicolons).message).toBe(
      'semi.csv, row 1: the columns are separated by semicolons; save the file with commas (,) as the delimiter.',
    );
    const empty = await uploadData(admin, '', 'empty.csv');
    expect(errorBody(empty).message).toBe('empty.csv is empty.');
    const noName = await send(
      'POST',
      '/api/rdf/upload/',
      admin,
      {},
      { field: 'data_input', name: 'd.csv', text: 'a\n1\n' },
    );
    expect(errorBody(noName).message).toBe('Missing value for study_name');

    const response = await uploadData(researcher);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    folder = body.folder_name;
    expect(folder).toMatch(/^[a-z0-9-]{36}$/);
    expect(body.product_codes.map((option: { value: string }) => option.value)).toEqual([
      'F101',
      'F102',
      'F103',
      'F104',
    ]);
    expect(body.product_code_columns[0]).toEqual({ value: 'product_code', label: 'product_code' });
    expect(body.metrics.map((option: { value: string }) => option.value)).toContain('liking');
  });

  it('templates: Not ready yet before the scale, then made from the folder; other users get 404', async () => {
    const early = await download(researcher, folder, 'reg_template.csv');
    expect(early.statusCode).toBe(404);
    expect(errorBody(early).message).toBe('Not ready yet! reg_template.csv');
    const scaleTemplate = await download(researcher, folder, 'scale_template.csv');
    expect(scaleTemplate.statusCode).toBe(200);
    expect(scaleTemplate.body.split('\n').slice(0, 2)).toEqual([
      'question_id,text,type,scale_min,scale_max,labels,metric',
      'liking,liking,numerical,1,9,,',
    ]);
    expect((await download(admin, folder, 'scale_template.csv')).statusCode).toBe(404);
    expect((await download(researcher, 'not-a-folder-0000', 'summary.xlsx')).statusCode).toBe(404);
    expect((await download(researcher, folder, 'other.csv')).statusCode).toBe(400);
    const sample = await download(researcher, 'sample-files', 'sample_data.csv');
    expect(sample.body).toBe(samples['sample_data.csv']);
  });

  it('PUT /api/rdf/upload/: the scale is checked against the data; another user cannot use the folder', async () => {
    const missing = await uploadScale(
      researcher,
      folder,
      'question_id,text,type,scale_min,scale_max\nsweet,Sweet,numerical,1,5\n',
      's.csv',
    );
    expect(missing.statusCode).toBe(400);
    expect(errorBody(missing).message).toBe(
      's.csv: the question "sweet" is not a column of sample_data.csv.',
    );
    const badBound = await uploadScale(
      researcher,
      folder,
      'question_id,text,type,scale_min,scale_max\nliking,Liking,numerical,one,9\n',
      's.csv',
    );
    expect(errorBody(badBound).message).toBe('s.csv, row 2, column scale_min: "one" is not a number.');
    expect((await uploadScale(admin, folder)).statusCode).toBe(404);
    const response = await uploadScale(researcher, folder);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      folder_name: folder,
      strength_questions: ['strength'],
      binary_questions: ['natural'],
    });
  });

  it('POST /api/rdf/product-code/: names the missing column, answers the codes', async () => {
    const unknown = await post('/api/rdf/product-code/', researcher, {
      folder_name: folder,
      product_code: 'sku',
    });
    expect(unknown.statusCode).toBe(400);
    expect(errorBody(unknown).message).toBe('sample_data.csv: there is no column "sku".');
    expect((await post('/api/rdf/product-code/', researcher, { product_code: 'x' })).statusCode).toBe(400);
    expect(
      (await post('/api/rdf/product-code/', client, { folder_name: folder, product_code: 'x' })).statusCode,
    ).toBe(403);
    const ok = await post('/api/rdf/product-code/', researcher, {
      folder_name: folder,
      product_code: 'product_code',
    });
    expect(ok.json().product_codes).toHaveLength(4);
  });

  it('POST /api/rdf/upload/files/: regression and names files with row-level messages', async () => {
    const badRole = await uploadFile(
      researcher,
      folder,
      'regression',
      'r.csv',
      'question_id,role\nfresh,predictor\n',
    );
    expect(errorBody(badRole).message).toBe(
      'r.csv, row 2, column role: "predictor" is not driver or outcome.',
    );
    const emptyName = await uploadFile(
      researcher,
      folder,
      'names',
      'p.csv',
      'product_code,product_name\nF101,\n',
    );
    expect(errorBody(emptyName).message).toBe(
      'p.csv, row 2, column product_name: the product name is empty.',
    );
    const regression = await uploadFile(
      researcher,
      folder,
      'regression',
      'sample_regression.csv',
      samples['sample_regression.csv'],
    );
    expect(regression.json()).toEqual({ folder_name: folder, file: 'sample_regression.csv', rows: 4 });
    expect(
      (await uploadFile(researcher, folder, 'names', 'sample_products.csv', samples['sample_products.csv']))
        .statusCode,
    ).toBe(200);
    const template = await download(researcher, folder, 'prod_template.csv');
    expect(template.body).toBe('product_code,product_name\nF101,F101\nF102,F102\nF103,F103\nF104,F104\n');
  });

  it('POST /api/rdf/results/: 400 for an empty order list, then results and the three files', async () => {
    const emptyOrder = await post('/api/rdf/results/', researcher, {
      ...form(folder),
      product_order: 'Specified Product Order',
    });
    expect(emptyOrder.statusCode).toBe(400);
    expect(errorBody(emptyOrder).message).toContain('The array product_code_order is empty!');
    const badCpv = await post('/api/rdf/results/', researcher, { ...form(folder), cpv_question: ['liking'] });
    expect(errorBody(badCpv).message).toBe('The CPV question "liking" is not on a 5-point scale (1 to 9).');
    expect((await download(researcher, folder, 'summary.xlsx')).statusCode).toBe(404);

    const response = await post('/api/rdf/results/', researcher, form(folder));
    expect(response.statusCode).toBe(200);
    const results = response.json();
    expect(results.study_folder_name).toBe(folder);
    expect(results.summary.headers.slice(2)).toEqual([
      'A: Amber Dusk',
      'B: Citrus Veil',
      'C: Green Orchard',
      'D: Velvet Musk and Sandalwood Accord',
    ]);
    expect(results.files).toEqual(['summary.xlsx', 'Regressions&Correlations.xlsx', 'chart_ppt.pptx']);
    expect(results.charts).toHaveLength(7);
    expect(results.regression.data[0][0]).toBe('(Intercept)');

    const summary = readReport(
      await workbook((await download(researcher, folder, 'summary.xlsx')).rawPayload),
      'Summary',
    );
    expect(summary.headings).toEqual(results.summary.headers);
    expect(summary.lines).toContain('Prepared by: researcher@accord.test');
    // Each question is named once, at the head of its rows; every number is the API's.
    let question: unknown;
    const written = summary.rows.map((row) => {
      if (row[0] !== undefined) question = row[0];
      return [question, ...row.slice(1)];
    });
    expect(written).toEqual(
      results.summary.data.map((row: unknown[]) => row.map((value) => (value === null ? undefined : value))),
    );
    const correlations = await workbook(
      (await download(researcher, folder, 'Regressions&Correlations.xlsx')).rawPayload,
    );
    expect(correlations.worksheets.map((sheet) => sheet.name)).toEqual([
      'Correlations',
      'Product correlations',
      'Regression',
    ]);
    const pptx = await download(researcher, folder, 'chart_ppt.pptx');
    expect(pptx.headers['content-type']).toContain('presentationml');
    const zip = await JSZip.loadAsync(pptx.rawPayload);
    expect(Object.keys(zip.files).filter((name) => /^ppt\/charts\/chart\d+\.xml$/.test(name))).toHaveLength(
      7,
    );
  });

  // Letters of the sample data computed with SciPy (scipy.stats.studentized_range on the two-way
  // ANOVA's error mean square of complete respondents, (k-1)(n-1) df): row "99% / 95%", row "90%".
  const TUKEY_LETTERS: Record<string, [string[], string[]]> = {
    'liking: Overall liking': [
      ['BCD', 'C', '', 'C'],
      ['BCD', 'C', '', 'C'],
    ],
    'pleasant: How pleasant is the fragrance?': [
      ['BCD', 'C', '', 'C'],
      ['BCD', 'C', '', 'C'],
    ],
    'fresh: How fresh is the fragrance?': [
      ['CD', 'CD', '', 'C'],
      ['CD', 'CD', '', 'C'],
    ],
    'long_lasting: How long lasting is the fragrance?': [
      ['C', '', '', ''],
      ['C', '', '', ''],
    ],
    'strength: Strength of the fragrance': [
      ['bC', 'C', '', 'C'],
      ['BC', 'C', '', 'C'],
    ],
    'purchase_intention: How likely would you buy it? (CPV)': [
      ['BCd', '', '', 'C'],
      ['BCD', '', '', 'C'],
    ],
  };
  const lettersOf = (results: StatisticsResults, title: string) =>
    ['Significance Two-tailed 99% / 95%', 'Significance Two-tailed 90%'].map((label) =>
      results.summary.data.find((row) => row[0] === title && row[1] === label)?.slice(2),
    );

  it('POST /api/rdf/results/ with Tukey HSD: the letters of the reference implementation, the omnibus row', async () => {
    const nonParametric = await post('/api/rdf/results/', researcher, {
      ...form(folder),
      parametric: false,
      multiple_comparisons: 'tukey_hsd',
    });
    expect(nonParametric.statusCode).toBe(400);
    expect(errorBody(nonParametric).message).toContain(
      'Tukey HSD compares means: choose parametric tests, or Holm or Benjamini-Hochberg for non-parametric ones.',
    );
    const oneTailed = await post('/api/rdf/results/', researcher, {
      ...form(folder),
      test_types: ['one_95'],
      multiple_comparisons: 'tukey_hsd',
    });
    expect(errorBody(oneTailed).message).toContain('Tukey HSD is a two-tailed test');
    const unknown = await post('/api/rdf/results/', researcher, {
      ...form(folder),
      multiple_comparisons: 'bonferroni',
    });
    expect(unknown.statusCode).toBe(400);
    expect(errorBody(unknown).message).toContain('multiple_comparisons');

    const response = await post('/api/rdf/results/', researcher, {
      ...form(folder),
      multiple_comparisons: 'tukey_hsd',
    });
    expect(response.statusCode, response.body).toBe(200);
    const results = response.json<StatisticsResults>();
    for (const [title, letters] of Object.entries(TUKEY_LETTERS))
      expect(lettersOf(results, title), title).toEqual(letters);
    expect(results.legend[0]).toBe(
      'Tukey HSD, two-tailed. Upper case: significantly higher at 99 %; lower case: at 95 %.',
    );
    expect(results.legend).toContain(
      "Multiple comparisons: Tukey HSD over each question's pairs (studentized range; paired designs use the two-way ANOVA's error mean square with (k-1)(n-1) df, unpaired designs Tukey-Kramer).",
    );
    // Omnibus: the two-way ANOVA of liking (SciPy: F = 45.8687718586852 on 3 and 237 df).
    const liking = results.omnibus.data.find((row) => row[0] === 'liking: Overall liking')!;
    expect(liking[1]).toBe('Two-way ANOVA (respondents as blocks)');
    expect(liking[2] as number).toBeCloseTo(45.8687718586852, 9);
    expect(liking[3]).toBe('3, 237');
    expect((liking[4] as number) / 2.0670134163934162e-23).toBeCloseTo(1, 6);
    expect(liking.slice(5)).toEqual([80, 4]);
    const omnibusRow = results.summary.data.find(
      (row) => row[0] === 'liking: Overall liking' && row[1] === 'Omnibus test',
    )!;
    expect(omnibusRow[2]).toBe(
      'Two-way ANOVA (respondents as blocks): F = 45.87, df = 3, 237, p < 0.0001 (80 respondents, 4 products)',
    );
    // Paired design: regression standard errors are cluster-robust by respondent.
    expect(results.regression!.data.map((row) => row[0])).toContain(
      'Standard errors: cluster-robust by respondent (CR1), t with 79 df (80 respondents)',
    );
    expect(results.correlation.headers[2]).toBe('Pearson p-value (cluster-robust by respondent)');
    expect(results.product_correlation.data.every((row) => row[5] === 4)).toBe(true);
  });

  it('POST /api/rdf/results/: a yes/no question with answers missing gets the intra-block analysis of its shares', async () => {
    const response = await post('/api/rdf/results/', researcher, {
      ...form(folder),
      multiple_comparisons: 'none',
    });
    expect(response.statusCode, response.body).toBe(200);
    const results = response.json<StatisticsResults>();
    const title = 'natural: Does it smell natural?';
    const rows = results.summary.data.filter((row) => row[0] === title).map((row) => row[1]);
    expect(rows).toEqual([
      'Base (n)',
      'Yes',
      'No',
      'Adjusted share of yes',
      'Significance Two-tailed 99% / 95%',
      'Significance Two-tailed 90%',
      'Omnibus test',
    ]);
    // Recomputed from the raw csv: the intra-block contrasts of the 0/1 answers, products in table order.
    const lines = samples['sample_data.csv'].trim().split('\n');
    const headers = lines[0]!.split(',');
    const column = (name: string) => headers.indexOf(name);
    const answered = lines
      .slice(1)
      .map((line) => line.split(','))
      .filter((cells) => (cells[column('natural')] ?? '') !== '');
    const anova = anovaIntrablock(
      answered.map((cells) => cells[column('respondent_id')]!),
      answered.map((cells) => cells[column('product_code')]!),
      answered.map((cells) => Number(cells[column('natural')])),
    );
    const codes = results.product_codes;
    const outcomes = codes.map((first, i) =>
      codes.map((second, j) => {
        if (i === j) return null;
        const pair = anova.pairs.find(
          (entry) => (entry.a === first && entry.b === second) || (entry.a === second && entry.b === first),
        )!;
        const diff = pair.a === first ? pair.diff : -pair.diff;
        return { pValue: pair.pValue, direction: diff > 0 ? ('mt' as const) : ('let' as const) };
      }),
    );
    expect(lettersOf(results, title)).toEqual([
      assignSignificanceLetters(outcomes, [0.01, 0.05]).map((letter) => letter.text),
      assignSignificanceLetters(outcomes, [0.1]).map((letter) => letter.text),
    ]);
    expect(results.legend).toContain(
      'Yes/no questions: shares of yes, where yes is the code 1 (no: 0); pairs by the intra-block analysis of the 0/1 answers (contrasts of adjusted shares) where answers are missing.',
    );
    expect(results.legend).toContain(
      'Multiple comparisons: none; each pair is tested at its level, as in the original letters.',
    );
    const omnibus = results.omnibus.data.find((row) => row[0] === title)!;
    expect(omnibus[1]).toBe('Intra-block ANOVA (products adjusted for respondents)');
    expect(omnibus[2] as number).toBeCloseTo(anova.f, 9);
    expect(omnibus[5]).toBe(anova.respondents);
    // The design line and the analysis used: complete blocks for liking, intra-block where answers are missing.
    expect(results.design.found).toBe(
      'Design found: complete block (every respondent rated every product); 80 respondents, 4 products.',
    );
    expect(
      results.design.analysis.some((line) =>
        /^Analysis used \(.*natural.*\): intra-block analysis/.test(line),
      ),
    ).toBe(true);
    expect(results.design.warnings).toEqual([]);
  });

  it('a data file with a non-numeric answer is refused at its upload, naming the row and column', async () => {
    const bad = samples['sample_data.csv'].replace('R001,F102,male,57,5,', 'R001,F102,male,57,five,');
    const response = await uploadData(researcher, bad, 'bad.csv');
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).message).toBe('bad.csv, row 3, column liking: "five" is not a number.');
  });

  it('an answer outside its scale is refused when the scale is uploaded, naming the row and column', async () => {
    const bad = samples['sample_data.csv'].replace('R001,F102,male,57,5,4,3,', 'R001,F102,male,57,5,4,8,');
    const data = await uploadData(researcher, bad, 'bad.csv');
    expect(data.statusCode).toBe(200);
    const response = await uploadScale(researcher, data.json().folder_name);
    expect(response.statusCode).toBe(400);
    expect(errorBody(response).message).toBe('bad.csv, row 3, column fresh: 8 is outside the scale 1 to 5.');
  });

  it('working folders are removed after a day', async () => {
    const old = (await uploadData(researcher)).json().folder_name;
    t.clock.set(new Date(Date.now() + 25 * 60 * 60 * 1000));
    try {
      expect((await uploadData(researcher)).statusCode).toBe(200);
      const gone = await download(researcher, old, 'scale_template.csv');
      expect(gone.statusCode).toBe(404);
      expect(errorBody(gone).message).toBe(
        'This working folder does not exist or has expired. Start the wizard again.',
      );
    } finally {
      t.clock.reset();
    }
  });
});

describe('existing studies', () => {
  let main = '';
  beforeAll(async () => {
    const metrics = (
      await t.request({ method: 'GET', url: `/api/study/metrics/${own}`, token: admin })
    ).json();
    main = metrics.metrics.find(
      (metric: { metric_type: string }) => metric.metric_type === 'Performance',
    ).value;
  });
  const query = () => ({
    product_order: 'Unspecified Product Order',
    main_question_column: main,
    test_types: ['two_95', 'two_90'],
    paired: true,
    parametric: false,
    charts: true,
    regression: true,
    replace_product_codes: true,
  });

  it('POST /api/rdf/results/ with study_id: the study answers, product check by study', async () => {
    const codes = await post('/api/rdf/product-code/', researcher, {
      study_id: own,
      product_code: 'product_code',
    });
    expect(codes.statusCode).toBe(200);
    expect(codes.json().product_codes.length).toBeGreaterThan(1);
    const response = await post('/api/rdf/results/', researcher, {
      ...query(),
      study_id: own,
      product_code: 'product_code',
    });
    expect(response.statusCode).toBe(200);
    const results = response.json();
    expect(results.summary.data.some((row: unknown[]) => String(row[0]).startsWith(`${main}:`))).toBe(true);
    expect((await download(researcher, results.study_folder_name, 'summary.xlsx')).statusCode).toBe(200);
    expect(
      (
        await post('/api/rdf/results/', researcher, {
          ...query(),
          study_id: 999999,
          product_code: 'product_code',
        })
      ).statusCode,
    ).toBe(404);
  });

  it('POST /api/statistics/:studyId/: 401, 400, 404 out of scope, results for a visible study', async () => {
    expect((await post(`/api/statistics/${own}/`, undefined, { query: query() })).statusCode).toBe(401);
    const bad = await post(`/api/statistics/${own}/`, client, { query: { ...query(), test_types: [] } });
    expect(bad.statusCode).toBe(400);
    expect(errorBody(bad).message).toContain('The array test_types is empty!');
    expect((await post(`/api/statistics/${foreign}/`, client, { query: query() })).statusCode).toBe(404);
    expect((await post('/api/statistics/999999/', admin, { query: query() })).statusCode).toBe(404);
    const unknown = await post(`/api/statistics/${own}/`, client, {
      query: { ...query(), main_question_column: 'nothing' },
    });
    expect(errorBody(unknown).message).toBe(
      'The main question "nothing" is not a question with a scale in the data.',
    );
    const response = await post(`/api/statistics/${own}/`, client, { query: query() });
    expect(response.statusCode).toBe(200);
    const results = response.json();
    expect(results.legend[0]).toBe(
      'Wilcoxon signed-rank test, two-tailed. Upper case: significantly higher at 95 %; lower case: at 90 %.',
    );
    expect(results.correlation.data.length).toBeGreaterThan(0);
    expect((await post(`/api/statistics/${foreign}/`, admin, { query: query() })).statusCode).toBe(200);
  });

  it('GET /api/statistics/:studyId/products/ and the category filter narrow the products', async () => {
    // Families of the study's fragrances: the first one Woody, the others Floral.
    const fragranceProducts = await t.database.db
      .select({ code: products.code, fragranceId: products.fragranceId })
      .from(products)
      .where(and(eq(products.studyId, own), eq(products.kind, 'fragrance')))
      .orderBy(products.id);
    expect(fragranceProducts.length).toBeGreaterThanOrEqual(3);
    const ids = fragranceProducts.map((product) => product.fragranceId ?? 0);
    await t.database.db.update(fragrances).set({ family: 'Floral' }).where(inArray(fragrances.id, ids));
    await t.database.db.update(fragrances).set({ family: 'Woody' }).where(eq(fragrances.id, ids[0]!));
    const url = `/api/statistics/${own}/products/`;

    expect((await t.request({ method: 'GET', url, token: undefined })).statusCode).toBe(401);
    const badId = await t.request({ method: 'GET', url: '/api/statistics/abc/products/', token: admin });
    expect(badId.statusCode).toBe(400);
    expect(
      (await t.request({ method: 'GET', url: `/api/statistics/${foreign}/products/`, token: client }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.request({ method: 'GET', url: '/api/statistics/999999/products/', token: admin })).statusCode,
    ).toBe(404);
    const listed = await t.request({ method: 'GET', url, token: client });
    expect(listed.statusCode).toBe(200);
    const floral = fragranceProducts.length - 1;
    expect(listed.json().categories).toEqual([
      { value: 'Floral', label: 'Floral', count: floral },
      { value: 'Woody', label: 'Woody', count: 1 },
    ]);
    expect(
      listed
        .json()
        .products.filter((product: { category: string | null }) => product.category === 'Woody')
        .map((product: { code: string }) => product.code),
    ).toEqual([fragranceProducts[0]!.code]);

    const unknown = await post(`/api/statistics/${own}/`, client, {
      query: { ...query(), category: ['Oud'] },
    });
    expect(unknown.statusCode).toBe(400);
    expect(errorBody(unknown).message).toBe('"Oud" is not a category of this study\'s products.');
    const single = await post(`/api/statistics/${own}/`, client, {
      query: { ...query(), category: ['Woody'] },
    });
    expect(single.statusCode).toBe(400);
    expect(errorBody(single).message).toBe(
      'The chosen categories leave 1 product with answers; statistics compare at least two products.',
    );
    const tooMany = await post(`/api/statistics/${own}/`, client, {
      query: { ...query(), category: [''] },
    });
    expect(tooMany.statusCode).toBe(400);

    const all = (await post(`/api/statistics/${own}/`, client, { query: query() })).json();
    const narrowed = await post(`/api/statistics/${own}/`, client, {
      query: { ...query(), category: ['Floral'] },
    });
    expect(narrowed.statusCode).toBe(200);
    const allLabels: string[] = all.charts[0].labels;
    const floralLabels: string[] = narrowed.json().charts[0].labels;
    expect(floralLabels).toHaveLength(floral);
    expect(allLabels.length).toBeGreaterThan(floralLabels.length);
    // The Woody fragrance, the study's first product, is left out; the others are lettered again.
    const named = (labels: string[]) => labels.map((label) => label.replace(/^[A-Z]+: /, ''));
    expect(named(floralLabels)).toEqual(named(allLabels).slice(1));
    // Both categories: every fragrance again.
    const both = await post(`/api/statistics/${own}/`, client, {
      query: { ...query(), category: ['Floral', 'Woody'] },
    });
    expect(both.json().charts[0].labels).toHaveLength(fragranceProducts.length);
  });
});
