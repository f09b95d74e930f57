/// <reference types="node" />
// The result files open (exceljs, the pptx zip) and hold the computed numbers.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv.ts';
import { buildDataset, readProductNames, readRegression } from './dataset.ts';
import { generateStatistics, OMNIBUS_ROW } from './generate.ts';
import { omnibusText } from './question-tests.ts';
import { sampleFiles } from './sample-data.ts';
import { readReport } from '../../../testing/report-table.ts';
import { chartPresentation, correlationWorkbook, summaryWorkbook, type ResultTables } from './writers.ts';

const files = sampleFiles();
const dataset = buildDataset({
  name: 'Sample',
  data: parseCsv(files['sample_data.csv'], 'sample_data.csv'),
  scale: parseCsv(files['sample_scale.csv'], 'sample_scale.csv'),
  productColumn: 'product_code',
  binaryOption: '0 and 1',
  productNames: readProductNames(parseCsv(files['sample_products.csv'], 'sample_products.csv')),
});
const result = generateStatistics(dataset, {
  mainQuestion: 'liking',
  productOrder: 'Unspecified Product Order',
  testTypes: ['two_99', 'two_95', 'two_90'],
  paired: true,
  parametric: false,
  strengthQuestions: ['strength'],
  regression: readRegression(
    parseCsv(files['sample_regression.csv'], 'sample_regression.csv'),
    new Set(dataset.questions.map((question) => question.id)),
  ),
  replaceProductCodes: true,
  charts: true,
  displayCorrelation: true,
});

const tables: ResultTables = {
  studyName: 'Sample study',
  author: 'researcher@accord.test',
  date: new Date('2026-11-25T09:40:00Z'),
  ...result,
};

async function open(buffer: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  return workbook;
}

/** The written table with each question carried down its rows, as the API's table holds it. */
function carried(rows: unknown[][]): unknown[][] {
  let question: unknown;
  return rows.map((row) => {
    if (row[0] !== undefined) question = row[0];
    return [question, ...row.slice(1)];
  });
}

const blankToUndefined = (row: readonly unknown[]) =>
  row.map((value) => (value === null || value === '' ? undefined : value));

