/**
 * The study fields the details page shows and edits: their column, how a value is read from a
 * request (normaliseTagValue) and how stored values compare with what a page showed (sameAsShown).
 * Pure, so the rules are unit-tested without a database.
 */
import { APAC_SUBREGIONS, type TagValue } from '@accord/contracts';
import type { studies } from '../../db/schema.ts';

type StudyColumn = keyof typeof studies.$inferSelect;

/**
 * How a field's value is written:
 * text: free text or null; choice: one option or null; choices: a list of options; whole: a whole
 * number of at least 1 or null; age: a whole number of at least 1 or a range 'low-high' (the stored
 * age bands) or null; boolean.
 */
export type FieldKind = 'text' | 'choice' | 'choices' | 'whole' | 'age' | 'boolean';

export interface StudyFieldSpec {
  field: string;
  column: StudyColumn;
  kind: FieldKind;
  /** Fallback label when field_definitions has none. */
  label: string;
  editable: boolean;
  /** The column is NOT NULL: the value may not be emptied. */
  required?: boolean;
}

const spec = (
  field: string,
  column: StudyColumn,
  kind: FieldKind,
  label: string,
  extra: Partial<StudyFieldSpec> = {},
): StudyFieldSpec => ({ field, column, kind, label, editable: true, ...extra });

/** Every study field of the details page, its tags and the details edit. */
export const STUDY_FIELDS: readonly StudyFieldSpec[] = [
  spec('project_name', 'projectName', 'text', 'Project Name', { required: true }),
  spec('client', 'client', 'choice', 'Client', { required: true }),
  spec('c_mi_number', 'cMiNumber', 'text', 'CMI #', { editable: false, required: true }),
  spec('pace_number', 'paceNumber', 'text', 'CX/Pace #'),
  spec('product_area', 'productArea', 'choices', 'Business Unit'),
  spec('division', 'division', 'choice', 'Division'),
  spec('category', 'category', 'choice', 'Category'),
  spec('product_type', 'productType', 'choice', 'Product'),
  spec('region', 'region', 'choices', 'Region'),
  spec('lead_country', 'leadCountry', 'choice', 'Lead Country'),
  spec('country', 'country', 'choices', 'Country'),
  spec('methodology', 'methodology', 'choice', 'Methodology'),
  spec('panel_profile', 'panelProfile', 'text', 'Panel Profile'),
  spec('design_method', 'designMethod', 'choice', 'Design Method'),
  spec('research_type', 'researchType', 'choices', 'Research Type'),
  spec('cmi_tool_type', 'cmiToolType', 'choices', 'CMI Tool Type'),
  spec('evaluation', 'evaluation', 'choices', 'Evaluation'),
  spec('gender', 'gender', 'choices', 'Gender'),
  spec('age', 'age', 'age', 'Age'),
  spec('social_class', 'socialClass', 'choices', 'Social Class'),
  spec('study_sample_size', 'studySampleSize', 'whole', 'Study Sample Size'),
  spec('number_of_products', 'numberOfProducts', 'whole', 'Number of Products'),
  spec('base', 'base', 'text', 'Base'),
  spec(
    'objective_and_action_standards',
    'objectiveAndActionStandards',
    'text',
    'Objective and Action Standards',
  ),
  spec('verified', 'verified', 'boolean', 'Verified'),
];

export const STUDY_FIELD_BY_NAME: ReadonlyMap<string, StudyFieldSpec> = new Map(
  STUDY_FIELDS.map((field) => [field.field, field]),
);

/** A stored value: what the studies row holds for a field. */
export type StoredValue = string | string[] | number | boolean | null;

export type Normalised = { ok: true; value: StoredValue } | { ok: false; message: string };

const EMPTY_MARKERS = new Set(['', 'no tag']);
const isEmptyText = (text: string) => EMPTY_MARKERS.has(text.trim().toLowerCase());

/** 'APAC' stands for its sub-regions; it is never stored. */
function expandRegions(values: string[]): string[] {
  return values.flatMap((value) => (value === 'APAC' ? [...APAC_SUBREGIONS] : [value]));
}

function wholeNumber(value: TagValue): number | null | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 1 ? value : undefined;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) {
    const number = Number(value);
    return number >= 1 && Number.isSafeInteger(number) ? number : undefined;
  }
  return undefined;
}

