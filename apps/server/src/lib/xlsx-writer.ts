/**
 * A streaming writer of one-sheet xlsx workbooks: the sheet's XML is written row by row straight into
 * a zip stream (deflated by zlib off the JavaScript thread, the zip container and its CRC-32 written
 * here), so a file of any length costs its rows' text and nothing per cell beyond it, and memory
 * stays flat. It knows what the report workbooks use (lib/xlsx-writer-report.ts): text and numbers,
 * a small set of shared cell looks (fonts, a solid fill, thin borders, number formats, alignment),
 * column widths, row heights, a frozen pane, merged cells, an autofilter, the print set-up and a page
 * footer. Workbooks that need more (several sheets, charts, formulas) are written with exceljs.
 */
import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';
import zlib from 'node:zlib';
import type ExcelJS from 'exceljs';

// ------------------------------------------------------------------------------------ zip container

/** CRC-32 of the zip format (zlib's, native). */
const crc32 = (data: Uint8Array, previous: number): number => zlib.crc32(data, previous);

/** The MS-DOS time and date a zip entry carries. */
function dosDateTime(date: Date): { time: number; day: number } {
  const year = Math.max(date.getUTCFullYear(), 1980);
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | Math.floor(date.getUTCSeconds() / 2),
    day: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

interface ZipEntry {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** Deflate level of the sheet: zlib's fastest, a third larger than its default at a third of its time. */
const SHEET_LEVEL = 1;

/**
 * A zip archive written entry after entry into `output`: each entry deflated, its CRC and sizes in a
 * data descriptor after its data (so an entry streams without being held), the central directory at
 * the end. Sizes stay below 4 GB (no zip64), which a report never reaches.
 */
class ZipWriter {
  private readonly entries: ZipEntry[] = [];
  private offset = 0;
  private readonly stamp: { time: number; day: number };

  constructor(
    private readonly output: Writable,
    date: Date,
  ) {
    this.stamp = dosDateTime(date);
  }

  /** Writes to the output, waiting while it is full (a slow reader holds the writer, not memory). */
  private async put(bytes: Buffer): Promise<void> {
    this.offset += bytes.length;
    if (this.output.destroyed) throw new Error('The workbook’s reader went away.');
    if (!this.output.write(bytes)) await drained(this.output);
  }

  private localHeader(name: Buffer): Buffer {
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4); // version needed: deflate
    header.writeUInt16LE(0x0808, 6); // sizes in a data descriptor; UTF-8 names
    header.writeUInt16LE(8, 8); // deflate
    header.writeUInt16LE(this.stamp.time, 10);
    header.writeUInt16LE(this.stamp.day, 12);
    // CRC and sizes (14-25) follow the data.
    header.writeUInt16LE(name.length, 26);
    return Buffer.concat([header, name]);
  }

  private async descriptor(entry: ZipEntry): Promise<void> {
    const bytes = Buffer.alloc(16);
    bytes.writeUInt32LE(0x08074b50, 0);
    bytes.writeUInt32LE(entry.crc >>> 0, 4);
    bytes.writeUInt32LE(entry.compressed, 8);
    bytes.writeUInt32LE(entry.size, 12);
    await this.put(bytes);
    this.entries.push(entry);
  }

  /** A small entry written in one piece. */
  async file(name: string, text: string): Promise<void> {
    const entry: ZipEntry = { name: Buffer.from(name), crc: 0, compressed: 0, size: 0, offset: this.offset };
    const data = Buffer.from(text);
    const compressed = zlib.deflateRawSync(data);
    entry.crc = crc32(data, 0);
    entry.size = data.length;
    entry.compressed = compressed.length;
    await this.put(this.localHeader(entry.name));
    await this.put(compressed);
    await this.descriptor(entry);
  }

  /**
   * An entry written in pieces: `write` deflates a piece (waiting while zlib or the output is behind),
   * `end` closes the entry.
   */
  async stream(name: string): Promise<{ write(data: string | Buffer): Promise<void>; end(): Promise<void> }> {
    const entry: ZipEntry = { name: Buffer.from(name), crc: 0, compressed: 0, size: 0, offset: this.offset };
    await this.put(this.localHeader(entry.name));
    const deflate = zlib.createDeflateRaw({ level: SHEET_LEVEL, memLevel: 9 });
    let failure: Error | null = null;
    let pending: Promise<void> = Promise.resolve();
    deflate.on('data', (chunk: Buffer) => {
      entry.compressed += chunk.length;
      this.offset += chunk.length;
      if (this.output.destroyed) {
        failure ??= new Error('The workbook’s reader went away.');
        return;
      }
      if (!this.output.write(chunk)) {
        deflate.pause();
        pending = drained(this.output).then(
          () => void deflate.resume(),
          (error: unknown) => void (failure ??= error as Error),
        );
      }
    });
    const ended = new Promise<void>((resolve, reject) => {
      deflate.on('end', resolve);
      deflate.on('error', reject);
    });
    ended.catch(() => undefined);
    return {
      write: async (piece: string | Buffer) => {
        if (failure) throw failure;
        const data = typeof piece === 'string' ? Buffer.from(piece) : piece;
        entry.crc = crc32(data, entry.crc);
        entry.size += data.length;
        if (!deflate.write(data)) await drained(deflate);
        await pending;
        if (failure) throw failure;
      },
      end: async () => {
        deflate.end();
        await ended;
        await pending;
        if (failure) throw failure;
        await this.descriptor(entry);
      },
    };
  }

  /** The central directory and its end record; ends the output. */
  async close(): Promise<void> {
    const start = this.offset;
    const records = this.entries.map((entry) => {
      const record = Buffer.alloc(46);
      record.writeUInt32LE(0x02014b50, 0);
      record.writeUInt16LE(20, 4); // made by: version 2.0
      record.writeUInt16LE(20, 6);
      record.writeUInt16LE(0x0808, 8);
      record.writeUInt16LE(8, 10);
      record.writeUInt16LE(this.stamp.time, 12);
      record.writeUInt16LE(this.stamp.day, 14);
      record.writeUInt32LE(entry.crc >>> 0, 16);
      record.writeUInt32LE(entry.compressed, 20);
      record.writeUInt32LE(entry.size, 24);
      record.writeUInt16LE(entry.name.length, 28);
      record.writeUInt32LE(entry.offset, 42);
      return Buffer.concat([record, entry.name]);
    });
    const directory = Buffer.concat(records);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(start, 16);
    await this.put(Buffer.concat([directory, end]));
    this.output.end();
  }
}

/** Resolves when a full stream has room again; rejects if it ends or fails first. */
function drained(stream: Writable | zlib.DeflateRaw): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: unknown) => {
      stream.off('drain', room);
      stream.off('close', closed);
      stream.off('error', done);
      if (error) reject(error instanceof Error ? error : new Error(String(error)));
      else resolve();
    };
    const room = () => done();
    const closed = () => done(new Error('The workbook’s reader went away.'));
    stream.on('drain', room);
    stream.on('close', closed);
    stream.on('error', done);
  });
}

