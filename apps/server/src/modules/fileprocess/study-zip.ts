/**
 * The study zip format (docs/data-formats.md): reading and checking the studies of an unpacked zip.
 *
 * One folder per study (named by its CMI number) holding request_form.xlsx, results/<name>.csv with
 * results/<name>.scale.csv, and documents in report/, questionnaire/, protocol/ and screener/.
 * `validateStudies` reads every study and answers what it found plus every problem, each attached to
 * the file or folder it concerns with level, high_msg, msg and a path (file, sheet, row, column).
 * Errors block injection; warnings do not. Results files are streamed row by row: the validator and
 * the injection (`readResults`) never hold a whole file.
 */
import { Readable } from 'node:stream';
import {
  APAC_SUBREGIONS,
  STUDIES_UPLOAD_MESSAGES,
  STUDIES_ZIP_MAX_ENTRIES,
  UPLOAD_TABLE_LIMITS,
  STUDY_DOCUMENT_EXTENSIONS,
  STUDY_DOCUMENT_FOLDERS,
  STUDY_UPLOAD_MAX_BYTES,
  type FileIssue,
  type FileIssuePath,
} from '@accord/contracts';
import ExcelJS from 'exceljs';
import { csvRecords, CsvReadError, TableLimitError } from '../../lib/csv-table.ts';
import { hasBlockingErrors, validateStudyFile } from '../study/file-validation.ts';
import { bufferSource, openEntry, readZipDirectory } from './zip-reader.ts';

export const REQUEST_FORM = 'request_form.xlsx';
export const RESULTS_FOLDER = 'results';
export const SCALE_SUFFIX = '.scale.csv';
/** Problems listed per file before the rest are summed up in one line. */
export const MAX_ISSUES_PER_FILE = 50;
export const FIRST_STUDY_YEAR = 1990;

/** A file of the unpacked zip. */
export interface ZipFile {
  /** Slash-separated path inside the zip. */
  path: string;
  size: number;
  read(): Promise<Buffer>;
  stream(): Promise<Readable>;
}

/** Whether the study of this CMI number is to replace the library's. */
export function replacing(options: ValidationOptions, cmi: string): boolean {
  if (options.replaceExisting) return true;
  const wanted = cmi.toLowerCase();
  return (options.replaceCmis ?? []).some((c) => c.toLowerCase() === wanted);
}

export interface ReferenceData {
  /** Known values by their lower-case spelling, each to its canonical spelling. */
  clients: Map<string, string>;
  regions: Map<string, string>;
  countries: Map<string, string>;
  categories: Map<string, string>;
  metrics: Map<string, { id: number; kind: string }>;
  /** CMI numbers already in the library (lower case). */
  existingCmis: Set<string>;
  /** The last year a study may have (the current year). */
  lastYear: number;
}

export interface ValidationOptions {
  /** Studies already in the library are replaced instead of refused. */
  replaceExisting: boolean;
  /** These studies (CMI numbers, any case) are replaced when already in the library. */
  replaceCmis?: readonly string[];
  /** What the upload form said of the studies: a study that says otherwise is flagged. */
  form?: UploadFormValues;
}

/** The client, region and year chosen on the upload form. */
export interface UploadFormValues {
  client: string;
  region: string;
  year: number;
}

/** The region of the form covers a study's regions when it is one of them (APAC: any of its sub-regions). */
function regionMatches(formRegion: string, studyRegions: readonly string[]): boolean {
  const wanted = formRegion.toLowerCase();
  const covered = wanted === 'apac' ? ['apac', ...APAC_SUBREGIONS.map((r) => r.toLowerCase())] : [wanted];
  return studyRegions.some((region) => covered.includes(region.toLowerCase()));
}

type QuestionType = 'numerical' | 'categorical' | 'constant' | 'binary' | 'jar' | 'eeg' | 'implicit';
export const QUESTION_TYPES: readonly QuestionType[] = [
  'numerical',
  'categorical',
  'constant',
  'binary',
  'jar',
  'eeg',
  'implicit',
];

export interface QuestionDraft {
  qid: string;
  text: string;
  questionType: QuestionType;
  scaleMin: number | null;
  scaleMax: number | null;
  labels: { name: string; value: number }[];
  constantValue: string | null;
  /** Metric named by the scale file (null: none or unknown). */
  metricId: number | null;
}

export interface ResultsDraft {
  /** Path of the results file inside the zip. */
  path: string;
  name: string;
  scalePath: string;
  questions: QuestionDraft[];
}

