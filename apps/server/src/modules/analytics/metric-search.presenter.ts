/**
 * The answer of a metric search as the JSON text the API sends (MetricSearchResult). A search of every
 * fragrance has tens of thousands of rows (5-7 MB of JSON): the text is written once, straight from
 * the computed values, with each product's fields written once per product list, and the same text is
 * stored in the job row and sent to every poll; it is parsed only where its content is read again.
 */
import type { MetricSearchResult } from '@accord/contracts';
import type { ProductRecord } from './analytics.repository.ts';

/** A result row while it is computed: the product and its values and bases in column order. */
export interface ComputedRow {
  product: ProductRecord;
  values: (number | null)[];
  bases: number[];
  /** Keys of the columns whose base is above 0 and below LOW_BASE. */
  lowBase: string[];
}

/** A row's product fields, kept for as long as the (cached) product record lives. */
const productHeads = new WeakMap<ProductRecord, string>();

/** `{"id":...,"kind":"..."` of a product: the fields of MetricResultRow before its values. */
function productHead(product: ProductRecord): string {
  let head = productHeads.get(product);
  if (head === undefined) {
    head = JSON.stringify({
      id: product.id,
      study_id: product.studyId,
      c_mi_number: product.cMiNumber,
      category: product.category,
      product: product.productType,
      name: product.name,
      prod: product.code,
      kind: product.kind,
    }).slice(0, -1);
    productHeads.set(product, head);
  }
  return head;
}

/** A number as JSON writes it (NaN and infinities as null). */
const jsonNumber = (value: number | null) =>
  value === null || !Number.isFinite(value) ? 'null' : String(value);

/**
 * The JSON text of a search's answer, `results` written from the computed rows; the other parts are
 * small and written by JSON.stringify. Parsing it gives the MetricSearchResult (a column key chosen
 * twice appears once in each row's values and bases, as in an object).
 */
export function metricSearchJson(
  answer: Omit<MetricSearchResult, 'results'>,
  rows: readonly ComputedRow[],
): string {
  // The first column of each key, with its key as JSON, in column order.
  const seen = new Set<string>();
  const columns: { index: number; key: string }[] = [];
  answer.columns.forEach((column, index) => {
    if (seen.has(column.key)) return;
    seen.add(column.key);
    columns.push({ index, key: JSON.stringify(column.key) });
  });
  const lowBaseJson = new Map<string, string>();
  const parts: string[] = [];
  for (const row of rows) {
    let values = '';
    let bases = '';
    for (const column of columns) {
      const separator = values === '' ? '' : ',';
      values += `${separator}${column.key}:${jsonNumber(row.values[column.index] ?? null)}`;
      bases += `${separator}${column.key}:${jsonNumber(row.bases[column.index] ?? 0)}`;
    }
    let lowBase = '[]';
    if (row.lowBase.length > 0) {
      const key = row.lowBase.join('\u0000');
      lowBase = lowBaseJson.get(key) ?? JSON.stringify(row.lowBase);
      lowBaseJson.set(key, lowBase);
    }
    parts.push(`${productHead(row.product)},"values":{${values}},"bases":{${bases}},"low_base":${lowBase}}`);
  }
  const rest = JSON.stringify(answer);
  return `{"results":[${parts.join(',')}],${rest.slice(1)}`;
}