// ------------------------------------------------------------------------------------ XML text

// XML 1.0 holds no control characters but tab, line feed and carriage return.
// eslint-disable-next-line no-control-regex
const SPECIAL = /[&<>"\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
// eslint-disable-next-line no-control-regex
const SPECIALS = /[&<>"\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Text as XML character data or an attribute value; characters XML cannot hold are dropped. */
export function xmlText(text: string): string {
  if (!SPECIAL.test(text)) return text;
  return text.replace(SPECIALS, (character) => ENTITIES[character] ?? '');
}

/** The style attribute of a look (none for the default). */
const lookOf = (style: number) => (style === 0 ? '' : ` s="${style}"`);

/** Column letters of a 1-based column number (1 -> A, 27 -> AA). */
function letters(column: number): string {
  let name = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

// ------------------------------------------------------------------------------------ cell looks

/** A cell's look, as exceljs describes it (the parts this writer knows). */
export type XlsxStyle = Pick<Partial<ExcelJS.Style>, 'numFmt' | 'font' | 'fill' | 'border' | 'alignment'>;

/** Excel's built-in formats among those the reports use (any other is added as a custom format). */
const BUILT_IN_FORMATS: Record<string, number> = {
  General: 0,
  '0': 1,
  '0.00': 2,
  '#,##0': 3,
  '#,##0.00': 4,
  '0%': 9,
  '0.00%': 10,
  '0.00E+00': 11,
};

/** The face every cell reads in unless its look says otherwise (Excel's default). */
const DEFAULT_FONT =
  '<font><sz val="11"/><color theme="1"/><name val="Calibri"/><family val="2"/><scheme val="minor"/></font>';

function colourXml(tag: string, colour: Partial<ExcelJS.Color> | undefined): string {
  if (!colour) return '';
  if (colour.argb) return `<${tag} rgb="${xmlText(colour.argb)}"/>`;
  if (colour.theme !== undefined) return `<${tag} theme="${colour.theme}"/>`;
  return '';
}

function fontXml(font: Partial<ExcelJS.Font>): string {
  return (
    '<font>' +
    (font.bold ? '<b/>' : '') +
    (font.italic ? '<i/>' : '') +
    (font.underline ? '<u/>' : '') +
    (font.strike ? '<strike/>' : '') +
    (font.size !== undefined ? `<sz val="${font.size}"/>` : '') +
    colourXml('color', font.color) +
    (font.name ? `<name val="${xmlText(font.name)}"/>` : '') +
    (font.family !== undefined ? `<family val="${font.family}"/>` : '') +
    '</font>'
  );
}

function fillXml(fill: ExcelJS.Fill): string {
  if (fill.type !== 'pattern') throw new Error('Only pattern fills are written.');
  return (
    `<fill><patternFill patternType="${fill.pattern}">` +
    colourXml('fgColor', fill.fgColor) +
    colourXml('bgColor', fill.bgColor) +
    '</patternFill></fill>'
  );
}

function borderXml(border: Partial<ExcelJS.Borders>): string {
  const side = (name: 'left' | 'right' | 'top' | 'bottom') => {
    const line = border[name];
    if (!line?.style) return `<${name}/>`;
    return `<${name} style="${line.style}">${colourXml('color', line.color)}</${name}>`;
  };
  return `<border>${side('left')}${side('right')}${side('top')}${side('bottom')}<diagonal/></border>`;
}

function alignmentXml(alignment: Partial<ExcelJS.Alignment>): string {
  const attributes = [
    alignment.horizontal ? ` horizontal="${alignment.horizontal}"` : '',
    alignment.vertical ? ` vertical="${alignment.vertical}"` : '',
    alignment.wrapText ? ' wrapText="1"' : '',
  ].join('');
  return attributes ? `<alignment${attributes}/>` : '';
}

/**
 * The workbook's cell looks: each distinct look one entry (cellXfs), its font, fill, border and
 * number format entries shared. Index 0 is the default look.
 */
class StyleTable {
  private readonly fonts = new Map<string, number>([[DEFAULT_FONT, 0]]);
  private readonly fills = new Map<string, number>([
    ['<fill><patternFill patternType="none"/></fill>', 0],
    ['<fill><patternFill patternType="gray125"/></fill>', 1],
  ]);
  private readonly borders = new Map<string, number>([[borderXml({}), 0]]);
  private readonly formats = new Map<string, number>();
  private readonly looks = new Map<string, number>([
    ['<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>', 0],
  ]);
  /** Looks already seen as objects: a report passes the same shared objects again and again. */
  private readonly known = new WeakMap<XlsxStyle, number>();

  private static id(table: Map<string, number>, xml: string): number {
    let id = table.get(xml);
    if (id === undefined) {
      id = table.size;
      table.set(xml, id);
    }
    return id;
  }

  private formatId(format: string): number {
    const builtIn = BUILT_IN_FORMATS[format];
    if (builtIn !== undefined) return builtIn;
    let id = this.formats.get(format);
    if (id === undefined) {
      id = 164 + this.formats.size;
      this.formats.set(format, id);
    }
    return id;
  }

  /** The index of a look (0 for none). */
  indexOf(style: XlsxStyle | undefined): number {
    if (!style) return 0;
    const seen = this.known.get(style);
    if (seen !== undefined) return seen;
    const format = style.numFmt ? this.formatId(style.numFmt) : 0;
    const font = style.font ? StyleTable.id(this.fonts, fontXml(style.font)) : 0;
    const fill = style.fill ? StyleTable.id(this.fills, fillXml(style.fill)) : 0;
    const border = style.border ? StyleTable.id(this.borders, borderXml(style.border)) : 0;
    const alignment = style.alignment ? alignmentXml(style.alignment) : '';
    const xml =
      `<xf numFmtId="${format}" fontId="${font}" fillId="${fill}" borderId="${border}" xfId="0"` +
      (format ? ' applyNumberFormat="1"' : '') +
      (font ? ' applyFont="1"' : '') +
      (fill ? ' applyFill="1"' : '') +
      (border ? ' applyBorder="1"' : '') +
      (alignment ? ` applyAlignment="1">${alignment}</xf>` : '/>');
    const index = StyleTable.id(this.looks, xml);
    this.known.set(style, index);
    return index;
  }

  xml(): string {
    const list = (tag: string, table: Map<string, number>) =>
      `<${tag} count="${table.size}">${[...table.keys()].join('')}</${tag}>`;
    const formats = [...this.formats].map(
      ([code, id]) => `<numFmt numFmtId="${id}" formatCode="${xmlText(code)}"/>`,
    );
    return (
      XML_DECLARATION +
      `<styleSheet xmlns="${MAIN_NS}">` +
      (formats.length ? `<numFmts count="${formats.length}">${formats.join('')}</numFmts>` : '') +
      list('fonts', this.fonts) +
      list('fills', this.fills) +
      list('borders', this.borders) +
      '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
      list('cellXfs', this.looks) +
      '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
      '<dxfs count="0"/><tableStyles count="0"/></styleSheet>'
    );
  }
}

// ------------------------------------------------------------------------------------ the workbook

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** The Office theme exceljs ships (the default font's colour and the minor font scheme refer to it). */
const THEME: string = (createRequire(import.meta.url)('exceljs/lib/xlsx/xml/theme1.js') as string).trim();

/** What the workbook says of itself (File > Properties). */
export interface XlsxProperties {
  creator: string;
  title: string;
  created: Date;
}

/** The one sheet's set-up: everything the sheet's XML says before and after its rows. */
export interface XlsxSheetSetup {
  name: string;
  /** Column widths in characters, column A first. */
  widths: readonly number[];
  /** The frozen pane: rows and columns held above and left of topLeftCell. */
  frozen?: { rows: number; columns: number; topLeftCell: string; activeCell: string };
  showGridLines?: boolean;
  /** The autofilter's range, e.g. A6:Q6. */
  autoFilter?: string;
  page: {
    orientation: 'landscape' | 'portrait';
    paperSize: number;
    /** Fit to pages (fitToWidth by fitToHeight pages, 0 for as many as needed) or print at `scale` %. */
    fit?: { width: number; height: number };
    scale?: number;
    margins: { left: number; right: number; top: number; bottom: number; header: number; footer: number };
    /** Rows (e.g. 6:6) and columns (A:B) printed on every page. */
    titleRows?: string;
    titleColumns?: string;
  };
  /** The page footer in Excel's header/footer codes (&L, &R, &P, &N; a literal & doubled). */
  footer?: string;
}

/** A cell of a row: its 1-based column, its value (null: the look alone) and its look. */
export type XlsxValue = string | number | null;

/**
 * The sheet's XML as bytes, written where it is made: a cell's markup is ASCII (references, look
 * numbers, shared-string indexes, numbers' digits), so it goes into a buffer byte by byte rather than
 * into a string that is concatenated cell by cell, flattened and encoded again at each piece (half
 * the time of a large export went to that). Full buffers wait in `ready` until they are deflated;
 * each is handed to zlib as it is (no copy) and a fresh one is started.
 */
class SheetBytes {
  /** Bytes of a buffer; a piece of text longer than a quarter of it is written apart. */
  private static readonly SIZE = 1 << 17;
  private buffer = Buffer.allocUnsafe(SheetBytes.SIZE);
  private at = 0;
  private readonly ready: Buffer[] = [];
  private readyBytes = 0;

  /** Bytes written and not yet taken. */
  get length(): number {
    return this.readyBytes + this.at;
  }

  /** Makes room for `bytes` more (the current buffer goes to `ready` when it lacks it). */
  private room(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    if (this.at > 0) {
      this.ready.push(this.buffer.subarray(0, this.at));
      this.readyBytes += this.at;
    }
    this.buffer = Buffer.allocUnsafe(Math.max(SheetBytes.SIZE, bytes));
    this.at = 0;
  }

  /** A text of ASCII characters only (markup, digits). */
  ascii(text: string): void {
    const length = text.length;
    this.room(length);
    const buffer = this.buffer;
    let at = this.at;
    for (let index = 0; index < length; index += 1) buffer[at++] = text.charCodeAt(index);
    this.at = at;
  }

  /** Any text, as UTF-8. */
  text(text: string): void {
    this.room(text.length * 3);
    this.at += this.buffer.write(text, this.at, 'utf8');
  }

  /** A number as JavaScript writes it (`${value}`): whole numbers digit by digit. */
  number(value: number): void {
    if (!Number.isInteger(value) || value >= 1e15 || value <= -1e15) {
      this.ascii(String(value));
      return;
    }
    this.room(17);
    const buffer = this.buffer;
    let rest = value;
    if (rest < 0) {
      buffer[this.at++] = 45; // -
      rest = -rest;
    }
    let digits = 1;
    for (let power = 10; power <= rest; power *= 10) digits += 1;
    let at = this.at + digits;
    this.at = at;
    do {
      const next = Math.floor(rest / 10);
      buffer[--at] = 48 + (rest - next * 10);
      rest = next;
    } while (rest > 0);
  }

  /** Takes the bytes written so far, in pieces. */
  take(): Buffer[] {
    if (this.at > 0) {
      this.ready.push(this.buffer.subarray(0, this.at));
      this.buffer = Buffer.allocUnsafe(SheetBytes.SIZE);
      this.at = 0;
    }
    const pieces = this.ready.splice(0);
    this.readyBytes = 0;
    return pieces;
  }
}

/**
 * Writes one workbook of one sheet into `output`: `start` with the sheet's set-up, then the rows in
 * order (row numbers rising; skipped rows stay empty), `merge` ranges at any time, then `finish`,
 * which ends the output.
 */
export class XlsxWriter {
  private readonly zip: ZipWriter;
  private readonly styles = new StyleTable();
  private readonly merges: string[] = [];
  private sheet: Awaited<ReturnType<ZipWriter['stream']>> | null = null;
  private setup: XlsxSheetSetup | null = null;
  private readonly bytes = new SheetBytes();
  /** Whether a row is open (its end tag not yet written). */
  private open = false;
  /** Each look's attributes before a number's and a shared text's value, made once. */
  private readonly numberLooks: string[] = [];
  private readonly textLooks: string[] = [];
  /** `<c r="B` of each column, and the row number and quote that close a reference. */
  private cellStarts: string[] = [];
  private rowReference = '';
  /** The column a cell without a reference takes: the one after the row's last cell (0: none). */
  private nextColumn = 0;
  private lastRow = 0;
  /**
   * The texts of the sheet, each once (the shared strings): a report repeats its categories, clients
   * and projects row after row, so the sheet's XML is a third as long and deflates in a third of the time.
   */
  private readonly strings = new Map<string, number>();
  /**
   * Each column's last text and its index: rows of one study repeat its texts (client, project,
   * category) row after row, and comparing with the last one costs less than a lookup.
   */
  private readonly lastTexts: (string | undefined)[] = [];
  private readonly lastIndexes: number[] = [];
  /**
   * Each column's texts and their indexes while it has few (categories, countries, families): a
   * small table answers from the processor's cache, where the table of every text of a large export
   * (tens of thousands) is read from memory at each look-up. Null for a column with more.
   */
  private readonly columnTexts: (Map<string, number> | null | undefined)[] = [];
  private static readonly FEW_TEXTS = 512;

  /** Bytes of sheet XML gathered before they are deflated. */
  private static readonly PIECE = 1 << 16;

  constructor(
    output: Writable,
    private readonly properties: XlsxProperties,
  ) {
    this.zip = new ZipWriter(output, properties.created);
  }

  /** The index of a cell look, for `cell`. */
  style(style: XlsxStyle | undefined): number {
    return this.styles.indexOf(style);
  }

  async start(setup: XlsxSheetSetup): Promise<void> {
    this.setup = setup;
    this.cellStarts = setup.widths.map((_, index) => `<c r="${letters(index + 1)}`);
    await this.zip.file('[Content_Types].xml', contentTypes());
    await this.zip.file('_rels/.rels', packageRelations());
    await this.zip.file('docProps/core.xml', coreProperties(this.properties));
    await this.zip.file('docProps/app.xml', appProperties(setup.name));
    this.sheet = await this.zip.stream('xl/worksheets/sheet1.xml');
    this.bytes.text(sheetHead(setup));
  }

  /** Starts row `number` (1-based, after the last), with a height in points when set. */
  row(number: number, height?: number): void {
    if (number <= this.lastRow) throw new Error(`Row ${number} comes after row ${this.lastRow}.`);
    const bytes = this.bytes;
    if (this.open) bytes.ascii('</row>');
    bytes.ascii('<row r="');
    bytes.number(number);
    if (height === undefined) bytes.ascii('">');
    else {
      bytes.ascii('" ht="');
      bytes.number(height);
      bytes.ascii('" customHeight="1">');
    }
    this.open = true;
    this.nextColumn = 0;
    this.rowReference = `${number}"`;
    this.lastRow = number;
  }

  /** A cell of the current row: columns in rising order; a null value with look 0 writes nothing. */
  cell(column: number, value: XlsxValue, style: number): void {
    const bytes = this.bytes;
    if (typeof value === 'string' && value !== '') {
      let index: number | undefined;
      if (this.lastTexts[column] === value) index = this.lastIndexes[column]!;
      else {
        const few = this.columnTexts[column];
        index = few?.get(value);
        if (index === undefined) {
          index = this.strings.get(value);
          if (index === undefined) {
            index = this.strings.size;
            this.strings.set(value, index);
          }
          if (few === undefined) this.columnTexts[column] = new Map([[value, index]]);
          else if (few !== null) {
            if (few.size < XlsxWriter.FEW_TEXTS) few.set(value, index);
            // A column of names or codes, each its own: its texts are looked up in the whole table.
            else this.columnTexts[column] = null;
          }
        }
        this.lastTexts[column] = value;
        this.lastIndexes[column] = index;
      }
      this.cellStart(column);
      bytes.ascii(this.textLooks[style] ?? (this.textLooks[style] = `${lookOf(style)} t="s"><v>`));
      bytes.number(index);
      bytes.ascii('</v></c>');
    } else if (typeof value === 'number' && Number.isFinite(value)) {
      this.cellStart(column);
      bytes.ascii(this.numberLooks[style] ?? (this.numberLooks[style] = `${lookOf(style)}><v>`));
      bytes.number(value);
      bytes.ascii('</v></c>');
    } else if (value === '') {
      // An empty text stays a text (as exceljs writes it), not an empty cell.
      this.cellStart(column);
      bytes.ascii(`${lookOf(style)} t="str"><v></v></c>`);
    } else if (style !== 0) {
      this.cellStart(column);
      bytes.ascii(`${lookOf(style)}/>`);
    }
  }

  /**
   * `<c` of a cell of the current row, with its reference (` r="B12"`) only when it starts the row
   * or does not follow the row's last cell: the reference is optional (ECMA-376 part 1, 18.3.1.4),
   * readers place a cell without one after the last (exceljs wants the row's first one), and a
   * reference in every cell made the sheet's XML a third longer and its deflating at zlib's fastest
   * level twice as costly (each cell's own reference breaks the repeats deflate finds).
   */
  private cellStart(column: number): void {
    if (column === this.nextColumn) this.bytes.ascii('<c');
    else {
      this.bytes.ascii(this.cellStarts[column - 1] ?? `<c r="${letters(column)}`);
      this.bytes.ascii(this.rowReference);
    }
    this.nextColumn = column + 1;
  }

  /** Merges a range (e.g. A1:C1); the first cell's value and look show over it. */
  merge(range: string): void {
    this.merges.push(range);
  }

  /** Deflates the rows gathered when there are enough of them (waits while the reader is behind). */
  async flush(force = false): Promise<void> {
    if (!this.sheet) throw new Error('The sheet has not started.');
    if (!force && this.bytes.length < XlsxWriter.PIECE) return;
    for (const piece of this.bytes.take()) await this.sheet.write(piece);
  }

  /** The shared strings, in pieces. */
  private async writeStrings(): Promise<void> {
    const part = await this.zip.stream('xl/sharedStrings.xml');
    let text = `${XML_DECLARATION}<sst xmlns="${MAIN_NS}" count="${this.strings.size}" uniqueCount="${this.strings.size}">`;
    for (const value of this.strings.keys()) {
      const space = /^\s|\s$/.test(value) ? ' xml:space="preserve"' : '';
      text += `<si><t${space}>${xmlText(value)}</t></si>`;
      if (text.length >= XlsxWriter.PIECE) {
        await part.write(text);
        text = '';
      }
    }
    await part.write(`${text}</sst>`);
    this.strings.clear();
    await part.end();
  }

  async finish(): Promise<void> {
    const setup = this.setup;
    if (!setup || !this.sheet) throw new Error('The sheet has not started.');
    if (this.open) this.bytes.ascii('</row>');
    this.bytes.text(`</sheetData>${sheetTail(setup, this.merges)}`);
    await this.flush(true);
    await this.sheet.end();
    await this.writeStrings();
    await this.zip.file('xl/styles.xml', this.styles.xml());
    await this.zip.file('xl/theme/theme1.xml', THEME);
    await this.zip.file('xl/workbook.xml', workbookXml(setup));
    await this.zip.file('xl/_rels/workbook.xml.rels', workbookRelations());
    await this.zip.close();
  }
}

function contentTypes(): string {
  const type = (part: string, kind: string) => `<Override PartName="${part}" ContentType="${kind}"/>`;
  const office = 'application/vnd.openxmlformats-officedocument';
  return (
    XML_DECLARATION +
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    type('/xl/workbook.xml', `${office}.spreadsheetml.sheet.main+xml`) +
    type('/xl/worksheets/sheet1.xml', `${office}.spreadsheetml.worksheet+xml`) +
    type('/xl/theme/theme1.xml', `${office}.theme+xml`) +
    type('/xl/styles.xml', `${office}.spreadsheetml.styles+xml`) +
    type('/xl/sharedStrings.xml', `${office}.spreadsheetml.sharedStrings+xml`) +
    type('/docProps/core.xml', 'application/vnd.openxmlformats-package.core-properties+xml') +
    type('/docProps/app.xml', `${office}.extended-properties+xml`) +
    '</Types>'
  );
}

function packageRelations(): string {
  const base = 'http://schemas.openxmlformats.org';
  return (
    XML_DECLARATION +
    `<Relationships xmlns="${PACKAGE_REL_NS}">` +
    `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/>` +
    `<Relationship Id="rId2" Type="${base}/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>` +
    `<Relationship Id="rId3" Type="${REL_NS}/extended-properties" Target="docProps/app.xml"/>` +
    '</Relationships>'
  );
}

function workbookRelations(): string {
  return (
    XML_DECLARATION +
    `<Relationships xmlns="${PACKAGE_REL_NS}">` +
    `<Relationship Id="rId1" Type="${REL_NS}/styles" Target="styles.xml"/>` +
    `<Relationship Id="rId2" Type="${REL_NS}/theme" Target="theme/theme1.xml"/>` +
    `<Relationship Id="rId3" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
    `<Relationship Id="rId4" Type="${REL_NS}/sharedStrings" Target="sharedStrings.xml"/>` +
    '</Relationships>'
  );
}

function coreProperties(properties: XlsxProperties): string {
  const when = properties.created.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return (
    XML_DECLARATION +
    '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties"' +
    ' xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/"' +
    ' xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
    `<dc:creator>${xmlText(properties.creator)}</dc:creator>` +
    `<dc:title>${xmlText(properties.title)}</dc:title>` +
    `<dcterms:created xsi:type="dcterms:W3CDTF">${when}</dcterms:created>` +
    `<dcterms:modified xsi:type="dcterms:W3CDTF">${when}</dcterms:modified>` +
    '</cp:coreProperties>'
  );
}

function appProperties(sheetName: string): string {
  return (
    XML_DECLARATION +
    '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"' +
    ' xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">' +
    '<Application>Microsoft Excel</Application><DocSecurity>0</DocSecurity><ScaleCrop>false</ScaleCrop>' +
    '<HeadingPairs><vt:vector size="2" baseType="variant"><vt:variant><vt:lpstr>Worksheets</vt:lpstr></vt:variant>' +
    '<vt:variant><vt:i4>1</vt:i4></vt:variant></vt:vector></HeadingPairs>' +
    `<TitlesOfParts><vt:vector size="1" baseType="lpstr"><vt:lpstr>${xmlText(sheetName)}</vt:lpstr></vt:vector></TitlesOfParts>` +
    '<LinksUpToDate>false</LinksUpToDate><SharedDoc>false</SharedDoc><HyperlinksChanged>false</HyperlinksChanged>' +
    '<AppVersion>16.0300</AppVersion></Properties>'
  );
}

/** A sheet's name in a formula: quoted, its quotes doubled. */
const quotedSheet = (name: string) => `'${name.replace(/'/g, "''")}'`;

function workbookXml(setup: XlsxSheetSetup): string {
  const sheet = quotedSheet(setup.name);
  const ranges: string[] = [];
  if (setup.page.titleColumns) {
    const [from, to] = setup.page.titleColumns.split(':');
    ranges.push(`${sheet}!$${from}:$${to}`);
  }
  if (setup.page.titleRows) {
    const [from, to] = setup.page.titleRows.split(':');
    ranges.push(`${sheet}!$${from}:$${to}`);
  }
  const names = [
    ...(ranges.length
      ? [`<definedName name="_xlnm.Print_Titles" localSheetId="0">${xmlText(ranges.join(','))}</definedName>`]
      : []),
  ];
  return (
    XML_DECLARATION +
    `<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
    '<workbookPr defaultThemeVersion="164011"/>' +
    '<bookViews><workbookView xWindow="0" yWindow="0" windowWidth="12000" windowHeight="24000"/></bookViews>' +
    `<sheets><sheet name="${xmlText(setup.name)}" sheetId="1" r:id="rId3"/></sheets>` +
    (names.length ? `<definedNames>${names.join('')}</definedNames>` : '') +
    '<calcPr calcId="171027"/></workbook>'
  );
}

function sheetHead(setup: XlsxSheetSetup): string {
  const { frozen, page } = setup;
  let view = `<sheetView workbookViewId="0"${setup.showGridLines === false ? ' showGridLines="0"' : ''}`;
  if (frozen && (frozen.rows > 0 || frozen.columns > 0)) {
    const pane =
      frozen.rows > 0 && frozen.columns > 0 ? 'bottomRight' : frozen.columns > 0 ? 'topRight' : 'bottomLeft';
    view +=
      '><pane' +
      (frozen.columns > 0 ? ` xSplit="${frozen.columns}"` : '') +
      (frozen.rows > 0 ? ` ySplit="${frozen.rows}"` : '') +
      ` topLeftCell="${frozen.topLeftCell}" activePane="${pane}" state="frozen"/>` +
      `<selection pane="${pane}" activeCell="${frozen.activeCell}" sqref="${frozen.activeCell}"/></sheetView>`;
  } else view += '/>';
  // Neighbouring columns of one width are one range, as Excel writes them.
  let columns = '';
  for (let first = 0; first < setup.widths.length;) {
    let last = first;
    while (setup.widths[last + 1] === setup.widths[first]) last += 1;
    columns += `<col min="${first + 1}" max="${last + 1}" width="${setup.widths[first]}" customWidth="1"/>`;
    first = last + 1;
  }
  return (
    XML_DECLARATION +
    `<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
    (page.fit ? '<sheetPr><pageSetUpPr fitToPage="1"/></sheetPr>' : '') +
    `<sheetViews>${view}</sheetViews>` +
    '<sheetFormatPr defaultRowHeight="15"/>' +
    (columns ? `<cols>${columns}</cols>` : '') +
    '<sheetData>'
  );
}

function sheetTail(setup: XlsxSheetSetup, merges: readonly string[]): string {
  const { page } = setup;
  const margins = page.margins;
  return (
    (setup.autoFilter ? `<autoFilter ref="${setup.autoFilter}"/>` : '') +
    (merges.length
      ? `<mergeCells count="${merges.length}">${merges.map((range) => `<mergeCell ref="${range}"/>`).join('')}</mergeCells>`
      : '') +
    `<pageMargins left="${margins.left}" right="${margins.right}" top="${margins.top}" bottom="${margins.bottom}"` +
    ` header="${margins.header}" footer="${margins.footer}"/>` +
    `<pageSetup paperSize="${page.paperSize}" orientation="${page.orientation}"` +
    (page.scale !== undefined ? ` scale="${page.scale}"` : '') +
    (page.fit ? ` fitToWidth="${page.fit.width}" fitToHeight="${page.fit.height}"` : '') +
    '/>' +
    (setup.footer ? `<headerFooter><oddFooter>${xmlText(setup.footer)}</oddFooter></headerFooter>` : '') +
    '</worksheet>'
  );
}
