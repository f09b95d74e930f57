// The result files of the statistics generator: summary.xlsx, Regressions&Correlations.xlsx (exceljs)
// and chart_ppt.pptx with native, editable PowerPoint charts (pptxgenjs): one slide per question with
// the stacked box distribution per product and the legend of the letters.
import type { StatisticsChart, StatisticsTable } from '@accord/contracts';
import ExcelJS from 'exceljs';
import PptxGenJS from 'pptxgenjs';

/** What the writers need from a generator result. */
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
}

/** Cells read as percentages in the summary (box rows and JAR shares). */
const SHARE_ROWS = new Set([
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

function addTable(
  workbook: ExcelJS.Workbook,
  name: string,
  table: StatisticsTable,
  format: (row: readonly (string | number | null)[], column: number) => string | undefined,
): ExcelJS.Worksheet {
  const sheet = workbook.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.addRow(table.headers).font = { bold: true };
  for (const values of table.data) {
    const row = sheet.addRow(values.map((value) => value ?? ''));
    values.forEach((value, index) => {
      const numberFormat = typeof value === 'number' ? format(values, index) : undefined;
      if (numberFormat) row.getCell(index + 1).numFmt = numberFormat;
    });
  }
  sheet.columns.forEach((column, index) => {
    const longest = Math.max(
      ...[table.headers[index] ?? '', ...table.data.map((row) => String(row[index] ?? ''))].map(
        (text) => text.length,
      ),
    );
    column.width = Math.min(60, Math.max(10, longest + 2));
  });
  return sheet;
}

function addLegend(workbook: ExcelJS.Workbook, legend: readonly string[]): void {
  const sheet = workbook.addWorksheet('Legend');
  sheet.addRow(['Legend']).font = { bold: true };
  for (const line of legend) sheet.addRow([line]);
  sheet.getColumn(1).width = 100;
}

/** summary.xlsx: the Summary sheet (and JAR when strength questions were chosen) and the Legend. */
export async function summaryWorkbook(tables: ResultTables): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Accord';
  addTable(workbook, 'Summary', tables.summary, (row) => {
    const statistic = String(row[1] ?? '');
    if (statistic === 'Mean') return '0.00';
    if (SHARE_ROWS.has(statistic)) return '0%';
    return undefined;
  });
  if (tables.jar)
    addTable(workbook, 'JAR', tables.jar, (_row, column) => (column >= 3 && column <= 5 ? '0%' : '0.00'));
  addLegend(workbook, tables.legend);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Regressions&Correlations.xlsx: the Correlations sheet and, when asked, the Regression sheet. */
export async function correlationWorkbook(tables: ResultTables): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Accord';
  addTable(workbook, 'Correlations', tables.correlation, (_row, column) =>
    column === 5 ? undefined : '0.0000',
  );
  if (tables.productCorrelation)
    addTable(workbook, 'Product correlations', tables.productCorrelation, (_row, column) =>
      column === 5 ? undefined : '0.0000',
    );
  if (tables.regression)
    addTable(workbook, 'Regression', tables.regression, (row) => (row[0] === 'n' ? undefined : '0.0000'));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const SERIES_COLOURS = ['C0392B', 'E59866', 'BDC3C7', '7FB3D5', '1F618D'];
const BINARY_COLOURS = ['BDC3C7', '1F618D'];

/** chart_ppt.pptx: a title slide, then one slide per question with a native stacked bar chart. */
export async function chartPresentation(tables: ResultTables): Promise<Buffer> {
  const pptx = new PptxGenJS();
  pptx.layout = 'LAYOUT_WIDE';
  pptx.title = `${tables.studyName} - statistics`;
  const title = pptx.addSlide();
  title.addText(tables.studyName || 'Statistics', { x: 0.6, y: 2.2, w: 12, h: 1, fontSize: 32, bold: true });
  title.addText(tables.legend.join('\n'), { x: 0.6, y: 3.4, w: 12, h: 2.5, fontSize: 14, valign: 'top' });
  for (const chart of tables.charts) {
    const slide = pptx.addSlide();
    slide.addText(chart.name ?? chart.question, {
      x: 0.4,
      y: 0.2,
      w: 12.5,
      h: 0.7,
      fontSize: 20,
      bold: true,
    });
    const labels = chart.labels.map((label, index) => {
      const letters = chart.letters[index];
      return letters ? `${label} (${letters})` : label;
    });
    slide.addChart(
      pptx.ChartType.bar,
      chart.series.map((series) => ({ name: series.name, labels, values: series.values })),
      {
        x: 0.4,
        y: 1,
        w: 9.2,
        h: 5.8,
        barDir: 'bar',
        barGrouping: 'stacked',
        chartColors: chart.series.length === 2 ? BINARY_COLOURS : SERIES_COLOURS,
        showLegend: true,
        legendPos: 'b',
        showValue: true,
        dataLabelFormatCode: '0',
        dataLabelFontSize: 9,
        valAxisMaxVal: 100,
        valAxisLabelFormatCode: '0"%"',
      },
    );
    const lettersText = [
      'Significance letters',
      ...chart.labels.map((label, index) => `${label}: ${chart.letters[index] || '-'}`),
      '',
      ...tables.legend,
    ].join('\n');
    slide.addText(lettersText, { x: 9.8, y: 1, w: 3.2, h: 5.8, fontSize: 10, valign: 'top' });
  }
  const output = await pptx.write({ outputType: 'nodebuffer' });
  return output as Buffer;
}