describe('summary.xlsx', () => {
  it('holds the API’s summary table under its header block, each number typed by its row', async () => {
    const workbook = await open(await summaryWorkbook(tables));
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Summary', 'JAR', 'Penalty', 'Legend']);
    const summary = readReport(workbook, 'Summary');
    expect(summary.lines.slice(0, 4)).toEqual([
      'Statistics summary: mean, boxes and significance per product',
      'Study: Sample study',
      'Prepared by: researcher@accord.test',
      'Date: 25 November 2026 at 09:40 UTC',
    ]);
    expect(summary.lines).toContain('All scores and metrics have been harmonized to a common 5 point scale.');
    expect(summary.headings).toEqual(result.summary.headers);
    expect(carried(summary.rows).map(blankToUndefined)).toEqual(result.summary.data.map(blankToUndefined));
    // The question is named once, at the head of its rows.
    expect(summary.rows.filter((row) => row[0] !== undefined)).toHaveLength(result.questions.length);
    const formats = new Map<string, string>();
    summary.tableRows.forEach((row) => {
      const format = row.getCell(3).numFmt;
      if (format) formats.set(String(row.getCell(2).value), format);
    });
    expect(formats.get('Base (n)')).toBe('#,##0');
    expect(formats.get('Mean')).toBe('0.00');
    for (const share of [
      'Top box',
      'Top 2 box',
      'Neutral',
      'Too strong',
      'Strong',
      'Just right',
      'Yes',
      'No',
    ])
      expect(formats.get(share), share).toBe('0%');
    // Letters stand in each product's column under its numbers, right-aligned as the numbers are.
    const letters = summary.tableRows.find((row) => String(row.getCell(2).value).startsWith('Significance'));
    expect(letters?.getCell(3).alignment?.horizontal).toBe('right');
    expect(summary.footnotes).toEqual(expect.arrayContaining(result.legend));
    expect(summary.sheet.pageSetup).toMatchObject({ orientation: 'landscape', fitToWidth: 1 });
  });

  it('writes each question’s omnibus test across the product columns', async () => {
    const summary = readReport(await open(await summaryWorkbook(tables)), 'Summary');
    const omnibus = summary.tableRows.filter((row) => row.getCell(2).value === OMNIBUS_ROW);
    expect(omnibus).toHaveLength(result.questions.length);
    omnibus.forEach((row, index) => {
      expect(row.getCell(3).value).toBe(omnibusText(result.questions[index]!.omnibus));
      expect(row.getCell(3).alignment?.horizontal).toBe('left');
      expect(row.getCell(result.products.length + 2).isMerged).toBe(true);
    });
    expect(summary.footnotes.some((line) => line.startsWith('Multiple comparisons:'))).toBe(true);
  });

  it('marks low bases, and says why a penalty was skipped', async () => {
    const low = structuredClone(result.summary);
    const base = low.data.find((row) => row[1] === 'Base (n)')!;
    base[2] = 12;
    const workbook = await open(await summaryWorkbook({ ...tables, summary: low }));
    const summary = readReport(workbook, 'Summary');
    const written = summary.tableRows.find((row) => row.getCell(2).value === 'Base (n)')!;
    expect(written.getCell(3).value).toBe(12);
    expect(written.getCell(3).numFmt).toBe('#,##0" (low base)"');
    expect(summary.footnotes.some((line) => line.includes('below 30'))).toBe(true);

    const jar = readReport(workbook, 'JAR');
    expect(jar.headings).toEqual(result.jar?.headers.slice(0, 7));
    expect(jar.rows[0]![3]).toBe(result.jar?.data[0]?.[3]);
    expect(jar.tableRows[0]!.getCell(4).numFmt).toBe('0%');
    // The penalty analysis: one row per product and group; a skipped group says why in its note.
    const penalty = readReport(workbook, 'Penalty');
    expect(penalty.headings).toEqual([
      'Question',
      'Product',
      'Group',
      'Mean drop',
      'Standard error',
      'p-value',
      'Penalty',
      'Note',
    ]);
    expect(penalty.rows).toHaveLength(2 * result.jar!.data.length);
    const skipped = result.jar!.data.findIndex((row) => row[7] === null);
    expect(skipped).toBeGreaterThanOrEqual(0);
    const skippedRow = penalty.rows[2 * skipped]!;
    expect(skippedRow[3]).toBe('skipped');
    expect(String(skippedRow[7])).toMatch(
      /^Weak or too weak skipped: under 20 % of respondents \(\d+\.\d %\)$/,
    );
    const analysed = result.jar!.data.findIndex((row) => row[11] !== null);
    expect(penalty.rows[2 * analysed + 1]![3]).toBe(result.jar!.data[analysed]![11]);
  });
});

describe('Regressions&Correlations.xlsx', () => {
  it('holds the correlations and the regression, p-values under 0.001 as "< 0.001" with the exact value in a note', async () => {
    const workbook = await open(await correlationWorkbook(tables));
    const correlations = readReport(workbook, 'Correlations');
    expect(correlations.headings).toEqual(result.correlation.headers);
    const small = (row: readonly unknown[]) =>
      row.map((value, index) =>
        (index === 2 || index === 4) && typeof value === 'number' && value < 0.001 ? '< 0.001' : value,
      );
    expect(correlations.rows.map(blankToUndefined)).toEqual(
      result.correlation.data.map(small).map(blankToUndefined),
    );
    let noted = 0;
    correlations.tableRows.forEach((row, index) => {
      const p = result.correlation.data[index]![2];
      if (typeof p === 'number' && p < 0.001) {
        expect(row.getCell(3).value).toBe('< 0.001');
        expect(row.getCell(3).note).toBe(`p = ${p.toExponential(2)}`);
        noted += 1;
      } else if (typeof p === 'number') expect(row.getCell(3).numFmt).toBe('0.0000');
      expect(row.getCell(6).numFmt).toBe('#,##0');
    });
    expect(noted).toBeGreaterThan(0);
    const products = readReport(workbook, 'Product correlations');
    expect(products.headings).toEqual(result.productCorrelation.headers);
    expect(products.rows.map(blankToUndefined)).toEqual(
      result.productCorrelation.data.map(small).map(blankToUndefined),
    );
    const regression = readReport(workbook, 'Regression');
    expect(regression.rows.find((row) => row[0] === 'R squared')?.[1]).toBe(
      result.regression?.data.find((row) => row[0] === 'R squared')?.[1],
    );
    expect(regression.tableRows.find((row) => row.getCell(1).value === 'n')?.getCell(2).numFmt).toBe('#,##0');
  });
});

