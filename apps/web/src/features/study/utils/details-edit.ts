/**
 * The study details edit and the 'Add tag' popup, as pure functions: which input each field gets,
 * how a stored value becomes an input value and back, which fields changed (only those are sent,
 * with their old values: document 2 section 5, Details edit) and the whole-number rule of Add tag.
 */
import type { StudyTagDefinition, StudyUpdateRequest, TagValue } from '@accord/contracts';
import { WHOLE_NUMBER_TAGS } from '@accord/contracts';

/** Texts of the details edit and tag popups (document 2 section 8). */
export const EDIT_MESSAGES = {
  successTitle: 'Success!',
  failedTitle: 'Failed!',
  tryAgain: 'There was an issue with your request, please try again later.',
  badFields: '. Bad fields: ',
  wholeNumber: (label: string) => `${label} must be a whole number of at least 1.`,
  ageValue: (label: string) => `${label} must be a whole number of at least 1 or a range such as 18-64.`,
  required: (label: string) => `${label} cannot be empty.`,
} as const;

/** How a field is edited. */
export type InputKind =
  | 'readonly'
  | 'text'
  | 'select'
  | 'multiselect'
  /** One choice, sent as a one-item list. */
  | 'gender'
  | 'whole'
  /** A whole number or a range of whole numbers ('18-64'). */
  | 'age'
  | 'boolean';

/** An input's value: a text (single choices and numbers as typed) or a list (multi-selects). */
export type InputValue = string | string[];

/** Fields the server refuses to empty. */
export const REQUIRED_FIELDS: readonly string[] = ['project_name', 'client'];

const isEmptyText = (text: string) => {
  const trimmed = text.trim();
  return trimmed === '' || trimmed.toLowerCase() === 'no tag';
};

/** 'No Tag', empty texts and empty lists count as empty (document 2 section 3, Study details). */
export function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return isEmptyText(value);
  if (Array.isArray(value)) return value.every((item) => isEmptyValue(item));
  return false;
}

/** A region value as a list: a comma-separated text is split, empties dropped. */
export function splitRegions(value: unknown): string[] {
  return toList(value, true);
}

function toList(value: unknown, splitCommas: boolean): string[] {
  const items = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : [];
  return items
    .flatMap((item) => (splitCommas ? item.split(',') : [item]))
    .map((item) => item.trim())
    .filter((item) => !isEmptyText(item));
}

/** The input a details field gets in edit mode. */
export function detailInputKind(field: string, definition: StudyTagDefinition | undefined): InputKind {
  if (!definition || !definition.editable || field === 'c_mi_number') return 'readonly';
  if (field === 'gender') return 'gender';
  if (definition.type === 'boolean') return 'boolean';
  if (field === 'age') return 'age';
  if (definition.whole_number) return 'whole';
  if (definition.multivalue) return 'multiselect';
  if (definition.type === 'categorical') return 'select';
  return 'text';
}

/** The input an 'Add tag' popup gets: whole numbers for age, # of products and sample size. */
export function tagInputKind(definition: StudyTagDefinition): InputKind {
  if ((WHOLE_NUMBER_TAGS as readonly string[]).includes(definition.field) || definition.whole_number)
    return 'whole';
  if (definition.type === 'boolean') return 'boolean';
  if (definition.multivalue) return 'multiselect';
  if (definition.type === 'categorical') return 'select';
  return 'text';
}

/** A stored value as the value of its input. */
export function toInputValue(kind: InputKind, field: string, value: TagValue | undefined): InputValue {
  switch (kind) {
    case 'multiselect':
      return toList(value, field === 'region');
    case 'gender':
      // Every stored gender is copied, so a study of both genders shows both in its input.
      return toList(value, false);
    case 'boolean':
      return value === true ? 'true' : 'false';
    default:
      if (value === null || value === undefined) return '';
      if (Array.isArray(value)) return toList(value, false).join(', ');
      return typeof value === 'string' && isEmptyText(value) ? '' : String(value);
  }
}

/** Whole number of at least 1: null for an empty text, undefined when the text is not one. */
export function parseWholeNumber(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!/^\d+$/.test(trimmed)) return undefined;
  const number = Number(trimmed);
  return number >= 1 && Number.isSafeInteger(number) ? number : undefined;
}

