// The result files of the statistics generator: summary.xlsx, Regressions&Correlations.xlsx (exceljs,
// in the house style of lib/report-workbook.ts) and chart_ppt.pptx with native, editable PowerPoint
// charts (pptxgenjs): a title slide, then one slide per question with the exclusive box segments per
// product (A at the top) and, beside the chart, each product's base n, cumulative top 2 / bottom 2 box
// shares, mean and its letters of every level, under the test, tails and levels.
import {
  LOW_BASE,
  type StatisticsChart,
  type StatisticsDesignReport,
  type StatisticsTable,
} from '@accord/contracts';
import type ExcelJS from 'exceljs';
import PptxGenJS from 'pptxgenjs';
import {
  addReportSheet,
  reportDate,
  reportWorkbook,
  workbookBytes,
  type CellKind,
  type ReportCell,
  type ReportColumn,
  type ReportHeader,
  type ReportRow,
} from '../../../lib/report-workbook.ts';
import {
  ADJUSTED_MEAN_ROW,
  OMNIBUS_ROW,
  type LetterRow,
  type ProductColumn,
  type QuestionResult,
} from './generate.ts';
import { omnibusText } from './question-tests.ts';

/** What the writers need from a generator result, with who ran it and when. */
export interface ResultTables {
  studyName: string;
  summary: StatisticsTable;
  correlation: StatisticsTable;
  /** Correlations on product means (n = products), a sheet of its own beside the respondent-level one. */
  productCorrelation?: StatisticsTable;
  regression: StatisticsTable | null;
  jar: StatisticsTable | null;
  legend: string[];
  charts: StatisticsChart[];
  /** The products in the table's order (letters A, B, ...). */
  products: readonly ProductColumn[];
  /** Per question: summaries per product and the letters of every level row. */
  questions: readonly QuestionResult[];
  letterRows: readonly LetterRow[];
  /** The design found, the analyses used and the warnings (the results' design report). */
  design?: StatisticsDesignReport;
  /** Who ran the statistics (e-mail); the files' "Prepared by". */
  author?: string;
  /** When; the files' date. */
  date?: Date;
}

/** Rows whose numbers are shares (box rows, JAR and yes/no shares). */
export const SHARE_ROWS = new Set([
  'Top box',
  'Top 2 box',
  'Neutral',
  'Bottom 2 box',
  'Bottom box',
  'Too strong',
  'Strong',
  'Just right',
  'Weak',
  'Too weak',
  'Yes',
  'No',
]);

/** How a summary row's numbers read, from its statistic. */
export function summaryRowKind(statistic: string): CellKind {
  if (statistic === 'Base (n)' || /^n\b/.test(statistic)) return 'count';
  if (statistic === 'Mean' || statistic === ADJUSTED_MEAN_ROW) return 'mean';
  if (SHARE_ROWS.has(statistic) || /share|%/i.test(statistic)) return 'share';
  if (statistic.startsWith('Significance')) return 'letters';
  if (/p-value|\bp\b/i.test(statistic)) return 'p';
  return 'decimal';
}

function header(tables: ResultTables, title: string, notes: readonly string[] = []): ReportHeader {
  return {
    title,
    source: [{ label: 'Study', value: tables.studyName || 'Statistics' }],
    author: tables.author ?? 'Accord',
    date: tables.date ?? new Date(),
    harmonised: true,
    notes,
  };
}

/** The test, tails and levels: the letter rows' legends. */
function testNotes(tables: ResultTables): string[] {
  return tables.letterRows.map((row) => `Letters ${row.label}: ${row.legend}`);
}

/** The test of a question's letters: its own (yes/no, intra-block) where it differs from the rows' test. */
function questionTestName(result: QuestionResult): string | null {
  if (result.yesNo)
    return result.analysis === 'paired'
      ? "McNemar's test"
      : result.analysis === 'intrablock'
        ? 'Intra-block contrasts of adjusted shares'
        : 'Two-proportion z-test';
  if (result.analysis === 'intrablock') return 'Intra-block contrasts of adjusted means';
  return null;
}