/** The chart parts of the deck in slide order, with their series (name, values) and categories. */
async function deckCharts(zip: JSZip) {
  const names = Object.keys(zip.files)
    .filter((name) => /^ppt\/charts\/chart\d+\.xml$/.test(name))
    .sort((a, b) => Number(/(\d+)\.xml$/.exec(a)![1]) - Number(/(\d+)\.xml$/.exec(b)![1]));
  return Promise.all(
    names.map(async (name) => {
      const xml = (await zip.file(name)?.async('string')) ?? '';
      const series = [...xml.matchAll(/<c:ser>([\s\S]*?)<\/c:ser>/g)].map((match) => {
        const body = match[1]!;
        const seriesName = /<c:tx>[\s\S]*?<c:v>([^<]*)<\/c:v>/.exec(body)?.[1];
        const values = [
          ...(/<c:val>([\s\S]*?)<\/c:val>/.exec(body)?.[1] ?? '').matchAll(/<c:v>([^<]*)<\/c:v>/g),
        ].map((value) => Number(value[1]));
        const categories = [
          ...(/<c:cat>([\s\S]*?)<\/c:cat>/.exec(body)?.[1] ?? '').matchAll(/<c:v>([^<]*)<\/c:v>/g),
        ].map((value) => value[1]!.replace(/&amp;/g, '&'));
        return { name: seriesName, values, categories };
      });
      return { xml, series };
    }),
  );
}

describe('chart_ppt.pptx', () => {
  it('has a title slide, then one native chart per question in the table’s order', async () => {
    const zip = await JSZip.loadAsync(await chartPresentation(tables));
    const slides = Object.keys(zip.files).filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name));
    expect(slides).toHaveLength(result.questions.length + 1);
    const title = (await zip.file('ppt/slides/slide1.xml')?.async('string')) ?? '';
    expect(title).toContain('Sample study');
    expect(title).toContain('25 November 2026');
    const charts = await deckCharts(zip);
    expect(charts).toHaveLength(result.questions.length);
    // Native and editable: each chart part embeds its workbook.
    const embedded = Object.keys(zip.files).filter((name) => /^ppt\/embeddings\/.*\.xlsx$/.test(name));
    expect(embedded).toHaveLength(result.questions.length);
    for (const chart of charts) {
      expect(chart.xml).toContain('<c:grouping val="stacked"/>');
      // The first product at the top, and no "0" on an empty segment.
      expect(chart.xml).toContain('<c:orientation val="maxMin"/>');
      expect(chart.xml).toContain('formatCode="0;;;"');
      // Full names, in the table's order.
      expect(chart.series[0]?.categories).toEqual(result.summary.headers.slice(2));
    }
  });

  it('names the exclusive segments by the answers they hold, and their values add up to the table’s shares', async () => {
    const charts = await deckCharts(await JSZip.loadAsync(await chartPresentation(tables)));
    const row = (question: string, statistic: string) =>
      result.summary.data
        .find((r) => String(r[0]).startsWith(`${question}:`) && r[1] === statistic)!
        .slice(2) as number[];
    const percent = (share: number) => Math.round(share * 1000) / 10;
    const liking = charts[result.questions.findIndex((q) => q.question.id === 'liking')]!;
    expect(liking.series.map((series) => series.name)).toEqual([
      'Top box (8-9)',
      'Rest of top 2 box (6-7)',
      'Neutral (5)',
      'Rest of bottom 2 box (3-4)',
      'Bottom box (1-2)',
    ]);
    const [top, restTop, neutral, restBottom, bottom] = liking.series.map((series) => series.values);
    row('liking', 'Top box').forEach((share, p) => expect(top![p]).toBe(percent(share)));
    row('liking', 'Top 2 box').forEach((share, p) =>
      expect(top![p]! + restTop![p]!).toBeCloseTo(percent(share), 6),
    );
    row('liking', 'Neutral').forEach((share, p) => expect(neutral![p]).toBe(percent(share)));
    row('liking', 'Bottom 2 box').forEach((share, p) =>
      expect(bottom![p]! + restBottom![p]!).toBeCloseTo(percent(share), 6),
    );
    const strength = charts[result.questions.findIndex((q) => q.question.id === 'strength')]!;
    expect(strength.series.map((series) => series.name)).toEqual([
      'Too strong (5)',
      'Strong, not too strong (4)',
      'Just right (3)',
      'Weak, not too weak (2)',
      'Too weak (1)',
    ]);
    const natural = charts[result.questions.findIndex((q) => q.question.id === 'natural')]!;
    expect(natural.series.map((series) => series.name)).toEqual(['Yes', 'No']);
    row('natural', 'Yes').forEach((share, p) => expect(natural.series[0]!.values[p]).toBe(percent(share)));
  });

  it('shows beside each product its base n, cumulative shares, and the letters of every level, under the test', async () => {
    const zip = await JSZip.loadAsync(await chartPresentation(tables));
    const index = result.questions.findIndex((q) => q.question.id === 'liking');
    const slide = (await zip.file(`ppt/slides/slide${index + 2}.xml`)?.async('string')) ?? '';
    const unescape = (text: string) =>
      text
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'")
        .replace(/&amp;/g, '&');
    const texts = [...slide.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((match) => unescape(match[1]!));
    const question = result.questions[index]!;
    const row = (statistic: string) =>
      result.summary.data.find((r) => String(r[0]).startsWith('liking:') && r[1] === statistic)!;
    for (const entry of question.significance) expect(texts).toContain(entry.row.label);
    result.products.forEach((product, p) => {
      expect(texts).toContain(`${product.letter}: ${product.label}`);
      expect(texts).toContain(String(row('Base (n)')[p + 2]));
      expect(texts).toContain(`${Math.round((row('Top 2 box')[p + 2] as number) * 100)}%`);
      expect(texts).toContain(`${Math.round((row('Bottom 2 box')[p + 2] as number) * 100)}%`);
      for (const entry of question.significance) {
        const letters = result.summary.data.find(
          (r) => String(r[0]).startsWith('liking:') && r[1] === `Significance ${entry.row.label}`,
        )![p + 2];
        expect(texts).toContain(letters || '-');
      }
    });
    expect(slide).toContain(result.letterRows[0]!.legend);
    expect(texts.join('\n')).toContain(`Omnibus test: ${omnibusText(question.omnibus)}`);
    expect(texts.join('\n')).toContain(
      result.legend.find((line) => line.startsWith('Multiple comparisons'))!,
    );
    expect(texts.join(' ')).toMatch(/Base n/);
  });
});