/** An age: a whole number of at least 1 or a range 'low-high' of them; null when empty. */
export function parseAge(text: string): string | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const whole = parseWholeNumber(trimmed);
  if (whole != null) return String(whole);
  const range = /^(\d+)\s*-\s*(\d+)$/.exec(trimmed);
  if (!range) return undefined;
  const low = parseWholeNumber(range[1]!);
  const high = parseWholeNumber(range[2]!);
  return low != null && high != null && high >= low ? `${low}-${high}` : undefined;
}

/** The problem with an input value, or null when it may be sent. */
export function inputProblem(
  kind: InputKind,
  field: string,
  label: string,
  value: InputValue,
): string | null {
  const text = typeof value === 'string' ? value : '';
  if (REQUIRED_FIELDS.includes(field) && typeof value === 'string' && text.trim() === '')
    return EDIT_MESSAGES.required(label);
  if (kind === 'whole' && parseWholeNumber(text) === undefined) return EDIT_MESSAGES.wholeNumber(label);
  if (kind === 'age' && parseAge(text) === undefined) return EDIT_MESSAGES.ageValue(label);
  return null;
}

/** The value sent for an input (assumes inputProblem found nothing). */
export function toRequestValue(kind: InputKind, value: InputValue): TagValue {
  if (Array.isArray(value)) return [...value];
  const text = value.trim();
  switch (kind) {
    case 'gender':
      // A single text (older callers) is sent as a one-item list.
      return text === '' ? [] : [text];
    case 'whole':
      return parseWholeNumber(text) ?? null;
    case 'age':
      return parseAge(text) ?? null;
    case 'boolean':
      return text === 'true';
    default:
      return text === '' ? null : text;
  }
}

/** Whether two input values differ (list order and surrounding spaces do not count). */
export function inputChanged(before: InputValue, after: InputValue): boolean {
  if (Array.isArray(before) || Array.isArray(after)) {
    const a = [...new Set(Array.isArray(before) ? before : [before])].filter(Boolean).sort();
    const b = [...new Set(Array.isArray(after) ? after : [after])].filter(Boolean).sort();
    return JSON.stringify(a) !== JSON.stringify(b);
  }
  return before.trim() !== after.trim();
}

export interface EditField {
  field: string;
  kind: InputKind;
  /** The value the page showed when editing began. */
  shown: TagValue;
  /** The input's value when editing began. */
  initial: InputValue;
}

/**
 * The details edit request: only the changed fields with their new values, and their values as
 * shown when editing began (oldData). Null when nothing changed.
 */
export function buildUpdateRequest(
  fields: readonly EditField[],
  values: Readonly<Record<string, InputValue>>,
): StudyUpdateRequest | null {
  const study: Record<string, TagValue> = {};
  const oldData: Record<string, TagValue> = {};
  for (const entry of fields) {
    if (entry.kind === 'readonly') continue;
    const value = values[entry.field];
    if (value === undefined || !inputChanged(entry.initial, value)) continue;
    study[entry.field] = toRequestValue(entry.kind, value);
    oldData[entry.field] = entry.shown;
  }
  return Object.keys(study).length > 0 ? { type: 'study', study, oldData } : null;
}

/** Fields of a refused edit: those with at least one message. */
export function badFields(incoherent: Readonly<Record<string, readonly string[]>>): string[] {
  return Object.entries(incoherent)
    .filter(([, messages]) => messages.length > 0)
    .map(([field]) => field);
}

/** 'Failed!' text of an incoherent edit: the server's message, '. Bad fields: ' and the fields. */
export function badFieldsMessage(serverMessage: string, fields: readonly string[]): string {
  return `${serverMessage.trim().replace(/\.+$/, '')}${EDIT_MESSAGES.badFields}${fields.join(', ')}`;
}

/** Select options of a field, with the current values kept even when the options lack them. */
export function selectOptions(
  definition: StudyTagDefinition | undefined,
  current: InputValue,
): { value: string; label: string }[] {
  const options = (definition?.options ?? []).map((option) => ({
    value: option.value,
    label: option.label || option.value,
  }));
  const known = new Set(options.map((option) => option.value));
  const extra = (Array.isArray(current) ? current : current ? [current] : []).filter(
    (value) => !known.has(value),
  );
  return [...options, ...extra.map((value) => ({ value, label: value }))];
}
