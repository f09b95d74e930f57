/**
 * The reader of a study's request_form.xlsx: its study, fragrances and concepts sheets, read within
 * the size limits of uploads, checked field by field against the reference data and the upload form.
 */
import { Readable } from 'node:stream';
import {
  STUDIES_UPLOAD_MESSAGES,
  STUDIES_ZIP_MAX_ENTRIES,
  UPLOAD_TABLE_LIMITS,
  type FileIssuePath,
} from '@accord/contracts';
import ExcelJS from 'exceljs';
import { TableLimitError } from '../../../lib/csv-table.ts';
import { bufferSource, openEntry, readZipDirectory } from '../zip-reader.ts';
import {
  type ConceptDraft,
  FIRST_STUDY_YEAR,
  type FragranceDraft,
  type ReferenceData,
  regionMatches,
  replacing,
  type StudyDraft,
  type StudyMetadataDraft,
  type ValidationOptions,
  type ZipFile,
} from './model.ts';
import { STUDY_FORM_FIELDS } from './columns.ts';
import type { IssueList } from './issues.ts';
import { cellText, columnLetter, orNull, parseBool, parseNumber, splitList } from './cells.ts';

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

export async function readRequestForm(
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