/**
 * Reads a request value for a field. `options` are the field's defined options (empty: any value).
 * Texts are trimmed; '' and 'No Tag' mean empty; a single text is accepted for a list field (gender
 * as a one-item list) and region also takes a comma-separated text; lists lose repeats.
 */
export function normaliseTagValue(
  spec: StudyFieldSpec,
  value: TagValue,
  options: readonly string[],
): Normalised {
  const label = spec.label;
  const isEmpty =
    value === null ||
    (typeof value === 'string' && isEmptyText(value)) ||
    (Array.isArray(value) && value.every(isEmptyText));
  const allowed = new Set(options);
  const checkOption = (option: string): string | null =>
    allowed.size === 0 || allowed.has(option) ? null : `"${option}" is not an option of ${label}.`;

  if (isEmpty) {
    if (spec.required) return { ok: false, message: `${label} cannot be empty.` };
    if (spec.kind === 'choices') return { ok: true, value: [] };
    if (spec.kind === 'boolean') return { ok: false, message: `${label} is true or false.` };
    return { ok: true, value: null };
  }

  switch (spec.kind) {
    case 'text': {
      if (typeof value !== 'string' && typeof value !== 'number')
        return { ok: false, message: `${label} is a text.` };
      return { ok: true, value: String(value).trim() };
    }
    case 'choice': {
      const single = Array.isArray(value) ? (value.length === 1 ? value[0] : undefined) : value;
      if (typeof single !== 'string') return { ok: false, message: `${label} takes one value.` };
      const chosen = single.trim();
      const problem = checkOption(chosen);
      return problem ? { ok: false, message: problem } : { ok: true, value: chosen };
    }
    case 'choices': {
      let list: string[];
      if (Array.isArray(value)) list = value;
      else if (typeof value === 'string') list = spec.field === 'region' ? value.split(',') : [value];
      else return { ok: false, message: `${label} is a list of values.` };
      list = list.map((item) => item.trim()).filter((item) => !isEmptyText(item));
      if (spec.field === 'region') list = expandRegions(list);
      const unique = [...new Set(list)];
      for (const item of unique) {
        const problem = checkOption(item);
        if (problem) return { ok: false, message: problem };
      }
      return { ok: true, value: unique };
    }
    case 'whole': {
      const number = wholeNumber(value);
      return number == null
        ? { ok: false, message: `${label} must be a whole number of at least 1.` }
        : { ok: true, value: number };
    }
    case 'age': {
      const number = wholeNumber(value);
      if (number != null) return { ok: true, value: String(number) };
      const range = typeof value === 'string' ? /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(value) : null;
      if (range) {
        const low = Number(range[1]);
        const high = Number(range[2]);
        if (low >= 1 && high >= low) return { ok: true, value: `${low}-${high}` };
      }
      return {
        ok: false,
        message: `${label} must be a whole number of at least 1 (or a range such as 18-64).`,
      };
    }
    case 'boolean': {
      if (typeof value === 'boolean') return { ok: true, value };
      if (value === 'true' || value === 'false') return { ok: true, value: value === 'true' };
      return { ok: false, message: `${label} is true or false.` };
    }
  }
}

/** A comparable form: empty values become null, lists are sorted, numbers become texts. */
function canonical(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) {
    const items = value
      .flatMap((item) => String(item).split(','))
      .map((item) => item.trim())
      .filter((item) => !isEmptyText(item));
    return items.length === 0 ? null : JSON.stringify([...new Set(items)].sort());
  }
  if (typeof value === 'string') return isEmptyText(value) ? null : value.trim();
  return String(value);
}

/**
 * Whether the stored value is the one a page showed (oldData). Lenient about form: list order, a
 * comma text for a list, a number sent as text, '' or 'No Tag' for empty.
 */
export function sameAsShown(spec: StudyFieldSpec, stored: StoredValue, shown: unknown): boolean {
  if (spec.kind === 'choices') {
    const asList = (value: unknown) =>
      Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : value;
    const expand = (value: unknown) => {
      const list = asList(value);
      return spec.field === 'region' && Array.isArray(list) ? expandRegions(list.map(String)) : list;
    };
    return canonical(expand(stored)) === canonical(expand(shown));
  }
  return canonical(stored) === canonical(shown);
}

/** Whether two stored values are equal (lists ignoring order). */
export function sameStoredValue(a: StoredValue, b: StoredValue): boolean {
  return canonical(a) === canonical(b);
}
