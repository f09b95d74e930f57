/**
 * The working copy of the fragrance and concept tables while an admin edits them (document 2
 * sections 4 and 5): rows as the texts in their inputs, the changes the page tracks, the checks run
 * before saving and the tag-edit payload of PUT /study/{id}/tags (section 7).
 */
import {
  CONCEPT_TRACKED_FIELDS,
  FRAGRANCE_TABLE_FIELDS,
  PerfumeCharacteristicInput,
  StudyConceptInput,
  type StudyChange,
  type StudyTagEditRequest,
} from '@accord/contracts';

/** The concept columns the table edits (document 2 section 3, Concept row). */
export const CONCEPT_TABLE_FIELDS = ['name', 'concept_code', 'region', 'country'] as const;

export type FragranceField = (typeof FRAGRANCE_TABLE_FIELDS)[number];
export type ConceptField = (typeof CONCEPT_TABLE_FIELDS)[number];

/** One row of the working copy: every cell as the text of its input. */
export interface DraftRow<Field extends string> {
  /** Stable while editing: `row-{id}` for the study's rows, `new-{n}` for added ones. */
  key: string;
  /** The study's own row; absent for rows added while editing. */
  id?: number;
  values: Record<Field, string>;
}

/** Problems of a row by field, keyed by the row's key. */
export type RowErrors<Field extends string> = Record<string, Partial<Record<Field, string>>>;

/** How one of the two tables is edited and saved. */
export interface TableKind<Field extends string> {
  type: 'fragrances' | 'concepts';
  /** The columns shown as inputs, in order. */
  fields: readonly Field[];
  /** The fields whose changes go into changes[] (document 2 section 5). */
  tracked: readonly Field[];
  /** The code that must be unique within the study. */
  codeField: Field;
  /** Fields every row must fill; sent as text even when empty, so the row check names them. */
  required: readonly Field[];
  /** Fields held as numbers. */
  numeric: readonly Field[];
  duplicateCode: string;
  /** Validates one row as the server will. */
  check: (row: Record<string, unknown>) => { path: PropertyKey[]; message: string }[];
}

export const FRAGRANCE_TABLE: TableKind<FragranceField> = {
  type: 'fragrances',
  fields: FRAGRANCE_TABLE_FIELDS,
  tracked: FRAGRANCE_TABLE_FIELDS,
  codeField: 'fragrance_code',
  required: ['name', 'fragrance_code'],
  numeric: ['level'],
  duplicateCode: 'Each fragrance code may appear only once.',
  check: (row) => PerfumeCharacteristicInput.safeParse(row).error?.issues ?? [],
};

export const CONCEPT_TABLE: TableKind<ConceptField> = {
  type: 'concepts',
  fields: CONCEPT_TABLE_FIELDS,
  tracked: CONCEPT_TRACKED_FIELDS,
  codeField: 'concept_code',
  required: ['name', 'concept_code'],
  numeric: [],
  duplicateCode: 'Each concept code may appear only once.',
  check: (row) => StudyConceptInput.safeParse(row).error?.issues ?? [],
};

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return String(value);
}

/** The stored form of an input's text: trimmed, empty as null, numeric fields as numbers. */
export function storedValue<Field extends string>(
  kind: TableKind<Field>,
  field: Field,
  text: string,
): string | number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (kind.numeric.includes(field)) {
    const number = Number(trimmed);
    return Number.isFinite(number) ? number : trimmed;
  }
  return trimmed;
}

/** The study's rows as the working copy. */
export function toDraftRows<Field extends string>(
  kind: TableKind<Field>,
  rows: readonly ({ id: number } & Record<Field, unknown>)[],
): DraftRow<Field>[] {
  return rows.map((row) => ({
    key: `row-${row.id}`,
    id: row.id,
    values: Object.fromEntries(kind.fields.map((field) => [field, cellText(row[field])])) as Record<
      Field,
      string
    >,
  }));
}

/** An empty row to add at the top of the working copy. */
export function emptyDraftRow<Field extends string>(kind: TableKind<Field>, key: string): DraftRow<Field> {
  return {
    key,
    values: Object.fromEntries(kind.fields.map((field) => [field, ''])) as Record<Field, string>,
  };
}

function valuesOf<Field extends string>(
  kind: TableKind<Field>,
  row: DraftRow<Field>,
  fields: readonly Field[],
) {
  return fields.map((field) => [field, storedValue(kind, field, row.values[field])] as const);
}

/**
 * The changes of the tracked fields: per kept row each tracked field that differs, per added row
 * each tracked field it fills (old value null), per removed row each tracked field it held (new
 * value null).
 */
