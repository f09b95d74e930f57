/**
 * The answer of a metric search as the JSON the API sends (MetricSearchResult). A search of every
 * fragrance has tens of thousands of rows (5-7 MB of JSON): its bytes are written once, straight from
 * the computed columns into buffers (no row object, no string of the whole answer), with each
 * product's fields written once per product list; the result store keeps them and every poll is sent
 * the same bytes. They are parsed only where their content is read again.
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

/** Bytes of each buffer the writer fills before starting the next. */
const CHUNK_BYTES = 1 << 20;

/**
 * Writes JSON text as UTF-8 into buffers of a megabyte, joined into one buffer of the exact length at
 * the end: no string of the whole answer is made, and the bytes need no encoding when sent.
 */
class JsonBytes {
  private readonly full: Buffer[] = [];
  private chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  private at = 0;
  private length = 0;

  write(text: string): void {
    // UTF-8 takes at most three bytes for a UTF-16 unit (a pair takes four for two).
    const room = text.length * 3;
    if (this.at + room > this.chunk.length) {
      this.full.push(this.chunk.subarray(0, this.at));
      this.length += this.at;
      this.chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, room));
      this.at = 0;
    }
    this.at += this.chunk.write(text, this.at, 'utf8');
  }

  done(): Buffer {
    this.full.push(this.chunk.subarray(0, this.at));
    return Buffer.concat(this.full, this.length + this.at);
  }
}

/**
 * The JSON text of a search's answer as UTF-8 bytes, `results` written row by row from the computed
 * rows, the other parts (small) by JSON.stringify; `before` and `after` are written around it (the
 * status answer's head and end). Parsing it gives the MetricSearchResult (a column key chosen twice
 * appears once in each row's values and bases, as in an object); `low_base` lists the keys whose
 * base is above 0 and below LOW_BASE. The bytes are those of JSON.stringify of the answer's object.
 */
export function metricSearchBytes(
  answer: Omit<MetricSearchResult, 'results'>,
  rows: ComputedRows,
  around: { before?: string; after?: string } = {},
): Buffer {
  const out = new JsonBytes();
  out.write(`${around.before ?? ''}{"results":[`);
  let first = true;
  eachResultJson(
    answer.columns,
    rows,
    (position) => productHead(rows.products[position]!),
    (row) => {
      out.write(first ? row : `,${row}`);
      first = false;
    },
  );
  out.write(`],${JSON.stringify(answer).slice(1)}${around.after ?? ''}`);
  return out.done();
}

/**
 * Each row of `results` as its JSON text, from the computed values and bases, in the rows' order;
 * each product's fields (productHead) from `headAt`.
 */
function eachResultJson(
  answerColumns: MetricSearchResult['columns'],
  rows: Omit<ComputedRows, 'products'>,
  headAt: (position: number) => string,
  emit: (row: string) => void,
): void {
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
    emit(`${headAt(position)},"values":{${values}},"bases":{${bases}},"low_base":${lowBaseText}}`);
  }
}