/** The letter rows' legends as they apply to one question (strength letters mean "stronger"). */
function questionTestNotes(tables: ResultTables, result: QuestionResult): string[] {
  const name = questionTestName(result);
  return tables.letterRows.map((row) => {
    let legend = row.legend;
    // Tukey HSD stays named; yes/no questions under Tukey HSD take Holm's correction (legend line).
    if (name && !(legend.startsWith('Tukey HSD') && !result.yesNo))
      legend = legend.replace(/^[^,]+,/, `${name},`);
    // Strength questions are tested two-tailed and their letters mean "stronger".
    if (result.strength) legend = legend.replace('one-tailed', 'two-tailed').replaceAll('higher', 'stronger');
    return `Letters ${row.label}: ${legend}`;
  });
}

/**
 * The lines under a question's chart: the test, tails and levels of each letters column, the control
 * of multiplicity, what one-tailed letters mean, which code is yes, and the question's omnibus test.
 */
function slideNotes(tables: ResultTables, result: QuestionResult): string[] {
  const picked = (start: string) => tables.legend.filter((line) => line.startsWith(start));
  return [
    ...questionTestNotes(tables, result),
    ...picked('Warning'),
    ...picked('Multiple comparisons'),
    ...picked('One-tailed letters'),
    ...(result.question.type === 'binary' ? picked('Yes/no questions') : []),
    `Omnibus test: ${omnibusText(result.omnibus)}`,
  ];
}

function addLegendSheet(workbook: ExcelJS.Workbook, legend: readonly string[]): void {
  const sheet = workbook.addWorksheet('Legend', {
    pageSetup: { orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0 },
  });
  sheet.addRow(['Legend']).font = { bold: true, size: 14 };
  for (const line of legend) sheet.addRow([line]).getCell(1).alignment = { wrapText: true };
  sheet.getColumn(1).width = 110;
}

/**
 * The summary table in the house style: the question once at the head of its rows, base n under a
 * low-base mark, means with 2 decimals, shares under a % format, and the letters centred in each
 * product's column under its numbers; the legend under the table.
 */
function summaryRows(table: StatisticsTable): ReportRow[] {
  let previous: unknown = undefined;
  return table.data.map((row) => {
    const statistic = String(row[1] ?? '');
    const kind = summaryRowKind(statistic);
    const first = row[0] !== previous;
    previous = row[0];
    const cells: ReportCell[] = [
      first ? (row[0] ?? null) : null,
      statistic,
      ...row.slice(2).map((value): ReportCell => {
        if (kind === 'count' && typeof value === 'number' && value < LOW_BASE)
          return { value, kind, lowBase: true };
        if (kind === 'letters') return { value: value ?? '', kind };
        return value ?? null;
      }),
    ];
    // The omnibus test reads as one sentence across the product columns.
    if (statistic === OMNIBUS_ROW) return { cells, kind: 'text', groupStart: first, spanFrom: 2 };
    return { cells, kind, groupStart: first, emphasis: false };
  });
}

/** p-values below this print as "< 0.001"; the exact value stays in the cell's note. */
const SMALL_P = 0.001;

/**
 * A table's rows with the p-values of the columns `pColumns` below 0.001 written "< 0.001" (a long
 * exponent says nothing a reader can use); `notes` collects the exact values by row and column.
 */
function smallPValues(
  data: readonly (readonly (string | number | null)[])[],
  pColumns: readonly number[],
): { rows: ReportCell[][]; notes: { row: number; column: number; value: number }[] } {
  const notes: { row: number; column: number; value: number }[] = [];
  const rows = data.map((row, r) =>
    row.map((value, c): ReportCell => {
      if (!pColumns.includes(c) || typeof value !== 'number' || !(value < SMALL_P)) return value;
      notes.push({ row: r, column: c, value });
      return { value: `< ${SMALL_P}`, kind: 'text' };
    }),
  );
  return { rows, notes };
}

/** Puts each exact p-value in the note of its "< 0.001" cell. */
function notePValues(
  sheet: ExcelJS.Worksheet,
  headingRow: number,
  notes: readonly { row: number; column: number; value: number }[],
): void {
  for (const note of notes)
    sheet.getCell(headingRow + 1 + note.row, note.column + 1).note = `p = ${note.value.toExponential(2)}`;
}

