import {
  ATTRIBUTE_AGGREGATIONS,
  ATTRIBUTE_TYPES,
  LOW_BASE,
  type MetricSearchRequest,
  type TopAttributesRequest,
  type TopAttributesStatus,
} from '@accord/contracts';

export type AttributeRow = NonNullable<TopAttributesStatus['result']>['json']['attributes'][number];
export type AttributeAggregation = (typeof ATTRIBUTE_AGGREGATIONS)[number];
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];
export type AttributeOrder = 'best' | 'worst';

/** Default of 'Attributes #' (document 3 section 9). */
export const DEFAULT_ATTRIBUTE_COUNT = 10;
/** The most attributes one run may ask for (the server's limit). */
export const MAX_ATTRIBUTE_COUNT = 1000;

/** What a missing number shows. */
export const MISSING = '-';

export const ATTRIBUTE_TYPE_LABELS: Record<AttributeType, string> = {
  all: 'All attributes',
  hedonic: 'Agreement scales',
  binary: 'Check-all-that-apply (CATA)',
};

export const ATTRIBUTE_AGGREGATION_LABELS: Record<AttributeAggregation, string> = {
  top_2_box: 'Top 2 Box',
  top_box: 'Top Box',
  mean: 'Mean',
  bottom_2_box: 'Bottom 2 Box',
  bottom_box: 'Bottom Box',
};

export const ATTRIBUTE_TYPE_OPTIONS = ATTRIBUTE_TYPES.map((value) => ({
  value,
  label: ATTRIBUTE_TYPE_LABELS[value],
}));
export const ATTRIBUTE_AGGREGATION_OPTIONS = ATTRIBUTE_AGGREGATIONS.map((value) => ({
  value,
  label: ATTRIBUTE_AGGREGATION_LABELS[value],
}));

export function isAttributeType(value: string | null): value is AttributeType {
  return value !== null && (ATTRIBUTE_TYPES as readonly string[]).includes(value);
}

export function isAttributeAggregation(value: string | null): value is AttributeAggregation {
  return value !== null && (ATTRIBUTE_AGGREGATIONS as readonly string[]).includes(value);
}

/** 'Attributes #' must be a whole number from 1 to the server's limit; the message says why not. */
export function attributeCountError(value: string | number): string | null {
  const number = typeof value === 'number' ? value : Number(value);
  if (value === '' || !Number.isFinite(number)) return 'Enter the number of attributes';
  if (!Number.isInteger(number)) return 'Enter a whole number';
  if (number < 1) return 'Enter at least 1';
  if (number > MAX_ATTRIBUTE_COUNT) return `Enter at most ${MAX_ATTRIBUTE_COUNT}`;
  return null;
}

/** A row of the metric search, as the chosen products (frags) of the attributes and tendencies calls. */
export interface SearchedProduct {
  id: number;
  c_mi_number: string;
  prod: string;
}

export interface AttributeSettings {
  order: AttributeOrder;
  count: number;
  attributeType: AttributeType;
  aggregation: AttributeAggregation;
}

/**
 * The top attributes body from the metric search the page ran: its study and respondent filters, its
 * results-table demographic conditions and, for a fragrance search, the fragrances it found
 * (`searched`: a Best-10 search pools its 10, document 3 section 7), else the chosen ones.
 */
export function topAttributesBody(
  search: MetricSearchRequest,
  settings: AttributeSettings,
  searched?: readonly SearchedProduct[],
): TopAttributesRequest {
  const fragranceSearch = (search.type ?? 'fragrances') === 'fragrances';
  const frags = searched ? [...searched] : search.fragrances;
  return {
    q: search.q,
    demographics: search.demographics_fragrances ?? [],
    ...(fragranceSearch && frags ? { frags } : {}),
    data: {
      order: settings.order,
      count: settings.count,
      attribute_type: settings.attributeType,
      aggregation: settings.aggregation,
    },
  };
}

/** A box share in [0, 1] as a rounded percentage, a mean with 2 decimals, '-' when missing. */
export function formatAttributeValue(value: number | null | undefined, key: AttributeAggregation): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING;
  if (key === 'mean') return value.toFixed(2);
  return `${Math.round(value * 100)}%`;
}

export interface BarSegment {
  key: 'top_2_box' | 'neither' | 'bottom_2_box';
  label: string;
  /** Percent of the bar, 0 to 100. */
  percent: number;
}

