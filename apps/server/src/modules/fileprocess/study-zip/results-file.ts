/**
 * The reader of a study's results file (results/<name>.csv): its layout against the scale file, its
 * rows streamed one at a time (`readResults`, shared by the check and the injection), and the check of
 * every value.
 */
import { csvRecords } from '../../../lib/csv-table.ts';
import { type QuestionDraft, type ZipFile } from './model.ts';
import { type Demographic, DEMOGRAPHIC_COLUMNS, RESULTS_KEY_COLUMNS, testDateOf } from './columns.ts';
import type { IssueList } from './issues.ts';

export interface ResultRow {
  /** 1 = the header line. */
  rowNumber: number;
  respondent: string;
  product: string;
  demographics: Partial<Record<Demographic, string>>;
  /** Parsed value per question (same order as the questions), null when empty or unreadable. */
  values: (number | null)[];
}

interface ResultsLayout {
  respondent: number;
  product: number;
  demographics: [Demographic, number][];
  /** Column of each question, -1 when missing. */
  questionColumns: number[];
}

/** Rows of a results file; problems of the layout and of each cell go to `issues` when given. */
export async function* readResults(
  file: ZipFile,
  questions: QuestionDraft[],
  issues?: IssueList,
): AsyncGenerator<ResultRow> {
  let layout: ResultsLayout | null = null;
  let header: string[] = [];
  let rowNumber = 0;
  for await (const row of csvRecords(await file.stream(), file.path)) {
    rowNumber++;
    if (row.length === 0 || row.every((c) => c.trim() === '')) continue;
    if (!layout) {
      header = row.map((h) => h.trim());
      layout = resultsLayout(file, header, questions, issues);
      if (!layout) return;
      continue;
    }
    const cell = (index: number) => (row[index] ?? '').trim();
    const values: (number | null)[] = [];
    for (let q = 0; q < questions.length; q++) {
      const question = questions[q] as QuestionDraft;
      const column = layout.questionColumns[q] as number;
      const text = column >= 0 ? cell(column) : '';
      if (text === '' || question.questionType === 'constant') {
        values.push(null);
        continue;
      }
      const value = Number(text);
      if (!Number.isFinite(value)) {
        issues?.error('Not a number', `"${text}" is not a number.`, {
          file: file.path,
          row: rowNumber,
          column: header[column],
        });
        values.push(null);
        continue;
      }
      const min = question.scaleMin as number;
      const max = question.scaleMax as number;
      if (value < min || value > max) {
        issues?.error(
          'Value outside its scale',
          `${value} lies outside the scale ${min} to ${max} of ${question.qid}.`,
          { file: file.path, row: rowNumber, column: header[column] },
        );
        values.push(null);
        continue;
      }
      values.push(value);
    }
    const demographics: Partial<Record<Demographic, string>> = {};
    for (const [name, column] of layout.demographics) {
      const text = cell(column);
      if (text !== '') demographics[name] = text;
    }
    yield {
      rowNumber,
      respondent: cell(layout.respondent),
      product: cell(layout.product),
      demographics,
      values,
    };
  }
  if (!layout && rowNumber === 0)
    issues?.error('Empty results file', 'The results file is empty.', { file: file.path });
}

function resultsLayout(
  file: ZipFile,
  header: string[],
  questions: QuestionDraft[],
  issues?: IssueList,
): ResultsLayout | null {
  const lower = header.map((h) => h.toLowerCase());
  const respondent = lower.indexOf('respondent_id');
  const product = lower.indexOf('product_code');
  let valid = true;
  for (const [name, index] of [
    ['respondent_id', respondent],
    ['product_code', product],
  ] as const) {
    if (index < 0) {
      issues?.error('Missing column', `The results file has no column ${name}.`, { file: file.path, row: 1 });
      valid = false;
    }
  }
  const described = new Set(questions.map((q) => q.qid));
  const demographics: [Demographic, number][] = [];
  const seen = new Set<string>();
  header.forEach((name, index) => {
    const key = name.toLowerCase();
    if (seen.has(name))
      issues?.error('Duplicate column', `The column ${name} appears twice.`, {
        file: file.path,
        row: 1,
        column: name,
      });
    seen.add(name);
    if ((RESULTS_KEY_COLUMNS as readonly string[]).includes(key)) return;
    if ((DEMOGRAPHIC_COLUMNS as readonly string[]).includes(key)) {
      demographics.push([key as Demographic, index]);
      return;
    }
    if (!described.has(name)) {
      issues?.error('Column not described', `The column ${name} is not described in the scale file.`, {
        file: file.path,
        row: 1,
        column: name,
      });
      valid = false;
    }
  });
  const questionColumns = questions.map((q) => header.indexOf(q.qid));
  questions.forEach((q, i) => {
    if (questionColumns[i] === -1 && q.questionType !== 'constant')
      issues?.warning(
        'Question without answers',
        `The scale file describes ${q.qid}, which the results file lacks.`,
        {
          file: file.path,
          row: 1,
        },
      );
  });
  if (!valid && issues) return null;
  return { respondent, product, demographics, questionColumns };
}

export async function checkResults(
  file: ZipFile,
  questions: QuestionDraft[],
  productCodes: Set<string> | null,
  issues: IssueList,
): Promise<void> {
  const seen = new Set<string>();
  const unknownProducts = new Set<string>();
  let rows = 0;
  for await (const row of readResults(file, questions, issues)) {
    rows++;
    const where = (column: string) => ({ file: file.path, row: row.rowNumber, column });
    if (row.respondent === '')
      issues.error('Empty respondent_id', 'A row has no respondent_id.', where('respondent_id'));
    if (row.product === '') {
      issues.error('Empty product_code', 'A row has no product_code.', where('product_code'));
      continue;
    }
    const key = `${row.respondent}\u0000${row.product}`;
    if (seen.has(key))
      issues.error(
        'Duplicate respondent',
        `Respondent ${row.respondent} rated product ${row.product} twice.`,
        where('respondent_id'),
      );
    seen.add(key);
    if (productCodes && !productCodes.has(row.product) && !unknownProducts.has(row.product)) {
      unknownProducts.add(row.product);
      issues.error(
        'Unknown product code',
        `The product code ${row.product} is not on the Fragrances or Concepts sheet of the request form.`,
        where('product_code'),
      );
    }
    const age = row.demographics.age;
    if (age !== undefined) {
      const value = Number(age);
      if (!Number.isInteger(value) || value < 10 || value > 110)
        issues.warning('Unreadable age', `The age "${age}" is not readable; it is left empty.`, where('age'));
    }
    const testDate = row.demographics.test_date;
    if (testDate !== undefined && testDate.trim() !== '' && testDateOf(testDate) === null)
      issues.warning(
        'Unreadable test_date',
        `The test date "${testDate}" is not a date (yyyy-mm-dd); it is left empty.`,
        where('test_date'),
      );
  }
  if (rows === 0 && seen.size === 0 && issues.issues.every((i) => i.path.file !== file.path))
    issues.error('No respondents', 'The results file has no rows of answers.', { file: file.path });
}