/** summary.xlsx: the Summary sheet (and JAR when strength questions were chosen) and the Legend. */
export async function summaryWorkbook(tables: ResultTables): Promise<Buffer> {
  const head = header(tables, 'Statistics summary: mean, boxes and significance per product', [
    ...testNotes(tables),
    ...(tables.design ? [tables.design.found, ...tables.design.warnings] : []),
  ]);
  const workbook = reportWorkbook(head);
  const columns: ReportColumn[] = tables.summary.headers.map((text, index) => ({
    header: text,
    kind: index < 2 ? 'text' : 'decimal',
    width: index === 0 ? 34 : index === 1 ? 26 : 14,
  }));
  await addReportSheet(workbook, 'Summary', head, {
    columns,
    rows: summaryRows(tables.summary),
    footnotes: [
      'Letters: the products (by letter) this product is significantly higher than, in its column under its numbers.',
      ...tables.legend,
    ],
  });
  if (tables.jar) {
    const jar = tables.jar;
    // The distribution on one sheet, the penalty analysis on another, one row per product and group:
    // sixteen columns side by side would print too small to read.
    const distributionKinds: CellKind[] = ['text', 'text', 'count', 'share', 'share', 'share', 'mean'];
    await addReportSheet(workbook, 'JAR', header(tables, 'Just-about-right (strength) questions'), {
      columns: jar.headers.slice(0, 7).map((text, index) => ({
        header: text,
        kind: distributionKinds[index] ?? 'decimal',
        width: index === 0 ? 34 : index === 1 ? 28 : 14,
      })),
      rows: jar.data.map((row) =>
        row.slice(0, 7).map((value, index): ReportCell => {
          if (index === 2 && typeof value === 'number' && value < LOW_BASE)
            return { value, kind: 'count', lowBase: true };
          return value;
        }),
      ),
      footnotes: [
        '"Weak or too weak": the 1s and 2s of the harmonised scale; "Strong or too strong": the 4s and 5s.',
      ],
    });
    const noteColumn = jar.headers.length - 1;
    const groups = [
      { name: 'Weak or too weak', from: 7 },
      { name: 'Strong or too strong', from: 11 },
    ];
    const penaltyData = jar.data.flatMap((row) =>
      groups.map((group) => {
        const note =
          String(row[noteColumn] ?? '')
            .split('; ')
            .find((part) => part.startsWith(`${group.name} skipped`)) ?? null;
        return [row[0] ?? null, row[1] ?? null, group.name, ...row.slice(group.from, group.from + 4), note];
      }),
    );
    const penaltyKinds: CellKind[] = ['text', 'text', 'text', 'mean', 'decimal', 'p', 'decimal', 'text'];
    const { rows, notes } = smallPValues(penaltyData, [5]);
    const { sheet, headingRow } = await addReportSheet(
      workbook,
      'Penalty',
      header(tables, 'Penalty analysis of the strength questions'),
      {
        columns: [
          'Question',
          'Product',
          'Group',
          'Mean drop',
          'Standard error',
          'p-value',
          'Penalty',
          'Note',
        ].map((text, index) => ({
          header: text,
          kind: penaltyKinds[index] ?? 'decimal',
          width: index === 0 ? 30 : index === 1 ? 26 : index === 2 ? 20 : index === 7 ? 44 : 12,
        })),
        rows: rows.map((row) =>
          // A skipped group's numbers point to the note that says why.
          row.map((value, index): ReportCell =>
            index >= 3 && index <= 6 && value === null && row[7] !== null
              ? { value: 'skipped', kind: 'text' }
              : value,
          ),
        ),
        footnotes: [
          'Penalty: the mean drop in the main question of the group against the just-right group, weighted by the group’s share of the respondents who answered both questions.',
          'Standard error and p-value of the drop: OLS of the main question on the group, two-sided t. A group under 20 % of those respondents is skipped; the note says why.',
        ],
      },
    );
    notePValues(sheet, headingRow, notes);
  }
  addLegendSheet(workbook, tables.legend);
  return workbookBytes(workbook);
}

