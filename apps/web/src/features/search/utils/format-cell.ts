/** Display rules of the result rows (document 2 section 3): '-' for empty or 'No Tag', capitalised text. */

export const EMPTY_CELL = '-';

/** Whether a value counts as empty on screen ('No Tag' is the library's word for "not tagged"). */
export function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') {
    const text = value.trim();
    return text === '' || text.toLowerCase() === 'no tag' || text.toLowerCase() === 'nan';
  }
  if (Array.isArray(value)) return value.every(isEmptyValue);
  return false;
}

/** Upper-cases the first letter of a string and leaves the rest as written. */
export function capitalise(text: string): string {
  const trimmed = text.trim();
  return trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
}

/** One cell's text: '-' when empty, capitalised strings, numbers as they are. */
export function formatCell(value: unknown): string {
  if (isEmptyValue(value)) return EMPTY_CELL;
  if (typeof value === 'string') return capitalise(value);
  if (typeof value === 'number') return String(value);
  return String(value);
}

/** The non-empty, capitalised items of a multi-value cell. */
export function cellItems(
  value: readonly (string | null | undefined)[] | string | null | undefined,
): string[] {
  const list = Array.isArray(value) ? value : value == null ? [] : [value];
  return list.filter((item): item is string => !isEmptyValue(item)).map(capitalise);
}