export const SEGMENT_LABELS: Record<BarSegment['key'], string> = {
  top_2_box: 'T2B',
  neither: 'Neither/Nor',
  bottom_2_box: 'B2B',
};

/**
 * The Top 2 Box / Bottom 2 Box bar of a row: T2B, Neither/Nor (the rest) and B2B in percent,
 * rounded so that they add up to 100; empty when the row has neither box.
 */
export function barSegments(row: Pick<AttributeRow, 'top_2_box' | 'bottom_2_box'>): BarSegment[] {
  if (row.top_2_box === null && row.bottom_2_box === null) return [];
  const top = clampShare(row.top_2_box ?? 0);
  const bottom = Math.min(clampShare(row.bottom_2_box ?? 0), 1 - top);
  const topPercent = Math.round(top * 100);
  const bottomPercent = Math.min(Math.round(bottom * 100), 100 - topPercent);
  return [
    { key: 'top_2_box', label: SEGMENT_LABELS.top_2_box, percent: topPercent },
    { key: 'neither', label: SEGMENT_LABELS.neither, percent: 100 - topPercent - bottomPercent },
    { key: 'bottom_2_box', label: SEGMENT_LABELS.bottom_2_box, percent: bottomPercent },
  ];
}

function clampShare(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

/** The bar read out as text: 'T2B 45%, Neither/Nor 30%, B2B 25%'. */
export function barText(segments: BarSegment[]): string {
  if (segments.length === 0) return 'No box values';
  return segments.map((segment) => `${segment.label} ${segment.percent}%`).join(', ');
}

/** The base of a row as hover text, flagged when it is a low base. */
export function attributeBaseText(row: Pick<AttributeRow, 'n'>): string {
  return row.n < LOW_BASE ? `Base: n = ${row.n} (low base, below ${LOW_BASE})` : `Base: n = ${row.n}`;
}

/** A CATA attribute carries '*' (harmonised to 1 or 5, so it has no neutral answers). */
export function attributeLabel(row: Pick<AttributeRow, 'attribute' | 'is_binary_scale'>): string {
  return row.is_binary_scale ? `${row.attribute}*` : row.attribute;
}

export type AttributeSortKey = 'attribute' | 'bar' | 'mean' | 'top_box' | 'bottom_box';
export interface AttributeSort {
  key: AttributeSortKey;
  direction: 'asc' | 'desc';
}

export const ATTRIBUTE_COLUMNS: { key: AttributeSortKey; label: string }[] = [
  { key: 'attribute', label: 'Attributes' },
  { key: 'bar', label: 'Top 2 Box / Bottom 2 Box' },
  { key: 'mean', label: 'Mean' },
  { key: 'top_box', label: 'Top Box' },
  { key: 'bottom_box', label: 'Bot. Box' },
];

function sortValue(row: AttributeRow, key: AttributeSortKey): number | string | null {
  if (key === 'attribute') return row.attribute;
  if (key === 'bar') return row.top_2_box;
  return row[key];
}

/**
 * The rows in the chosen column order (the bar sorts by its T2B share); without a sort, the ranking
 * the server answered. Missing numbers go last either way; ties keep the ranking.
 */
export function sortAttributes(rows: AttributeRow[], sort: AttributeSort | null): AttributeRow[] {
  if (!sort) return rows;
  const sign = sort.direction === 'asc' ? 1 : -1;
  return rows
    .map((row, rank) => ({ row, rank }))
    .sort((left, right) => {
      const a = sortValue(left.row, sort.key);
      const b = sortValue(right.row, sort.key);
      if (a === null && b === null) return left.rank - right.rank;
      if (a === null) return 1;
      if (b === null) return -1;
      const order =
        typeof a === 'string' && typeof b === 'string'
          ? a.localeCompare(b, 'en-GB', { sensitivity: 'base' })
          : Number(a) - Number(b);
      return order === 0 ? left.rank - right.rank : sign * order;
    })
    .map((entry) => entry.row);
}

/** The next sort after a click on a column: descending numbers or ascending names first, then the other way. */
export function nextSort(current: AttributeSort | null, key: AttributeSortKey): AttributeSort {
  const first = key === 'attribute' ? 'asc' : 'desc';
  if (!current || current.key !== key) return { key, direction: first };
  return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
}