export interface StudyMetadataDraft {
  projectName: string;
  client: string;
  cMiNumber: string;
  paceNumber: string | null;
  productArea: string[];
  division: string | null;
  category: string | null;
  productType: string | null;
  region: string[];
  leadCountry: string | null;
  country: string[];
  methodology: string | null;
  panelProfile: string | null;
  designMethod: string | null;
  researchType: string[];
  cmiToolType: string[];
  evaluation: string[];
  gender: string[];
  age: string | null;
  socialClass: string[];
  studySampleSize: number | null;
  numberOfProducts: number | null;
  base: string | null;
  objectiveAndActionStandards: string | null;
  year: number;
  rdfType: 'rdf' | 'eeg' | 'irt';
  isGenisys: boolean;
}

export interface FragranceDraft {
  name: string;
  fragranceCode: string;
  refNumber: string | null;
  code: string | null;
  methodology: string | null;
  perfumerName: string | null;
  region: string | null;
  country: string | null;
  family: string | null;
  subfamily: string | null;
  specifier: string | null;
  level: number | null;
  supplementalInfo: string | null;
  dominantNotes: (string | null)[];
  creative: boolean;
}

export interface ConceptDraft {
  name: string;
  conceptCode: string;
  region: string | null;
  country: string | null;
  theme: string | null;
  ingredient1: string | null;
  ingredient2: string | null;
}

export interface DocumentDraft {
  path: string;
  folder: (typeof STUDY_DOCUMENT_FOLDERS)[number];
  name: string;
  extension: string;
}

export interface StudyDraft {
  /** The study's folder in the zip. */
  folder: string;
  metadata: StudyMetadataDraft | null;
  fragrances: FragranceDraft[];
  concepts: ConceptDraft[];
  results: ResultsDraft[];
  documents: DocumentDraft[];
}

export interface ValidationResult {
  studies: StudyDraft[];
  issues: FileIssue[];
}

// ---------------------------------------------------------------- request form fields

type FieldKind = 'text' | 'list' | 'int' | 'bool';
interface FormField {
  field: string;
  key: keyof StudyMetadataDraft;
  kind: FieldKind;
  required?: boolean;
}

/** Rows of the Study sheet (field | value). Lists are separated by semicolons. */
export const STUDY_FORM_FIELDS: readonly FormField[] = [
  { field: 'project_name', key: 'projectName', kind: 'text', required: true },
  { field: 'client', key: 'client', kind: 'text', required: true },
  { field: 'c_mi_number', key: 'cMiNumber', kind: 'text', required: true },
  { field: 'pace_number', key: 'paceNumber', kind: 'text' },
  { field: 'business_unit', key: 'productArea', kind: 'list' },
  { field: 'division', key: 'division', kind: 'text' },
  { field: 'category', key: 'category', kind: 'text', required: true },
  { field: 'product_type', key: 'productType', kind: 'text' },
  { field: 'region', key: 'region', kind: 'list', required: true },
  { field: 'lead_country', key: 'leadCountry', kind: 'text' },
  { field: 'country', key: 'country', kind: 'list', required: true },
  { field: 'methodology', key: 'methodology', kind: 'text' },
  { field: 'panel_profile', key: 'panelProfile', kind: 'text' },
  { field: 'design_method', key: 'designMethod', kind: 'text' },
  { field: 'research_type', key: 'researchType', kind: 'list' },
  { field: 'cmi_tool_type', key: 'cmiToolType', kind: 'list' },
  { field: 'evaluation', key: 'evaluation', kind: 'list' },
  { field: 'gender', key: 'gender', kind: 'list' },
  { field: 'age', key: 'age', kind: 'text' },
  { field: 'social_class', key: 'socialClass', kind: 'list' },
  { field: 'study_sample_size', key: 'studySampleSize', kind: 'int' },
  { field: 'number_of_products', key: 'numberOfProducts', kind: 'int' },
  { field: 'base', key: 'base', kind: 'text' },
  { field: 'objective_and_action_standards', key: 'objectiveAndActionStandards', kind: 'text' },
  { field: 'year', key: 'year', kind: 'int', required: true },
  { field: 'rdf_type', key: 'rdfType', kind: 'text' },
  { field: 'is_genisys', key: 'isGenisys', kind: 'bool' },
];

export const FRAGRANCE_COLUMNS = [
  'name',
  'fragrance_code',
  'ref_number',
  'code',
  'methodology',
  'perfumer_name',
  'region',
  'country',
  'family',
  'subfamily',
  'specifier',
  'level',
  'supplemental_info',
  'dominant_note_1',
  'dominant_note_2',
  'dominant_note_3',
  'dominant_note_4',
  'dominant_note_5',
  'creative',
] as const;

export const CONCEPT_COLUMNS = [
  'name',
  'concept_code',
  'region',
  'country',
  'theme',
  'ingredient_1',
  'ingredient_2',
] as const;

export const SCALE_COLUMNS = [
  'question_id',
  'text',
  'type',
  'scale_min',
  'scale_max',
  'labels',
  'metric',
] as const;
/** Columns of a results file that are not questions. */
export const RESULTS_KEY_COLUMNS = ['respondent_id', 'product_code'] as const;
/**
 * Columns about the respondent rather than the product: the demographics, and test_date, the day of
 * the test session (read by testDateOf) that the profile's time series is drawn by.
 */