/** Regressions&Correlations.xlsx: the Correlations sheet and, when asked, the Regression sheet. */
export async function correlationWorkbook(tables: ResultTables): Promise<Buffer> {
  const head = header(tables, 'Correlations with the main question');
  const workbook = reportWorkbook(head);
  const correlationKinds: CellKind[] = ['text', 'decimal', 'p', 'decimal', 'p', 'count'];
  const correlationSheet = async (
    name: string,
    title: string,
    table: StatisticsTable,
    footnote: string,
  ): Promise<void> => {
    const { rows, notes } = smallPValues(table.data, [2, 4]);
    const { sheet, headingRow } = await addReportSheet(workbook, name, header(tables, title), {
      columns: table.headers.map((text, index) => ({
        header: text,
        kind: correlationKinds[index] ?? 'decimal',
        width: index === 0 ? 36 : 14,
      })),
      rows,
      footnotes: [
        footnote,
        'p-values under 0.001 read "< 0.001"; the cell\'s note holds the exact value.',
        ...(table.data.length === 0 ? ['Correlations were not asked for.'] : []),
      ],
    });
    notePValues(sheet, headingRow, notes);
  };
  await correlationSheet(
    'Correlations',
    'Correlations with the main question',
    tables.correlation,
    'Respondent level: one row per respondent and product; in paired designs the p-values are cluster-robust by respondent. p-values two-sided.',
  );
  if (tables.productCorrelation)
    await correlationSheet(
      'Product correlations',
      'Correlations with the main question on product means',
      tables.productCorrelation,
      'Product level: on the product means, n = products. p-values two-sided.',
    );
  if (tables.regression) {
    const regressionKinds: CellKind[] = ['text', 'decimal', 'decimal', 'decimal', 'p', 'decimal'];
    const { rows, notes } = smallPValues(tables.regression.data, [4]);
    const { sheet, headingRow } = await addReportSheet(
      workbook,
      'Regression',
      header(tables, 'Regression on the chosen drivers'),
      {
        columns: tables.regression.headers.map((text, index) => ({
          header: text,
          kind: regressionKinds[index] ?? 'decimal',
          width: index === 0 ? 36 : 14,
        })),
        rows: rows.map((row) => (row[0] === 'n' ? { cells: row, kind: 'count' as const } : { cells: row })),
        footnotes: [
          'Ordinary least squares on the harmonised answers; intercept first. VIF: variance inflation factor of each driver (above 10: the other drivers explain it almost entirely).',
          'p-values under 0.001 read "< 0.001"; the cell\'s note holds the exact value.',
        ],
      },
    );
    notePValues(sheet, headingRow, notes);
  }
  return workbookBytes(workbook);
}

// ---------------------------------------------------------------- chart_ppt.pptx

// Light enough for dark data labels on every segment.
const BOX_COLOURS = ['5B9BD5', 'A9CCE3', 'D9D9D9', 'F5B7A1', 'E06666'];
const BINARY_COLOURS = ['5B9BD5', 'D9D9D9'];

/** One stacked segment: its name, colour and each product's share in percent. */
export interface ChartSegment {
  name: string;
  colour: string;
  values: number[];
}

/** The raw answers of an integer scale whose harmonised score passes the test, as "8-9" or "5". */
function rawRange(min: number, max: number, test: (h: number) => boolean): string {
  if (!Number.isInteger(min) || !Number.isInteger(max) || max <= min) return '';
  const values: number[] = [];
  for (let v = min; v <= max; v += 1) {
    // The tests allow 1e-9 either side, so that 9-point 6 (h = 3.5) is in the top 2 box everywhere.
    if (test(1 + (4 * (v - min)) / (max - min))) values.push(v);
  }
  if (values.length === 0) return '';
  const first = values[0];
  const last = values[values.length - 1];
  return first === last ? `${first}` : `${first}-${last}`;
}

const percentOf = (share: number | null | undefined): number =>
  share === null || share === undefined ? 0 : Math.round(share * 1000) / 10;

/**
 * The exclusive segments of a question, top first: top box, the rest of the top 2 box, neutral, the
 * rest of the bottom 2 box, bottom box (strength: too strong ... too weak), each named with the raw
 * answers it holds ("8-9"); yes / no for binary questions. Segments of a product add up to 100.
 */
