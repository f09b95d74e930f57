/// <reference types="node" />
// The result files open (exceljs, the pptx zip) and hold the computed numbers.
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv.ts';
import { buildDataset, readProductNames, readRegression } from './dataset.ts';
import { generateStatistics } from './generate.ts';
import { sampleFiles } from './sample-data.ts';
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
const tables: ResultTables = { studyName: 'Sample study', ...result };

async function open(buffer: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  return workbook;
}

function sheetRows(sheet: ExcelJS.Worksheet | undefined): unknown[][] {
  const rows: unknown[][] = [];
  sheet?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describe('summary.xlsx', () => {
  it('holds the summary table with numbers, the JAR sheet and the legend', async () => {
    const workbook = await open(await summaryWorkbook(tables));
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Summary', 'JAR', 'Legend']);
    const rows = sheetRows(workbook.getWorksheet('Summary'));
    expect(rows[0]).toEqual(result.summary.headers);
    expect(rows).toHaveLength(result.summary.data.length + 1);
    const mean = result.summary.data.find((row) => row[1] === 'Mean');
    const written = rows.find((row) => row[0] === mean?.[0] && row[1] === 'Mean');
    expect(written?.slice(2)).toEqual(mean?.slice(2));
    expect(typeof written?.[2]).toBe('number');
    const letters = result.summary.data.find((row) => String(row[1]).startsWith('Significance'));
    expect(rows.find((row) => row[0] === letters?.[0] && row[1] === letters?.[1])?.slice(2)).toEqual(
      letters?.slice(2).map((text) => text ?? ''),
    );
    const jar = sheetRows(workbook.getWorksheet('JAR'));
    expect(jar[1]?.[3]).toBe(result.jar?.data[0]?.[3]);
    expect(sheetRows(workbook.getWorksheet('Legend')).flat()).toContain(result.legend[0]);
  });
});

describe('Regressions&Correlations.xlsx', () => {
  it('holds the correlations and the regression', async () => {
    const workbook = await open(await correlationWorkbook(tables));
    const correlations = sheetRows(workbook.getWorksheet('Correlations'));
    expect(correlations[0]).toEqual(result.correlation.headers);
    expect(correlations[1]).toEqual(result.correlation.data[0]);
    const regression = sheetRows(workbook.getWorksheet('Regression'));
    expect(regression.find((row) => row[0] === 'R squared')?.[1]).toBe(
      result.regression?.data.find((row) => row[0] === 'R squared')?.[1],
    );
  });
});

describe('chart_ppt.pptx', () => {
  it('is a zip with one native chart part per question holding the shares', async () => {
    const zip = await JSZip.loadAsync(await chartPresentation(tables));
    const charts = Object.keys(zip.files).filter((name) => /^ppt\/charts\/chart\d+\.xml$/.test(name));
    expect(charts).toHaveLength(dataset.questions.length);
    const slides = Object.keys(zip.files).filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name));
    expect(slides).toHaveLength(dataset.questions.length + 1);
    const xml = await Promise.all(charts.map((name) => zip.file(name)?.async('string') ?? ''));
    expect(
      xml.every((text) => text.includes('<c:barChart>') && text.includes('<c:grouping val="stacked"/>')),
    ).toBe(true);
    const fresh = result.charts.find((chart) => chart.question === 'fresh');
    const topBox = fresh?.series.find((series) => series.name === 'Top box')?.values[0];
    const freshXml = xml.find(
      (text) =>
        text.includes('Amber Dusk') && text.includes('Top box') && text.includes(`<c:v>${topBox}</c:v>`),
    );
    expect(freshXml).toBeDefined();
    const slideText = await zip.file('ppt/slides/slide2.xml')?.async('string');
    expect(slideText).toContain('Significance letters');
  });
});