const hasOffice = spawnSync('soffice', ['--version'], { stdio: 'ignore' }).status === 0;

describe.skipIf(!hasOffice)('rendered with LibreOffice', () => {
  it('converts chart_ppt.pptx and summary.xlsx to PDF with a page per slide and per sheet', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'accord-render-'));
    try {
      // Two questions: the Summary with the legend under it (design, analyses) prints on two pages, then
      // JAR, Penalty and Legend on one each.
      const kept = new Set(['liking', 'strength']);
      const small: ResultTables = {
        ...tables,
        questions: result.questions.filter((q) => kept.has(q.question.id)),
        charts: result.charts.filter((chart) => kept.has(chart.question)),
        summary: {
          headers: result.summary.headers,
          data: result.summary.data.filter((row) => kept.has(String(row[0]).split(':')[0]!)),
        },
      };
      await writeFile(path.join(dir, 'chart_ppt.pptx'), await chartPresentation(small));
      await writeFile(path.join(dir, 'summary.xlsx'), await summaryWorkbook(small));
      const converted = spawnSync(
        'soffice',
        [
          `-env:UserInstallation=file://${dir}/profile`,
          '--headless',
          '--convert-to',
          'pdf',
          '--outdir',
          dir,
          path.join(dir, 'chart_ppt.pptx'),
          path.join(dir, 'summary.xlsx'),
        ],
        { encoding: 'utf8', timeout: 120_000 },
      );
      expect(converted.status, converted.stderr).toBe(0);
      const pages = async (name: string) => {
        const pdf = await readFile(path.join(dir, name), 'latin1');
        return [...pdf.matchAll(/\/Type\s*\/Page[^s]/g)].length;
      };
      expect(await pages('chart_ppt.pdf')).toBe(3);
      expect(await pages('summary.pdf')).toBe(5);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 150_000);
});
