import {
  TENDENCY_FIELD_LABELS,
  type MetricSearchRequest,
  type TENDENCY_FIELDS,
  type TendenciesRequest,
  type TendenciesResponse,
} from '@accord/contracts';
import type { SearchedProduct } from './attributes-table.ts';

export type TendencyField = (typeof TENDENCY_FIELDS)[number];
export type TendencyRow = TendenciesResponse['table_data'][number];

/** Metadata Type: the olfactive description of a fragrance, or how and where it was created. */
export const TENDENCY_TYPES = [
  {
    value: 'olfactive',
    label: 'Olfactive',
    fields: ['family', 'subfamily', 'specifier', 'dominant_note'],
  },
  {
    value: 'creative',
    label: 'Creative',
    fields: ['perfumer_name', 'methodology', 'region', 'country'],
  },
] as const satisfies readonly { value: string; label: string; fields: readonly TendencyField[] }[];
export type TendencyType = (typeof TENDENCY_TYPES)[number]['value'];

/** Count: how many of the most frequent values to keep ('all': every value). */
export const TENDENCY_COUNT_OPTIONS = [
  { value: '5', label: 'Top 5' },
  { value: '10', label: 'Top 10' },
  { value: '15', label: 'Top 15' },
  { value: '20', label: 'Top 20' },
  { value: '50', label: 'Top 50' },
  { value: 'all', label: 'All values' },
] as const;
export type TendencyCount = (typeof TENDENCY_COUNT_OPTIONS)[number]['value'];

export function isTendencyType(value: string | null): value is TendencyType {
  return TENDENCY_TYPES.some((type) => type.value === value);
}

export function isTendencyCount(value: string | null): value is TendencyCount {
  return TENDENCY_COUNT_OPTIONS.some((option) => option.value === value);
}

/** The Metadata options of a Metadata Type (none before a type is chosen). */
export function tendencyFieldOptions(type: TendencyType | null): { value: TendencyField; label: string }[] {
  const found = TENDENCY_TYPES.find((entry) => entry.value === type);
  return (found?.fields ?? []).map((field) => ({ value: field, label: TENDENCY_FIELD_LABELS[field] }));
}

export function isTendencyField(type: TendencyType | null, value: string | null): value is TendencyField {
  return tendencyFieldOptions(type).some((option) => option.value === value);
}

export interface TendencySettings {
  count: TendencyCount;
  field: TendencyField;
}

/**
 * The tendencies call of document 3 section 7, from the metric search the page ran: its study filters,
 * `data {return: percentage, groupby: perfume_characteristics.<field>}` and, for a fragrance search,
 * the fragrances it found (frags: a Best-10 search counts its 10), else the chosen ones. The Count setting is applied to the answer
 * (`keptTendencies`), so the call stays as the specification writes it.
 */
export function tendenciesBody(
  search: MetricSearchRequest,
  settings: TendencySettings,
  searched?: readonly SearchedProduct[],
): TendenciesRequest {
  const fragranceSearch = (search.type ?? 'fragrances') === 'fragrances';
  const frags = searched ? [...searched] : search.fragrances;
  return {
    q: search.q,
    data: { return: 'percentage', groupby: `perfume_characteristics.${settings.field}` },
    ...(fragranceSearch && frags ? { frags } : {}),
  };
}

/** The spreadsheet call: the same body, keeping the values the table shows (the Count setting). */
export function tendenciesDownloadBody(body: TendenciesRequest, count: TendencyCount): TendenciesRequest {
  return count === 'all' ? body : { ...body, data: { ...body.data, count: Number(count) } };
}

/** The most frequent values the Count setting keeps (the answer is most frequent first). */
export function keptTendencies<T>(rows: readonly T[], count: TendencyCount): T[] {
  return count === 'all' ? [...rows] : rows.slice(0, Number(count));
}

/** A percentage of fragrances (0 to 100) with one decimal. */
export function formatPercentage(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(1)}%` : '-';
}

/** Chart labels over 18 characters are cut to 15 plus '...' (document 3 section 9). */
export function chartLabel(label: string): string {
  return label.length > 18 ? `${label.slice(0, 15)}...` : label;
}