export const DEMOGRAPHIC_COLUMNS = [
  'gender',
  'age',
  'ethnicity',
  'social_class',
  'country',
  'bumo',
  'test_date',
] as const;

/**
 * The day of a test_date cell as yyyy-mm-dd: an ISO date, or an ISO date and time (the time is
 * dropped); null for an empty cell or anything else (such as 31 February).
 */
export function testDateOf(text: string | undefined): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]\S.*)?$/.exec(text?.trim() ?? '');
  if (!match) return null;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
    ? date.toISOString().slice(0, 10)
    : null;
}
type Demographic = (typeof DEMOGRAPHIC_COLUMNS)[number];

// ---------------------------------------------------------------- issues

class IssueList {
  readonly issues: FileIssue[] = [];
  private readonly perFile = new Map<string, number>();

  add(level: FileIssue['level'], high_msg: string, msg: string, path: FileIssuePath): void {
    const count = (this.perFile.get(path.file) ?? 0) + 1;
    this.perFile.set(path.file, count);
    if (count <= MAX_ISSUES_PER_FILE) this.issues.push({ level, high_msg, msg, path });
  }
  error(high_msg: string, msg: string, path: FileIssuePath): void {
    this.add('error', high_msg, msg, path);
  }
  warning(high_msg: string, msg: string, path: FileIssuePath): void {
    this.add('warning', high_msg, msg, path);
  }
  /** One closing line per file whose problems went beyond the listed ones. */
  finish(): FileIssue[] {
    for (const [file, count] of this.perFile) {
      if (count > MAX_ISSUES_PER_FILE) {
        this.issues.push({
          level: 'error',
          high_msg: 'More problems',
          msg: `${count - MAX_ISSUES_PER_FILE} more problems in this file are not listed; fix the ones above and upload it again.`,
          path: { file },
        });
      }
    }
    return this.issues;
  }
}

const hasErrorsIn = (issues: FileIssue[], prefix: string) =>
  issues.some((i) => i.level === 'error' && (i.path.file === prefix || i.path.file.startsWith(`${prefix}/`)));

/** Whether any error blocks the injection of a study folder. */
export function studyHasErrors(issues: FileIssue[], folder: string): boolean {
  return hasErrorsIn(issues, folder);
}

// ---------------------------------------------------------------- cells

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value)
      return value.richText
        .map((r) => r.text)
        .join('')
        .trim();
    if ('text' in value) return String(value.text).trim();
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    return '';
  }
  return String(value).trim();
}

const splitList = (text: string) =>
  text
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '');

const orNull = (text: string) => (text === '' ? null : text);

function parseBool(text: string): boolean | null {
  const lower = text.toLowerCase();
  if (['yes', 'true', '1', 'y'].includes(lower)) return true;
  if (['no', 'false', '0', 'n'].includes(lower)) return false;
  return null;
}