export function trackChanges<Field extends string>(
  kind: TableKind<Field>,
  original: readonly DraftRow<Field>[],
  draft: readonly DraftRow<Field>[],
): StudyChange[] {
  const originalById = new Map(original.map((row) => [row.id, row]));
  const keptIds = new Set<number>();
  const changes: StudyChange[] = [];
  for (const row of draft) {
    const before = row.id === undefined ? undefined : originalById.get(row.id);
    if (before && row.id !== undefined) {
      keptIds.add(row.id);
      for (const [field, value] of valuesOf(kind, row, kind.tracked)) {
        const old = storedValue(kind, field, before.values[field]);
        if (old !== value) changes.push({ field, old_value: old, new_value: value });
      }
      continue;
    }
    for (const [field, value] of valuesOf(kind, row, kind.tracked)) {
      if (value !== null) changes.push({ field, old_value: null, new_value: value });
    }
  }
  for (const row of original) {
    if (row.id !== undefined && keptIds.has(row.id)) continue;
    for (const [field, value] of valuesOf(kind, row, kind.tracked)) {
      if (value !== null) changes.push({ field, old_value: value, new_value: null });
    }
  }
  return changes;
}

/** Whether the working copy differs from the rows it was made from (an added row always does). */
export function hasEdits<Field extends string>(
  kind: TableKind<Field>,
  original: readonly DraftRow<Field>[],
  draft: readonly DraftRow<Field>[],
): boolean {
  if (draft.length !== original.length || draft.some((row) => row.id === undefined)) return true;
  const originalById = new Map(original.map((row) => [row.id, row]));
  return draft.some((row) => {
    const before = originalById.get(row.id);
    return (
      !before ||
      kind.fields.some(
        (field) =>
          storedValue(kind, field, before.values[field]) !== storedValue(kind, field, row.values[field]),
      )
    );
  });
}

/** The rows of the study that the working copy no longer holds. */
export function removedRows<Field extends string>(
  original: readonly DraftRow<Field>[],
  draft: readonly DraftRow<Field>[],
): DraftRow<Field>[] {
  const kept = new Set(draft.map((row) => row.id));
  return original.filter((row) => !kept.has(row.id));
}

/** A row as the server takes it: the id of a kept row, and every edited field in its stored form. */
function rowInput<Field extends string>(kind: TableKind<Field>, row: DraftRow<Field>) {
  return {
    ...(row.id === undefined ? {} : { id: row.id }),
    ...Object.fromEntries(
      valuesOf(kind, row, kind.fields).map(([field, value]) => [
        field,
        value === null && kind.required.includes(field) ? '' : value,
      ]),
    ),
  };
}

/**
 * The problems the server would refuse, per row and field: the contract's row checks (name, code,
 * level) and codes used twice within the table.
 */
export function validateDraft<Field extends string>(
  kind: TableKind<Field>,
  draft: readonly DraftRow<Field>[],
): RowErrors<Field> {
  const errors: RowErrors<Field> = {};
  const seenCodes = new Set<string>();
  for (const row of draft) {
    const rowErrors: Partial<Record<Field, string>> = {};
    for (const issue of kind.check(rowInput(kind, row))) {
      const field = issue.path[0] as Field | undefined;
      if (field !== undefined && kind.fields.includes(field) && !rowErrors[field])
        rowErrors[field] = issue.message;
    }
    const code = row.values[kind.codeField].trim().toLowerCase();
    if (code !== '') {
      if (seenCodes.has(code) && !rowErrors[kind.codeField]) rowErrors[kind.codeField] = kind.duplicateCode;
      seenCodes.add(code);
    }
    if (Object.keys(rowErrors).length > 0) errors[row.key] = rowErrors;
  }
  return errors;
}

/**
 * The tag-edit payload (document 2 section 7): the full new table with the tracked changes, or the
 * clear flag when every row was removed. Kept rows carry their id, so a changed code updates the row
 * (and keeps its answers) instead of replacing it.
 */
export function buildTableRequest<Field extends string>(
  kind: TableKind<Field>,
  original: readonly DraftRow<Field>[],
  draft: readonly DraftRow<Field>[],
): StudyTagEditRequest {
  const changes = trackChanges(kind, original, draft);
  const rows = draft.map((row) => rowInput(kind, row));
  if (kind.type === 'fragrances') {
    return rows.length === 0
      ? { type: 'fragrances', clear_perfume_characteristics: true, changes }
      : { type: 'fragrances', perfume_characteristics: rows as PerfumeCharacteristicInput[], changes };
  }
  return rows.length === 0
    ? { type: 'concepts', clear_concepts: true, changes }
    : { type: 'concepts', concepts: rows as StudyConceptInput[], changes };
}