export function chartSegments(result: QuestionResult): ChartSegment[] {
  const { question, summaries, strength } = result;
  if (question.type === 'binary')
    return [
      { name: 'Yes', colour: BINARY_COLOURS[0]!, values: summaries.map((s) => percentOf(s.top_box)) },
      { name: 'No', colour: BINARY_COLOURS[1]!, values: summaries.map((s) => percentOf(s.bottom_box)) },
    ];
  const range = (test: (h: number) => boolean) => {
    const text = rawRange(question.min, question.max, test);
    return text ? ` (${text})` : '';
  };
  const names = strength
    ? ['Too strong', 'Strong, not too strong', 'Just right', 'Weak, not too weak', 'Too weak']
    : ['Top box', 'Rest of top 2 box', 'Neutral', 'Rest of bottom 2 box', 'Bottom box'];
  const tests: ((h: number) => boolean)[] = [
    (h) => h >= 4.5 - 1e-9,
    (h) => h >= 3.5 - 1e-9 && h < 4.5 - 1e-9,
    (h) => h > 2.5 + 1e-9 && h < 3.5 - 1e-9,
    (h) => h <= 2.5 + 1e-9 && h > 1.5 + 1e-9,
    (h) => h <= 1.5 + 1e-9,
  ];
  const values: number[][] = [
    summaries.map((s) => percentOf(s.top_box)),
    summaries.map((s) => Math.round((percentOf(s.top_2_box) - percentOf(s.top_box)) * 10) / 10),
    summaries.map((s) => percentOf(s.just_right)),
    summaries.map((s) => Math.round((percentOf(s.bottom_2_box) - percentOf(s.bottom_box)) * 10) / 10),
    summaries.map((s) => percentOf(s.bottom_box)),
  ];
  return names
    .map((name, index) => ({
      name: `${name}${range(tests[index]!)}`,
      colour: BOX_COLOURS[index]!,
      values: values[index]!,
      empty: rawRange(question.min, question.max, tests[index]!) === '' && Number.isInteger(question.min),
    }))
    .filter((segment) => !segment.empty)
    .map(({ empty: _empty, ...segment }) => segment);
}

/** A product's name as the table heads it: its letter and its full name. */
function productName(product: ProductColumn): string {
  return `${product.letter}: ${product.label}${product.benchmark ? ' (benchmark)' : ''}`;
}

const TEXT = { fontFace: 'Calibri', color: '222222' } as const;
/** Width (inches) of the product table beside each chart. */
const TABLE_WIDTH = 5.2;

/** chart_ppt.pptx: a title slide, then one slide per question with a native stacked bar chart. */
export async function chartPresentation(tables: ResultTables): Promise<Buffer> {
  const pptx = new PptxGenJS();
  pptx.layout = 'LAYOUT_WIDE';
  const date = tables.date ?? new Date();
  pptx.title = `${tables.studyName} - statistics`;
  pptx.author = tables.author ?? 'Accord';
  pptx.company = 'Accord';

  const title = pptx.addSlide();
  title.addText(tables.studyName || 'Statistics', {
    ...TEXT,
    x: 0.6,
    y: 0.5,
    w: 12.1,
    h: 1.1,
    fontSize: 34,
    bold: true,
    fit: 'shrink',
  });
  title.addText(`Statistics: significance between products. ${reportDate(date)}`, {
    ...TEXT,
    x: 0.6,
    y: 1.6,
    w: 12.1,
    h: 0.5,
    fontSize: 18,
    color: '555555',
  });
  title.addText(
    [
      `Products: ${tables.products.map(productName).join('; ')}`,
      ...testNotes(tables),
      ...tables.legend.filter((line) => !tables.letterRows.some((row) => row.legend === line)),
      `Prepared by ${tables.author ?? 'Accord'}`,
    ].join('\n'),
    // The design, analysis and warning lines make the legend long: it starts high and in a smaller size.
    { ...TEXT, x: 0.6, y: 2.25, w: 12.1, h: 5.1, fontSize: 11, valign: 'top', paraSpaceAfter: 3 },
  );

  const categories = tables.products.map(productName);
  tables.questions.forEach((result, index) => {
    const slide = pptx.addSlide();
    const chart = tables.charts[index];
    const heading = chart?.name ?? `${result.question.id}: ${result.question.text}`;
    slide.addText(heading, {
      ...TEXT,
      x: 0.4,
      y: 0.2,
      w: 12.5,
      h: 0.8,
      fontSize: 20,
      bold: true,
      fit: 'shrink',
      valign: 'middle',
    });
    const segments = chartSegments(result);
    slide.addChart(
      pptx.ChartType.bar,
      segments.map((segment) => ({ name: segment.name, labels: categories, values: segment.values })),
      {
        x: 0.3,
        y: 1.05,
        w: 7.6,
        h: 5.1,
        barDir: 'bar',
        barGrouping: 'stacked',
        barGapWidthPct: 60,
        chartColors: segments.map((segment) => segment.colour),
        // The first product at the top, as the table lists it (pptxgenjs writes the value as given;
        // its types know only minMax).
        catAxisOrientation: 'maxMin' as 'minMax',
        catAxisLabelFontSize: 11,
        catAxisLabelFontFace: 'Calibri',
        showLegend: true,
        legendPos: 'b',
        legendFontSize: 10,
        showValue: true,
        // Positive values only: an empty segment shows no "0".
        dataLabelFormatCode: '0;;;',
        dataLabelFontSize: 9,
        dataLabelColor: '1A1A1A',
        valAxisMaxVal: 100,
        valAxisMinVal: 0,
        valAxisLabelFormatCode: '0"%"',
        valAxisLabelFontSize: 9,
      },
    );
    slide.addTable(productRows(result, tables), {
      x: 7.95,
      y: 1.1,
      w: TABLE_WIDTH,
      fontFace: 'Calibri',
      fontSize: 10,
      // Narrow cell margins (points), so that headings break between words.
      margin: [2, 3, 2, 3],
      border: { type: 'solid', pt: 0.5, color: 'BFBFBF' },
      colW: tableWidths(result),
      autoPage: false,
    });
    slide.addText(
      [
        ...slideNotes(tables, result),
        `Base n: answers counted per product; below ${LOW_BASE} marked "low base". Shares of answers in %, scores harmonised to a common 5 point scale.`,
      ].join('\n'),
      { ...TEXT, x: 0.4, y: 6.2, w: 12.5, h: 1.2, fontSize: 9, color: '555555', valign: 'top' },
    );
  });
  // Deflated (pptxgenjs stores every part uncompressed unless streamed with compression): the slide
  // and chart XML shrink about tenfold.
  const output = await pptx.stream({ compression: true });
  return Buffer.from(output as Uint8Array);
}