function parseNumber(text: string): number | null {
  if (text.trim() === '') return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/** Column letters of a 0-based index (A, B, ... Z, AA ...). */
export function columnLetter(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

// ---------------------------------------------------------------- request form

interface SheetRow {
  rowNumber: number;
  cells: string[];
}

interface SheetTable {
  header: string[];
  rows: SheetRow[];
}

/** Largest request form read (bytes); a form is a few sheets of tens of rows. */
export const REQUEST_FORM_MAX_BYTES = 32 * 1024 * 1024;
/** What the sheets of a request form may unpack to (the workbook is itself a zip). */
const REQUEST_FORM_MAX_UNPACKED = 256 * 1024 * 1024;
const FORM_SHEETS = ['study', 'fragrances', 'concepts'];

function readSheet(rows: SheetRow[]): SheetTable {
  const [head, ...body] = rows;
  return { header: (head?.cells ?? []).map((h) => h.toLowerCase()), rows: body };
}

/**
 * The rows of the request form's sheets Study, Fragrances and Concepts (by lower-case name), read as a
 * stream: no workbook model is built, and a sheet beyond the request form's limits (rows, columns,
 * cells) stops the read with a TableLimitError naming the file.
 */
async function readFormSheets(file: ZipFile): Promise<Map<string, SheetRow[]>> {
  // The workbook is a zip of its own: it is read with the same checks and byte budget as the upload.
  const source = bufferSource(await file.read());
  const entries = new Map(
    (
      await readZipDirectory(source, {
        maxEntries: STUDIES_ZIP_MAX_ENTRIES,
        maxUnpackedBytes: REQUEST_FORM_MAX_UNPACKED,
      })
    )
      .filter((entry) => !entry.directory)
      .map((entry) => [entry.name, entry]),
  );
  const budget = { remaining: REQUEST_FORM_MAX_UNPACKED };
  const part = async (name: string) => {
    const entry = entries.get(name);
    return entry ? openEntry(source, entry, budget) : null;
  };
  // exceljs's stream reader defers sheets stored before the workbook's own parts into temporary
  // files and then loses the last of them now and then; the parts are handed to it in order instead.
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([]), {
    sharedStrings: 'cache',
    worksheets: 'emit',
    styles: 'ignore',
    hyperlinks: 'ignore',
  }) as unknown as WorkbookPartsReader;
  const rels = await part('xl/_rels/workbook.xml.rels');
  if (rels) await reader._parseRels(rels);
  const workbook = await part('xl/workbook.xml');
  if (!workbook) throw new Error('no xl/workbook.xml');
  await reader._parseWorkbook(workbook);
  const shared = await part('xl/sharedStrings.xml');
  reader.sharedStrings = [];
  if (shared) for await (const _ of reader._parseSharedStrings(shared));
  const sheetNumbers = [...entries.keys()]
    .map((name) => /^xl\/worksheets\/sheet(\d+)\.xml$/.exec(name)?.[1])
    .filter((n): n is string => n !== undefined)
    .sort((a, b) => Number(a) - Number(b));

  const sheets = new Map<string, SheetRow[]>();
  const maxRows = UPLOAD_TABLE_LIMITS.requestFormRows;
  let cells = 0;
  for (const number of sheetNumbers) {
    const content = (await part(`xl/worksheets/sheet${number}.xml`)) as Readable;
    for (const event of reader._parseWorksheet(content, number)) {
      const worksheet = event.value;
      const name = (worksheet.name ?? '').trim().toLowerCase();
      const keep = FORM_SHEETS.includes(name) && !sheets.has(name);
      if (!keep) {
        content.destroy();
        continue;
      }
      const rows: SheetRow[] = [];
      for await (const row of worksheet) {
        if (row.number > maxRows + 1) throw new TableLimitError(file.path, 'rows', maxRows);
        const values = row.values as ExcelJS.CellValue[];
        if (values.length - 1 > UPLOAD_TABLE_LIMITS.columns)
          throw new TableLimitError(file.path, 'columns', UPLOAD_TABLE_LIMITS.columns);
        cells += values.length;
        if (cells > UPLOAD_TABLE_LIMITS.cells)
          throw new TableLimitError(file.path, 'cells', UPLOAD_TABLE_LIMITS.cells);
        const texts: string[] = [];
        for (let c = 1; c < values.length; c++) texts.push(cellText(values[c] ?? null));
        if (texts.every((text) => text === '')) continue;
        rows.push({ rowNumber: row.number, cells: texts });
      }
      sheets.set(name, rows);
    }
  }
  return sheets;
}

/** The parts of exceljs's stream reader that read a workbook part by part (exceljs 4.4). */
interface WorkbookPartsReader {
  sharedStrings: unknown[];
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncIterable<unknown>;
  _parseWorksheet(
    content: Readable,
    sheetNo: string,
  ): Iterable<{ eventType: string; value: AsyncIterable<ExcelJS.Row> & { name?: string } }>;
}

async function readRequestForm(
  file: ZipFile,
  folder: string,
  ref: ReferenceData,
  options: ValidationOptions,
  issues: IssueList,
): Promise<Pick<StudyDraft, 'metadata' | 'fragrances' | 'concepts'>> {
  const empty = { metadata: null, fragrances: [], concepts: [] };
  const at = (sheet?: string, row?: number, column?: string): FileIssuePath => ({
    file: file.path,
    ...(sheet ? { sheet } : {}),
    ...(row !== undefined ? { row } : {}),
    ...(column ? { column } : {}),
  });
  if (file.size > REQUEST_FORM_MAX_BYTES) {
    issues.error(
      'Request form too large',
      `The request form is larger than ${REQUEST_FORM_MAX_BYTES / 1024 / 1024} MB; a request form holds a few sheets of tens of rows.`,
      at(),
    );
    return empty;
  }
  let sheets: Map<string, SheetRow[]>;
  try {
    sheets = await readFormSheets(file);
  } catch (error) {
    if (error instanceof TableLimitError) {
      issues.error('Request form too large', error.message, at());
      return empty;
    }
    issues.error(
      'Unreadable request form',
      'The request form is not a readable Excel (.xlsx) workbook.',
      at(),
    );
    return empty;
  }

  // Study sheet: field | value.
  const studySheet = sheets.get('study');
  if (!studySheet) {
    issues.error('Missing sheet', 'The request form has no sheet named Study.', at());
    return empty;
  }
  const values = new Map<string, { value: string; row: number }>();
  for (const row of studySheet) {
    const field = (row.cells[0] ?? '').toLowerCase();
    if (field === '' || field === 'field') continue;
    values.set(field, { value: row.cells[1] ?? '', row: row.rowNumber });
  }
  const draft: Record<string, unknown> = {};
  let valid = true;
  for (const field of STUDY_FORM_FIELDS) {
    const entry = values.get(field.field);
    const text = entry?.value ?? '';
    const where = at('Study', entry?.row, entry ? 'B' : undefined);
    if (field.required && text === '') {
      issues.error(`Empty ${field.field}`, `The request form has no value for ${field.field}.`, where);
      valid = false;
      continue;
    }
    if (field.kind === 'text') draft[field.key] = orNull(text);
    else if (field.kind === 'list') draft[field.key] = splitList(text);
    else if (field.kind === 'int') {
      const number = parseNumber(text);
      if (text !== '' && (number === null || !Number.isInteger(number))) {
        issues.error('Not a whole number', `${field.field} must be a whole number, not "${text}".`, where);
        valid = false;
      }
      draft[field.key] = number;
    } else {
      const flag = text === '' ? false : parseBool(text);
      if (flag === null) {
        issues.error('Not yes or no', `${field.field} must be yes or no, not "${text}".`, where);
        valid = false;
      }
      draft[field.key] = flag ?? false;
    }
  }
  const rowOf = (field: string) => values.get(field)?.row;
  const whereOf = (field: string) => at('Study', rowOf(field), 'B');
  const known = (field: string, list: Map<string, string>, value: string, what: string): string => {
    const canonical = list.get(value.toLowerCase());
    if (canonical === undefined) {
      issues.error(`Unknown ${what}`, `"${value}" is not a known ${what}.`, whereOf(field));
      valid = false;
      return value;
    }
    return canonical;
  };
  if (typeof draft.client === 'string') draft.client = known('client', ref.clients, draft.client, 'client');
  if (typeof draft.category === 'string')
    draft.category = known('category', ref.categories, draft.category, 'category');
  draft.region = (draft.region as string[]).map((r) => known('region', ref.regions, r, 'region'));
  draft.country = (draft.country as string[]).map((c) => known('country', ref.countries, c, 'country'));
  if (typeof draft.leadCountry === 'string')
    draft.leadCountry = known('lead_country', ref.countries, draft.leadCountry, 'country');
  const rdfType = (draft.rdfType as string | null) ?? 'rdf';
  if (!['rdf', 'eeg', 'irt'].includes(rdfType)) {
    issues.error(
      'Unknown rdf_type',
      `rdf_type must be rdf, eeg or irt, not "${rdfType}".`,
      whereOf('rdf_type'),
    );
    valid = false;
  }
  draft.rdfType = ['rdf', 'eeg', 'irt'].includes(rdfType) ? rdfType : 'rdf';
  const year = draft.year as number | null;
  if (typeof year === 'number' && (year < FIRST_STUDY_YEAR || year > ref.lastYear)) {
    issues.error(
      'Year out of range',
      `year must lie between ${FIRST_STUDY_YEAR} and ${ref.lastYear}, not ${year}.`,
      whereOf('year'),
    );
    valid = false;
  }
  // The upload is filed under the form's client, region and year: a study saying otherwise is shown
  // (a warning, since one zip may hold studies of several clients, regions and years).
  if (options.form) {
    const differs = (field: string, study: string, form: string) =>
      issues.warning(
        STUDIES_UPLOAD_MESSAGES.formMismatch,
        `${field} is "${study}" in this study but "${form}" on the upload form.`,
        whereOf(field),
      );
    const { client, region, year: formYear } = options.form;
    if (typeof draft.client === 'string' && draft.client.toLowerCase() !== client.toLowerCase())
      differs('client', draft.client, client);
    const regions = draft.region as string[];
    if (regions.length > 0 && !regionMatches(region, regions)) differs('region', regions.join('; '), region);
    if (typeof year === 'number' && year !== formYear) differs('year', String(year), String(formYear));
  }
  const cmi = draft.cMiNumber as string | null;
  if (cmi) {
    if (cmi !== folder.split('/').pop())
      issues.warning(
        'Folder name differs',
        `The study folder is named "${folder}" but its CMI number is "${cmi}".`,
        whereOf('c_mi_number'),
      );
    if (ref.existingCmis.has(cmi.toLowerCase())) {
      if (options.replaceExisting || replacing(options, cmi))
        issues.warning(
          'Study replaced',
          `Study ${cmi} is already in the library; it will be replaced by this upload.`,
          whereOf('c_mi_number'),
        );
      else {
        issues.error(
          'Study already in the library',
          `Study ${cmi} is already in the library. Process the studies with "replace existing studies" to replace it.`,
          whereOf('c_mi_number'),
        );
        valid = false;
      }
    }
  }

  // Fragrances sheet.
  const fragrances: FragranceDraft[] = [];
  const fragranceSheet = sheets.get('fragrances');
  if (!fragranceSheet) {
    issues.error('Missing sheet', 'The request form has no sheet named Fragrances.', at());
    valid = false;
  } else {
    const table = readSheet(fragranceSheet);
    const col = (name: string) => table.header.indexOf(name);
    for (const required of ['name', 'fragrance_code']) {
      if (col(required) < 0) {
        issues.error(
          'Missing column',
          `The Fragrances sheet has no column ${required}.`,
          at('Fragrances', 1),
        );
        valid = false;
      }
    }
    const codes = new Set<string>();
    for (const row of table.rows) {
      const get = (name: string) => (col(name) >= 0 ? (row.cells[col(name)] ?? '') : '');
      const code = get('fragrance_code');
      const name = get('name');
      if (col('name') >= 0 && name === '') {
        issues.error(
          'Empty name',
          'A fragrance needs a name.',
          at('Fragrances', row.rowNumber, columnLetter(col('name'))),
        );
        valid = false;
      }
      if (col('fragrance_code') < 0) continue;
      if (code === '') {
        issues.error(
          'Empty fragrance_code',
          'A fragrance needs the product code the results file uses.',
          at('Fragrances', row.rowNumber, columnLetter(col('fragrance_code'))),
        );
        valid = false;
        continue;
      }
      if (codes.has(code)) {
        issues.error(
          'Duplicate fragrance_code',
          `The product code ${code} is used by two fragrances.`,
          at('Fragrances', row.rowNumber, columnLetter(col('fragrance_code'))),
        );
        valid = false;
      }
      codes.add(code);
      const levelText = get('level');
      const level = parseNumber(levelText);
      if (levelText !== '' && level === null)
        issues.warning(
          'Unreadable level',
          `The level "${levelText}" is not a number; it is left empty.`,
          at('Fragrances', row.rowNumber, columnLetter(col('level'))),
        );
      const creativeText = get('creative');
      fragrances.push({
        name,
        fragranceCode: code,
        refNumber: orNull(get('ref_number')),
        code: orNull(get('code')),
        methodology: orNull(get('methodology')),
        perfumerName: orNull(get('perfumer_name')),
        region: orNull(get('region')),
        country: orNull(get('country')),
        family: orNull(get('family')),
        subfamily: orNull(get('subfamily')),
        specifier: orNull(get('specifier')),
        level,
        supplementalInfo: orNull(get('supplemental_info')),
        dominantNotes: [1, 2, 3, 4, 5].map((n) => orNull(get(`dominant_note_${n}`))),
        creative: creativeText === '' ? true : (parseBool(creativeText) ?? true),
      });
    }
  }

  // Concepts sheet (optional).
  const concepts: ConceptDraft[] = [];
  const conceptSheet = sheets.get('concepts');
  if (conceptSheet) {
    const table = readSheet(conceptSheet);
    const col = (name: string) => table.header.indexOf(name);
    const codes = new Set<string>();
    for (const row of table.rows) {
      const get = (name: string) => (col(name) >= 0 ? (row.cells[col(name)] ?? '') : '');
      const code = get('concept_code');
      if (code === '' || get('name') === '') {
        issues.error(
          'Incomplete concept',
          'A concept needs a name and a concept_code.',
          at('Concepts', row.rowNumber),
        );
        valid = false;
        continue;
      }
      if (codes.has(code)) {
        issues.error(
          'Duplicate concept_code',
          `The concept code ${code} is used twice.`,
          at('Concepts', row.rowNumber),
        );
        valid = false;
      }
      codes.add(code);
      concepts.push({
        name: get('name'),
        conceptCode: code,
        region: orNull(get('region')),
        country: orNull(get('country')),
        theme: orNull(get('theme')),
        ingredient1: orNull(get('ingredient_1')),
        ingredient2: orNull(get('ingredient_2')),
      });
    }
  }
  const metadata = draft as unknown as StudyMetadataDraft;
  if (metadata.numberOfProducts === null) metadata.numberOfProducts = fragrances.length + concepts.length;
  return { metadata: valid ? metadata : null, fragrances, concepts };
}

// ---------------------------------------------------------------- scale file

async function readScale(
  file: ZipFile,
  ref: ReferenceData,
  issues: IssueList,
): Promise<QuestionDraft[] | null> {
  const questions: QuestionDraft[] = [];
  let header: string[] | null = null;
  let rowNumber = 0;
  let valid = true;
  const seen = new Set<string>();
  for await (const row of csvRecords(await file.stream(), file.path)) {
    rowNumber++;
    if (row.length === 0 || row.every((c) => c.trim() === '')) continue;
    if (!header) {
      header = row.map((h) => h.trim().toLowerCase());
      for (const required of ['question_id', 'text', 'type', 'scale_min', 'scale_max']) {
        if (!header.includes(required)) {
          issues.error('Missing column', `The scale file has no column ${required}.`, {
            file: file.path,
            row: 1,
          });
          return null;
        }
      }
      continue;
    }
    const h = header;
    const get = (name: string) => (h.indexOf(name) >= 0 ? (row[h.indexOf(name)] ?? '').trim() : '');
    const where = (name: string) => ({ file: file.path, row: rowNumber, column: name });
    const qid = get('question_id');
    if (qid === '') {
      issues.error(
        'Empty question_id',
        'A question of the scale file has no question_id.',
        where('question_id'),
      );
      valid = false;
      continue;
    }
    if (seen.has(qid)) {
      issues.error('Duplicate question', `The question ${qid} is described twice.`, where('question_id'));
      valid = false;
      continue;
    }
    seen.add(qid);
    const type = get('type').toLowerCase() as QuestionType;
    if (!QUESTION_TYPES.includes(type)) {
      issues.error(
        'Unknown question type',
        `The type of ${qid} must be one of ${QUESTION_TYPES.join(', ')}, not "${get('type')}".`,
        where('type'),
      );
      valid = false;
      continue;
    }
    const min = parseNumber(get('scale_min'));
    const max = parseNumber(get('scale_max'));
    if (type !== 'constant' && (min === null || max === null || !(max > min))) {
      issues.error(
        'Invalid scale',
        `The scale of ${qid} needs numbers scale_min < scale_max (found "${get('scale_min')}" and "${get('scale_max')}").`,
        where('scale_min'),
      );
      valid = false;
      continue;
    }
    const labels: { name: string; value: number }[] = [];
    for (const part of get('labels').split(';')) {
      const match = /^\s*(-?[\d.]+)\s*=\s*(.+?)\s*$/.exec(part);
      if (match) labels.push({ value: Number(match[1]), name: match[2] as string });
    }
    const metricName = get('metric');
    let metricId: number | null = null;
    if (metricName !== '') {
      const metric = ref.metrics.get(metricName.toLowerCase());
      if (!metric)
        issues.warning(
          'Unknown metric',
          `The metric "${metricName}" of ${qid} is not in the catalogue; a metric will be suggested instead.`,
          where('metric'),
        );
      else metricId = metric.id;
    }
    questions.push({
      qid,
      text: get('text') || qid,
      questionType: type,
      scaleMin: type === 'constant' ? min : min,
      scaleMax: type === 'constant' ? max : max,
      labels,
      constantValue: type === 'constant' ? orNull(labels[0]?.name ?? '') : null,
      metricId,
    });
  }
  if (!header) {
    issues.error('Empty scale file', 'The scale file is empty.', { file: file.path });
    return null;
  }
  return valid ? questions : null;
}

// ---------------------------------------------------------------- results file

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

async function checkResults(
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

// ---------------------------------------------------------------- the whole zip

/** The content checks of a document (file-validation.ts); false when one of them is an error. */
async function checkDocument(
  file: ZipFile,
  name: string,
  folder: DocumentDraft['folder'],
  issues: IssueList,
): Promise<boolean> {
  const found = await validateStudyFile({ bytes: await file.read(), fileName: name, folder });
  for (const problem of found) issues.add(problem.level, problem.high_msg, problem.msg, { file: file.path });
  return !hasBlockingErrors(found);
}

/** A csv beyond the table limits or that the parser cannot read: an error on the file. */
function unreadableTable(issues: IssueList, file: string, error: unknown): void {
  if (error instanceof TableLimitError) issues.error('File too large', error.message, { file });
  else if (error instanceof CsvReadError) issues.error('Unreadable csv', error.message, { file });
  else throw error;
}

const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
};

/** Reads and checks every study of the unpacked zip. */
export async function validateStudies(
  files: ZipFile[],
  ref: ReferenceData,
  options: ValidationOptions,
): Promise<ValidationResult> {
  const issues = new IssueList();
  const byFolder = new Map<string, ZipFile[]>();
  for (const file of files) {
    const slash = file.path.indexOf('/');
    if (slash < 0) {
      issues.error(
        'File outside a study folder',
        'Every file belongs in the folder of its study (named by its CMI number).',
        { file: file.path },
      );
      continue;
    }
    const folder = file.path.slice(0, slash);
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), file]);
  }
  if (byFolder.size === 0) issues.error('No studies', 'The zip holds no study folder.', { file: '' });

  const studies: StudyDraft[] = [];
  const cmis = new Map<string, string>();
  for (const [folder, folderFiles] of [...byFolder.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const study: StudyDraft = {
      folder,
      metadata: null,
      fragrances: [],
      concepts: [],
      results: [],
      documents: [],
    };
    const inside = (file: ZipFile) => file.path.slice(folder.length + 1);
    const form = folderFiles.find((f) => inside(f).toLowerCase() === REQUEST_FORM);
    if (!form)
      issues.error('Missing request form', `The study folder has no ${REQUEST_FORM}.`, { file: folder });
    else Object.assign(study, await readRequestForm(form, folder, ref, options, issues));
    const cmi = study.metadata?.cMiNumber;
    if (cmi) {
      const other = cmis.get(cmi.toLowerCase());
      if (other)
        issues.error(
          'Study twice in the zip',
          `The folders ${other} and ${folder} hold the same CMI number ${cmi}.`,
          {
            file: folder,
          },
        );
      cmis.set(cmi.toLowerCase(), folder);
    }
    const productCodes = form
      ? new Set([
          ...study.fragrances.map((f) => f.fragranceCode),
          ...study.concepts.map((c) => c.conceptCode),
        ])
      : null;

    const resultsFiles = folderFiles.filter((f) => {
      const rel = inside(f);
      return rel.startsWith(`${RESULTS_FOLDER}/`) && !rel.toLowerCase().endsWith(SCALE_SUFFIX);
    });
    for (const file of folderFiles) {
      const rel = inside(file);
      if (file === form) continue;
      const parts = rel.split('/');
      const top = parts[0] as string;
      const name = parts[parts.length - 1] as string;
      const extension = extensionOf(name);
      if (top === RESULTS_FOLDER && parts.length === 2) {
        if (rel.toLowerCase().endsWith(SCALE_SUFFIX)) {
          const base = name.slice(0, -SCALE_SUFFIX.length).toLowerCase();
          if (!resultsFiles.some((r) => extensionOf(r.path) === 'csv' && baseName(r.path) === base))
            issues.warning(
              'Scale file without results',
              `No results file ${base}.csv goes with this scale file.`,
              {
                file: file.path,
              },
            );
        } else if (extension !== 'csv') {
          issues.error(
            'Unknown results file type',
            'Results files are CSV files (.csv) with a .scale.csv scale file.',
            {
              file: file.path,
            },
          );
        }
        continue;
      }
      if ((STUDY_DOCUMENT_FOLDERS as readonly string[]).includes(top) && parts.length === 2) {
        if (!(STUDY_DOCUMENT_EXTENSIONS as readonly string[]).includes(extension)) {
          issues.error(
            'Unknown document type',
            `Documents are ${STUDY_DOCUMENT_EXTENSIONS.join(', ')} files; .${extension || '(none)'} is not accepted.`,
            { file: file.path },
          );
        } else if (file.size === 0) {
          issues.error('Empty document', 'The document is empty.', { file: file.path });
        } else if (file.size > STUDY_UPLOAD_MAX_BYTES) {
          issues.error(
            'Document too large',
            `The document is larger than ${STUDY_UPLOAD_MAX_BYTES / 1024 / 1024} MB, the most a study file may be.`,
            { file: file.path },
          );
        } else if (
          // The same content check as a study file uploaded on its own (a "pdf" that is not one).
          !(await checkDocument(file, name, top as DocumentDraft['folder'], issues))
        ) {
          continue;
        } else {
          study.documents.push({
            path: file.path,
            folder: top as DocumentDraft['folder'],
            name,
            extension,
          });
        }
        continue;
      }
      issues.error(
        'Unknown folder',
        `Files go in ${REQUEST_FORM}, ${RESULTS_FOLDER}/ or ${STUDY_DOCUMENT_FOLDERS.join('/, ')}/ of the study folder.`,
        { file: file.path },
      );
    }

    const csvResults = resultsFiles.filter(
      (f) => extensionOf(f.path) === 'csv' && inside(f).split('/').length === 2,
    );
    if (csvResults.length === 0)
      issues.error('Missing results file', `The study folder has no results file in ${RESULTS_FOLDER}/.`, {
        file: folder,
      });
    for (const file of csvResults) {
      const scalePath = `${file.path.slice(0, -'.csv'.length)}${SCALE_SUFFIX}`;
      const scale = folderFiles.find((f) => f.path.toLowerCase() === scalePath.toLowerCase());
      if (!scale) {
        issues.error(
          'Missing scale file',
          `The results file needs its scale file ${scalePath.split('/').pop()}.`,
          {
            file: file.path,
          },
        );
        continue;
      }
      let questions: QuestionDraft[] | null;
      try {
        questions = await readScale(scale, ref, issues);
      } catch (error) {
        unreadableTable(issues, scale.path, error);
        continue;
      }
      if (!questions) continue;
      try {
        await checkResults(file, questions, productCodes, issues);
      } catch (error) {
        unreadableTable(issues, file.path, error);
        continue;
      }
      study.results.push({
        path: file.path,
        name: file.path.split('/').pop() as string,
        scalePath: scale.path,
        questions,
      });
    }
    studies.push(study);
  }
  return { studies, issues: issues.finish() };
}

const baseName = (filePath: string) => {
  const name = (filePath.split('/').pop() as string).toLowerCase();
  return name.endsWith('.csv') ? name.slice(0, -4) : name;
};
