/**
 * Exactly what leaves the server from a search: the rows of each result tab (document 2 section 3)
 * and the columns of the spreadsheet exports, with their headings.
 */
import type { CellKind } from '../../lib/report-workbook.ts';
import type {
  CONCEPT_EXPORT_COLUMNS,
  ConceptRow,
  FRAGRANCE_EXPORT_COLUMNS,
  FragranceRow,
  STUDY_EXPORT_COLUMNS,
  SearchFileRow,
  StudySummaryRow,
} from '@accord/contracts';
import type { ConceptRecord, FileRecord, FragranceRecord, StudySummaryRecord } from './search.repository.ts';
import { presentFragranceFields } from '../study/study.presenter.ts';

export function presentStudySummary(row: StudySummaryRecord): StudySummaryRow {
  return {
    id: row.id,
    category: row.category,
    product_type: row.productType,
    client: row.client,
    c_mi_number: row.cMiNumber,
    project_name: row.projectName,
    pace_number: row.paceNumber,
    methodology: row.methodology,
    design_method: row.designMethod,
    country: row.country,
    region: row.region,
    lead_country: row.leadCountry,
    business_unit: row.productArea,
    research_type: row.researchType,
    cmi_tool_type: row.cmiToolType,
    evaluation: row.evaluation,
  };
}

export function presentFragrance(row: FragranceRecord): FragranceRow {
  return {
    id: row.id,
    study_id: row.studyId,
    category: row.category,
    product_type: row.productType,
    client: row.client,
    c_mi_number: row.cMiNumber,
    project_name: row.projectName,
    ...presentFragranceFields(row),
  };
}

export function presentConcept(row: ConceptRecord): ConceptRow {
  return {
    id: row.id,
    name: row.name,
    concept_code: row.conceptCode,
    region: row.region,
    country: row.country,
    study_id: row.studyId,
    c_mi_number: row.cMiNumber,
    project_name: row.projectName,
    client: row.client,
  };
}

export function presentFile(row: FileRecord): SearchFileRow {
  return {
    id: row.id,
    study_id: row.studyId,
    category: row.category,
    product_type: row.productType,
    client: row.client,
    c_mi_number: row.cMiNumber,
    project_name: row.projectName,
    file_name: row.fileName,
    file_type: row.fileType,
  };
}

/** A spreadsheet column: the row field it shows, its heading and its width in characters. */
export interface ExportColumn<K extends string = string> {
  key: K;
  header: string;
  width: number;
  /** How its numbers read (text when left out). */
  kind?: CellKind;
  /** The column names the row (its CMI #, its name): repeated on each page of a wide print. */
  identifies?: boolean;
}

const col = <K extends string>(key: K, header: string, width = 16): ExportColumn<K> => ({
  key,
  header,
  width,
});
/** A column that names the row. */
const keyCol = <K extends string>(key: K, header: string, width = 16): ExportColumn<K> => ({
  ...col(key, header, width),
  identifies: true,
});

/**
 * The row id the tables keep internally: not a column of any file (the CMI # and the names identify
 * a row to a reader); a request naming it is answered without it.
 */
export const INTERNAL_EXPORT_COLUMNS: ReadonlySet<string> = new Set(['id']);

/**
 * Headings as the result tables show them (document 2 section 3); the columns that name a row come
 * first, so a table too wide for one page repeats them on each.
 */
export const STUDY_COLUMNS: ExportColumn<(typeof STUDY_EXPORT_COLUMNS)[number]>[] = [
  keyCol('c_mi_number', 'CMI #', 14),
  keyCol('project_name', 'Project Name', 32),
  col('category', 'Category', 20),
  col('product_type', 'Product', 20),
  col('client', 'Client', 24),
  col('pace_number', 'CX/Pace #', 14),
  col('methodology', 'Methodology', 22),
  col('design_method', 'Design Method', 20),
  col('country', 'Country', 24),
  col('region', 'Region', 22),
  col('lead_country', 'Lead Country', 16),
  col('business_unit', 'Business Unit', 22),
  col('research_type', 'Research Type', 22),
  col('cmi_tool_type', 'CMI Tool Type', 22),
  col('evaluation', 'Evaluation', 22),
];

export const FRAGRANCE_COLUMNS: ExportColumn<(typeof FRAGRANCE_EXPORT_COLUMNS)[number]>[] = [
  keyCol('c_mi_number', 'CMI #', 14),
  keyCol('name', 'Fragrance Name', 24),
  col('category', 'Category', 20),
  col('product_type', 'Product', 20),
  col('client', 'Client', 24),
  col('project_name', 'Project Name', 32),
  col('ref_number', 'Developer #', 14),
  col('code', '6 Digit Code (SAP)', 18),
  col('fragrance_code', 'Fragrance Code', 14),
  col('methodology', 'Methodology', 22),
  col('perfumer_name', 'Perfumer Name', 22),
  col('region', 'Region', 18),
  col('country', 'Country', 18),
  col('family', 'Family', 16),
  col('subfamily', 'Subfamily', 18),
  col('specifier', 'Specifier', 18),
  col('level', 'Level (%)', 10),
  col('supplemental_info', 'Supplemental Info', 28),
  col('dominant_note_1', 'Dominant Note 1', 16),
  col('dominant_note_2', 'Dominant Note 2', 16),
  col('dominant_note_3', 'Dominant Note 3', 16),
  col('dominant_note_4', 'Dominant Note 4', 16),
  col('dominant_note_5', 'Dominant Note 5', 16),
];

export const CONCEPT_COLUMNS: ExportColumn<(typeof CONCEPT_EXPORT_COLUMNS)[number]>[] = [
  keyCol('name', 'Concept Name', 28),
  col('concept_code', 'Concept Code', 14),
  col('region', 'Region', 18),
  col('country', 'Country', 18),
  col('c_mi_number', 'CMI #', 14),
  col('project_name', 'Project Name', 32),
  col('client', 'Client', 24),
];

/** A cell value: lists become "a, b", missing values an empty cell. */
export { cellOf as cellValue } from '../../lib/xlsx-writer-report.ts';
