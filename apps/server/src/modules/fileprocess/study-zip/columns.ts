/**
 * The columns and fields each file kind of a study zip holds: the request form's study fields,
 * fragrance and concept columns, the scale file's columns, the results file's key and demographic
 * columns, and the test date as results files write it.
 */
import { type StudyMetadataDraft } from './model.ts';

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
export type Demographic = (typeof DEMOGRAPHIC_COLUMNS)[number];
