// The inputs of the statistics generator read into one dataset: the data file (one row per respondent
// and product), the likert scale file (one row per question), the regression file and the product
// names file (docs/statistics.md). Every refusal is a CsvError naming file, row and column.
import type { BinaryOption } from '@accord/contracts';
import { CsvError, type CsvTable } from './csv.ts';

export const QUESTION_TYPES = [
  'numerical',
  'categorical',
  'constant',
  'binary',
  'jar',
  'eeg',
  'implicit',
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
/** Question types the generator computes statistics for (answers on a scale). */
export const SCALED_TYPES: readonly QuestionType[] = ['numerical', 'binary', 'jar'];

/** One question of the scale file. Binary questions may leave their scale to the binary option. */
export interface ScaleQuestion {
  id: string;
  text: string;
  type: QuestionType;
  min: number | null;
  max: number | null;
}

/** A question with its resolved scale. */
export interface QuestionDef {
  id: string;
  text: string;
  type: QuestionType;
  min: number;
  max: number;
}

/** One row of data: who answered, about which product, and the raw answers (NaN: missing) per question. */
export interface DatasetRow {
  respondent: string | null;
  product: string;
  values: number[];
}

/** What the engine computes from: questions (in scale order) and rows aligned with them. */
export interface Dataset {
  name: string;
  questions: QuestionDef[];
  rows: DatasetRow[];
  /** Product codes in order of first appearance. */
  products: string[];
  /** Product code to display name (the names file, or the study's products). */
  productNames: Map<string, string>;
}

/** The regression model of the regression file: drivers and an optional outcome (else the main question). */
export interface RegressionSpec {
  drivers: string[];
  outcome: string | null;
  /** Questions left out of the default drivers as measures of the outcome itself (said in the table). */
  leftOut?: string[];
}

/**
 * Measures of the outcome itself (purchase intention, recommendation, liking at any stage, overall
 * satisfaction): a study's default drivers leave them out (METRICS.md section 3), as they would explain
 * the main question by itself.
 */
const OUTCOME_MEASURE = /purchase|intent|buy|recommend|satisf|liking|\blike\b|overall/i;

export function isOutcomeMeasure(question: QuestionDef): boolean {
  return OUTCOME_MEASURE.test(question.id) || OUTCOME_MEASURE.test(question.text);
}

export const RESPONDENT_COLUMN = 'respondent_id';
export const SCALE_COLUMNS = ['question_id', 'text', 'type', 'scale_min', 'scale_max'] as const;
export const REGRESSION_COLUMNS = ['question_id', 'role'] as const;
export const NAMES_COLUMNS = ['product_code', 'product_name'] as const;

function requireColumns(table: CsvTable, columns: readonly string[]): Map<string, number> {
  const positions = new Map<string, number>();
  for (const column of columns) {
    const index = table.headers.indexOf(column);
    if (index < 0)
      throw new CsvError(
        `${table.file}, row 1: the column "${column}" is missing (expected ${columns.join(', ')}).`,
        table.file,
        1,
        column,
      );
    positions.set(column, index);
  }
  return positions;
}

function cell(table: CsvTable, rowIndex: number, column: number): string {
  return table.rows[rowIndex]?.[column] ?? '';
}

/** A number as written in a csv cell: decimal point, optional sign and exponent; '' is missing. */
export function parseNumber(text: string): number | null {
  if (text === '') return Number.NaN;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return null;
  return Number(text);
}

function numberAt(table: CsvTable, rowIndex: number, column: number, name: string): number {
  const text = cell(table, rowIndex, column);
  const value = parseNumber(text);
  const row = table.rowNumbers[rowIndex] ?? rowIndex + 2;
  if (value === null)
    throw new CsvError(
      `${table.file}, row ${row}, column ${name}: "${text}" is not a number.`,
      table.file,
      row,
      name,
    );
  return value;
}

/** Reads the likert scale file (scale_template.csv layout). */
export function readScale(table: CsvTable): ScaleQuestion[] {
  const columns = requireColumns(table, SCALE_COLUMNS);
  const at = (name: (typeof SCALE_COLUMNS)[number]): number => columns.get(name) ?? -1;
  const seen = new Set<string>();
  return table.rows.map((_, index) => {
    const row = table.rowNumbers[index] ?? index + 2;
    const id = cell(table, index, at('question_id'));
    if (id === '')
      throw new CsvError(
        `${table.file}, row ${row}, column question_id: the question id is empty.`,
        table.file,
        row,
        'question_id',
      );
    if (seen.has(id))
      throw new CsvError(
        `${table.file}, row ${row}, column question_id: "${id}" appears twice.`,
        table.file,
        row,
        'question_id',
      );
    seen.add(id);
    const typeText = cell(table, index, at('type')).toLowerCase();
    const type = QUESTION_TYPES.find((known) => known === typeText);
    if (!type)
      throw new CsvError(
        `${table.file}, row ${row}, column type: "${typeText}" is not a question type (${QUESTION_TYPES.join(', ')}).`,
        table.file,
        row,
        'type',
      );
    const min = numberAt(table, index, at('scale_min'), 'scale_min');
    const max = numberAt(table, index, at('scale_max'), 'scale_max');
    const scaled = type === 'numerical' || type === 'jar';
    if (scaled && (Number.isNaN(min) || Number.isNaN(max)))
      throw new CsvError(
        `${table.file}, row ${row}, column ${Number.isNaN(min) ? 'scale_min' : 'scale_max'}: a ${type} question needs scale_min and scale_max.`,
        table.file,
        row,
        Number.isNaN(min) ? 'scale_min' : 'scale_max',
      );
    if (!Number.isNaN(min) && !Number.isNaN(max) && !(max > min))
      throw new CsvError(
        `${table.file}, row ${row}, column scale_max: scale_max (${max}) must be greater than scale_min (${min}).`,
        table.file,
        row,
        'scale_max',
      );
    return {
      id,
      text: cell(table, index, at('text')) || id,
      type,
      min: Number.isNaN(min) ? null : min,
      max: Number.isNaN(max) ? null : max,
    };
  });
}

const BINARY_SCALES: Record<BinaryOption, [number, number] | null> = {
  'No binary questions': null,
  '0 and 1': [0, 1],
  '1 and 2': [1, 2],
};

/** The scale of each scaled question; binary questions take the binary option's scale when one is chosen. */
export function resolveScales(
  scale: readonly ScaleQuestion[],
  binaryOption: BinaryOption,
  file: string,
): QuestionDef[] {
  const binary = BINARY_SCALES[binaryOption];
  return scale
    .filter((question) => SCALED_TYPES.includes(question.type))
    .map((question) => {
      const [min, max] = question.type === 'binary' && binary ? binary : [question.min, question.max];
      if (min === null || max === null)
        throw new CsvError(
          `${file}: the binary question "${question.id}" has no scale; give scale_min and scale_max or choose the binary scale (0 and 1, or 1 and 2).`,
          file,
          undefined,
          question.id,
        );
      return { id: question.id, text: question.text, type: question.type, min, max };
    });
}

/** Columns that may hold the product codes: those named like a product code first, then the others. */
export function productCodeColumns(table: CsvTable): string[] {
  return [
    ...table.headers.filter(looksLikeProductCode),
    ...table.headers.filter((name) => !looksLikeProductCode(name)),
  ];
}

function looksLikeProductCode(name: string): boolean {
  return /product|code|sample/i.test(name);
}

/**
 * Distinct product codes of a column, in order of first appearance.
 * @throws CsvError when the column is missing or a row has no code.
 */
export function productCodesOf(table: CsvTable, column: string): string[] {
  const index = table.headers.indexOf(column);
  if (index < 0) throw new CsvError(`${table.file}: there is no column "${column}".`, table.file, 1, column);
  const codes: string[] = [];
  const seen = new Set<string>();
  table.rows.forEach((_, rowIndex) => {
    const code = cell(table, rowIndex, index);
    const row = table.rowNumbers[rowIndex] ?? rowIndex + 2;
    if (code === '')
      throw new CsvError(
        `${table.file}, row ${row}, column ${column}: the product code is empty.`,
        table.file,
        row,
        column,
      );
    if (!seen.has(code)) {
      seen.add(code);
      codes.push(code);
    }
  });
  return codes;
}

/**
 * The data file's own content, checked when it is uploaded (before any scale is known): a column that
 * holds numbers holds only numbers or empty cells, since answers are numbers and a stray word (n/a, a
 * decimal comma) would otherwise surface only when the results are computed. Columns named like
 * product codes and the `skip` columns (respondent, demographics) may mix numbers and text.
 * @throws CsvError naming the first such cell.
 */
export function checkNumericColumns(table: CsvTable, skip: ReadonlySet<string>): void {
  table.headers.forEach((name, column) => {
    if (skip.has(name) || looksLikeProductCode(name)) return;
    const numeric = table.rows.some((_, rowIndex) => {
      const value = parseNumber(cell(table, rowIndex, column));
      return value !== null && !Number.isNaN(value);
    });
    if (numeric) table.rows.forEach((_, rowIndex) => numberAt(table, rowIndex, column, name));
  });
}

/**
 * The answers of the scale's questions, checked when the scale is uploaded: each a number (or empty)
 * within its question's scale. Binary questions are checked for numbers only: their scale may still be
 * chosen on a later step.
 * @throws CsvError naming the first cell that is not.
 */
export function checkAnswers(table: CsvTable, scale: readonly ScaleQuestion[]): void {
  for (const question of scale) {
    const column = table.headers.indexOf(question.id);
    if (column < 0 || !SCALED_TYPES.includes(question.type)) continue;
    const ranged = question.type !== 'binary' && question.min !== null && question.max !== null;
    table.rows.forEach((_, rowIndex) => {
      const value = numberAt(table, rowIndex, column, question.id);
      if (ranged && !Number.isNaN(value) && (value < question.min! || value > question.max!)) {
        const row = table.rowNumbers[rowIndex] ?? rowIndex + 2;
        throw new CsvError(
          `${table.file}, row ${row}, column ${question.id}: ${value} is outside the scale ${question.min} to ${question.max}.`,
          table.file,
          row,
          question.id,
        );
      }
    });
  }
}

/**
 * Reads the data file against the scale: the product code column, the respondent column when there
 * is one, and one numeric answer per scaled question (empty = missing, otherwise within the scale).
 */
export function readData(
  table: CsvTable,
  questions: readonly QuestionDef[],
  productColumn: string,
  scaleFile: string,
): { rows: DatasetRow[]; products: string[] } {
  const products = productCodesOf(table, productColumn);
  const productIndex = table.headers.indexOf(productColumn);
  const respondentIndex = table.headers.indexOf(RESPONDENT_COLUMN);
  const columns = questions.map((question) => {
    const index = table.headers.indexOf(question.id);
    if (index < 0)
      throw new CsvError(
        `${table.file}: the question "${question.id}" of ${scaleFile} is not a column of the data file.`,
        table.file,
        1,
        question.id,
      );
    return index;
  });
  const rows = table.rows.map((_, rowIndex) => {
    const row = table.rowNumbers[rowIndex] ?? rowIndex + 2;
    const values = questions.map((question, q) => {
      const value = numberAt(table, rowIndex, columns[q] ?? -1, question.id);
      if (!Number.isNaN(value) && (value < question.min || value > question.max))
        throw new CsvError(
          `${table.file}, row ${row}, column ${question.id}: ${value} is outside the scale ${question.min} to ${question.max}.`,
          table.file,
          row,
          question.id,
        );
      return value;
    });
    const respondent = respondentIndex >= 0 ? cell(table, rowIndex, respondentIndex) || null : null;
    return { respondent, product: cell(table, rowIndex, productIndex), values };
  });
  return { rows, products };
}

/** Reads the regression file (reg_template.csv): question_id, role (driver | outcome). */
export function readRegression(table: CsvTable, knownQuestions: ReadonlySet<string>): RegressionSpec {
  const columns = requireColumns(table, REGRESSION_COLUMNS);
  const drivers: string[] = [];
  let outcome: string | null = null;
  table.rows.forEach((_, index) => {
    const row = table.rowNumbers[index] ?? index + 2;
    const id = cell(table, index, columns.get('question_id') ?? -1);
    const role = cell(table, index, columns.get('role') ?? -1).toLowerCase();
    if (!knownQuestions.has(id))
      throw new CsvError(
        `${table.file}, row ${row}, column question_id: "${id}" is not a question of the scale file.`,
        table.file,
        row,
        'question_id',
      );
    if (role === 'driver') {
      if (!drivers.includes(id)) drivers.push(id);
    } else if (role === 'outcome') {
      if (outcome !== null && outcome !== id)
        throw new CsvError(
          `${table.file}, row ${row}, column role: only one question can be the outcome.`,
          table.file,
          row,
          'role',
        );
      outcome = id;
    } else
      throw new CsvError(
        `${table.file}, row ${row}, column role: "${role}" is not driver or outcome.`,
        table.file,
        row,
        'role',
      );
  });
  if (drivers.length === 0)
    throw new CsvError(`${table.file}: name at least one driver question.`, table.file);
  return { drivers, outcome };
}

/** Reads the product names file (prod_template.csv): product_code, product_name. */
export function readProductNames(table: CsvTable): Map<string, string> {
  const columns = requireColumns(table, NAMES_COLUMNS);
  const names = new Map<string, string>();
  table.rows.forEach((_, index) => {
    const row = table.rowNumbers[index] ?? index + 2;
    const code = cell(table, index, columns.get('product_code') ?? -1);
    const name = cell(table, index, columns.get('product_name') ?? -1);
    if (code === '')
      throw new CsvError(
        `${table.file}, row ${row}, column product_code: the product code is empty.`,
        table.file,
        row,
        'product_code',
      );
    if (name === '')
      throw new CsvError(
        `${table.file}, row ${row}, column product_name: the product name is empty.`,
        table.file,
        row,
        'product_name',
      );
    if (names.has(code))
      throw new CsvError(
        `${table.file}, row ${row}, column product_code: "${code}" appears twice.`,
        table.file,
        row,
        'product_code',
      );
    names.set(code, name);
  });
  return names;
}

/** The dataset of an upload: data and scale tables read together (product names optional). */
export function buildDataset(input: {
  name: string;
  data: CsvTable;
  scale: CsvTable;
  productColumn: string;
  binaryOption: BinaryOption;
  productNames?: Map<string, string>;
}): Dataset {
  const questions = resolveScales(readScale(input.scale), input.binaryOption, input.scale.file);
  const { rows, products } = readData(input.data, questions, input.productColumn, input.scale.file);
  return { name: input.name, questions, rows, products, productNames: input.productNames ?? new Map() };
}