type TableRow = PptxGenJS.TableRow;

/** Column widths of the product table (inches): the names get what the numbers leave. */
function tableWidths(result: QuestionResult): number[] {
  const binary = result.question.type === 'binary';
  // Wide enough that no heading breaks inside a word ("Bottom", "Mean").
  const numbers = [0.55, ...(binary ? [0.6] : [0.72, 0.72, 0.6])];
  // Letters on one line: about 0.085 inch per character at 10 pt bold, with the cell margins.
  const letters = result.significance.map((entry) =>
    Math.max(0.72, 0.15 + 0.085 * Math.max(...entry.letters.map((letter) => letter.text.length), 0)),
  );
  const used = [...numbers, ...letters].reduce((sum, width) => sum + width, 0);
  return [Math.max(1.2, TABLE_WIDTH - used), ...numbers, ...letters];
}

/** Beside the chart: per product its base n, the cumulative shares the table shows, mean and letters. */
function productRows(result: QuestionResult, tables: ResultTables): TableRow[] {
  const binary = result.question.type === 'binary';
  const head = (text: string) => ({
    text,
    options: { bold: true, fill: { color: 'E7ECF2' }, align: 'center' as const, valign: 'bottom' as const },
  });
  // Strength: the cumulative shares are 4-5 and 1-2, named as everywhere else (METRICS.md section 3).
  const shares = binary
    ? ['Yes']
    : result.strength
      ? ['Strong or too strong', 'Weak or too weak']
      : ['Top 2 box', 'Bottom 2 box'];
  const rows: TableRow[] = [
    [
      head('Product'),
      head('Base n'),
      ...shares.map(head),
      ...(binary ? [] : [head('Mean')]),
      ...result.significance.map((entry) => head(entry.row.label)),
    ],
  ];
  tables.products.forEach((product, p) => {
    const summary = result.summaries[p];
    const n = summary?.n ?? 0;
    const cumulative = binary ? [summary?.top_box] : [summary?.top_2_box, summary?.bottom_2_box];
    rows.push([
      { text: `${product.letter}: ${product.label}`, options: { align: 'left' } },
      {
        text: n < LOW_BASE ? `${n} (low base)` : String(n),
        options: { align: 'right', color: n < LOW_BASE ? 'B35900' : '222222' },
      },
      ...cumulative.map((share) => ({
        text: share === null || share === undefined ? '-' : `${Math.round(share * 100)}%`,
        options: { align: 'right' as const },
      })),
      ...(binary
        ? []
        : [
            {
              text: summary?.mean === null || summary?.mean === undefined ? '-' : summary.mean.toFixed(2),
              options: { align: 'right' as const },
            },
          ]),
      ...result.significance.map((entry) => ({
        text: entry.letters[p]?.text || '-',
        options: { align: 'center' as const, bold: true },
      })),
    ]);
  });
  return rows;
}
