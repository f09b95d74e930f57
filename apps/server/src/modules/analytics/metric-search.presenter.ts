/**
 * The answer of a metric search as the JSON text the API sends (MetricSearchResult). A search of every
 * fragrance has tens of thousands of rows (5-7 MB of JSON): the text is written once, straight from
 * the computed values, with each product's fields written once per product list, and the same text is
 * stored in the job row and sent to every poll; it is parsed only where its content is read again.
 */
import { LOW_BASE, type MetricSearchResult } from '@accord/contracts';
import type { ProductRecord } from './analytics.repository.ts';

/** The result rows as computed: values and bases per column, rows as positions in `products`. */
export interface ComputedRows {
  products: readonly ProductRecord[];
  /** Per column, the value of each product (NaN: no value). */
  values: Float64Array[];
  /** Per column, the answers counted for each product. */
  bases: Int32Array[];
  /** The positions of the rows of the answer, in their order. */
  order: readonly number[] | Int32Array;
}

/** The fields of MetricResultRow before its values: one product's, in the answer's order. */
export const productFields = (product: ProductRecord) => ({
  id: product.id,
  study_id: product.studyId,
  c_mi_number: product.cMiNumber,
  category: product.category,
  product: product.productType,
  name: product.name,
  prod: product.code,
  ...(product.sapCode ? { sap_code: product.sapCode } : {}),
  kind: product.kind,
});

/** A row's product fields, kept for as long as the (cached) product record lives. */
const productHeads = new WeakMap<ProductRecord, string>();

/** `{"id":...,"kind":"..."` of a product: the fields of MetricResultRow before its values. */
export function productHead(product: ProductRecord): string {
  let head = productHeads.get(product);
  if (head === undefined) {
    head = JSON.stringify(productFields(product)).slice(0, -1);
    productHeads.set(product, head);
  }
  return head;
}

/** A value as JSON writes it (NaN, meaning no value, and infinities as null). */
const jsonNumber = (value: number) => (Number.isFinite(value) ? String(value) : 'null');

/**
 * The JSON text of a search's answer, `results` written from the computed rows; the other parts are
 * small and written by JSON.stringify. Parsing it gives the MetricSearchResult (a column key chosen
 * twice appears once in each row's values and bases, as in an object); `low_base` lists the keys
 * whose base is above 0 and below LOW_BASE.
 */
export function metricSearchJson(answer: Omit<MetricSearchResult, 'results'>, rows: ComputedRows): string {
  const results = resultsJson(answer.columns, rows, (position) => productHead(rows.products[position]!));
  const rest = JSON.stringify(answer);
  return `{"results":[${results}],${rest.slice(1)}`;
}

/**
 * The rows of `results` (without the brackets) from the computed values and bases, each product's
 * fields (productHead) from `headAt`: a worker thread has the heads, not the product records.
 */
export function resultsJson(
  answerColumns: MetricSearchResult['columns'],
  rows: Omit<ComputedRows, 'products'>,
  headAt: (position: number) => string,
): string {
  // The first column of each key, with its key as JSON, in column order.
  const seen = new Set<string>();
  const columns: { values: Float64Array; bases: Int32Array; key: string; json: string }[] = [];
  answerColumns.forEach((column, index) => {
    if (seen.has(column.key)) return;
    seen.add(column.key);
    columns.push({
      values: rows.values[index]!,
      bases: rows.bases[index]!,
      key: column.key,
      json: JSON.stringify(column.key),
    });
  });
  const lowBaseJson = new Map<string, string>();
  const parts: string[] = [];
  for (const position of rows.order) {
    let values = '';
    let bases = '';
    let lowBase: string[] | null = null;
    for (const column of columns) {
      const separator = values === '' ? '' : ',';
      const base = column.bases[position]!;
      values += `${separator}${column.json}:${jsonNumber(column.values[position]!)}`;
      bases += `${separator}${column.json}:${base}`;
      if (base > 0 && base < LOW_BASE) (lowBase ??= []).push(column.key);
    }
    let lowBaseText = '[]';
    if (lowBase) {
      const key = lowBase.join('\u0000');
      lowBaseText = lowBaseJson.get(key) ?? JSON.stringify(lowBase);
      lowBaseJson.set(key, lowBaseText);
    }
    parts.push(`${headAt(position)},"values":{${values}},"bases":{${bases}},"low_base":${lowBaseText}}`);
  }
  return parts.join(',');
}
