/** What an empty value shows (document 2 section 3: 'No Tag' or empty counts as empty). */
export const EMPTY_VALUE = '-';

function isEmptyText(text: string): boolean {
  const trimmed = text.trim();
  return trimmed === '' || trimmed.toLowerCase() === 'no tag';
}

/** A tag, history or cell value as text: lists joined with ', ', booleans as Yes/No, empty as '-'. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return EMPTY_VALUE;
  if (Array.isArray(value)) {
    const items = value.map((item) => formatValue(item)).filter((item) => item !== EMPTY_VALUE);
    return items.length > 0 ? items.join(', ') : EMPTY_VALUE;
  }
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : EMPTY_VALUE;
  if (typeof value === 'string') return isEmptyText(value) ? EMPTY_VALUE : value;
  return JSON.stringify(value);
}
