/**
 * CSV in the dialect PostgreSQL's COPY ... WITH (FORMAT csv) reads: an unquoted empty field is NULL,
 * text is always quoted (so '' stays an empty string), arrays use the {"a","b"} literal, json is text.
 */

export type PgValue = string | number | boolean | null | undefined | Date | readonly string[] | PgJson;
interface PgJson {
  json: unknown;
}

const quote = (text: string): string => `"${text.replace(/"/g, '""')}"`;

function arrayLiteral(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}

export function pgCsvValue(value: PgValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`Cannot COPY the number ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return quote(arrayLiteral(value as readonly string[]));
  return quote(JSON.stringify((value as PgJson).json));
}

/** Wraps a value that goes into a json/jsonb column. */
export const json = (value: unknown): PgJson => ({ json: value });

export function pgCsvRow(values: readonly PgValue[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) line += ',';
    line += pgCsvValue(values[i]);
  }
  return line + '\n';
}

/** Rows of one table collected for one COPY. */
export class CsvTable {
  private readonly parts: string[] = [];
  private readonly known: ReadonlySet<string>;
  rowCount = 0;

  constructor(
    readonly table: string,
    readonly columns: readonly string[],
  ) {
    this.known = new Set(columns);
  }

  /** Adds one row given by column name; absent columns are NULL, unknown names are a bug. */
  add(row: Readonly<Record<string, PgValue>>): void {
    for (const key of Object.keys(row)) {
      if (!this.known.has(key)) throw new Error(`${this.table} has no column ${key}`);
    }
    this.parts.push(pgCsvRow(this.columns.map((column) => row[column])));
    this.rowCount++;
  }

  /** Appends pre-formatted CSV text holding `rows` rows (in the order of `columns`). */
  addRaw(text: string, rows: number): void {
    this.parts.push(text);
    this.rowCount += rows;
  }

  text(): string {
    return this.parts.join('');
  }
}
