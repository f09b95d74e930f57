/**
 * Reading the cells of the request form: text, lists, numbers, yes/no, and column letters for
 * the paths of problems.
 */
import type ExcelJS from 'exceljs';

export function cellText(value: ExcelJS.CellValue): string {
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

export const splitList = (text: string) =>
  text
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '');

export const orNull = (text: string) => (text === '' ? null : text);

export function parseBool(text: string): boolean | null {
  const lower = text.toLowerCase();
  if (['yes', 'true', '1', 'y'].includes(lower)) return true;
  if (['no', 'false', '0', 'n'].includes(lower)) return false;
  return null;
}

export function parseNumber(text: string): number | null {
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
