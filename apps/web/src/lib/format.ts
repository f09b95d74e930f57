/** Dates are shown in the en-GB locale (document 1 section 9). */
import dayjs from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import 'dayjs/locale/en-gb';

dayjs.extend(localizedFormat);
dayjs.locale('en-gb');

/** 14/03/2025 */
export function formatDate(value: string | null | undefined, empty = '-'): string {
  if (!value) return empty;
  const date = dayjs(value);
  return date.isValid() ? date.format('L') : empty;
}

/** 14/03/2025 09:41 */
export function formatDateTime(value: string | null | undefined, empty = '-'): string {
  if (!value) return empty;
  const date = dayjs(value);
  return date.isValid() ? date.format('L LT') : empty;
}
