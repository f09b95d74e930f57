/// <reference types="node" />
// The generator against packages/stats and the SciPy reference cases, and the csv refusals.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  assignSignificanceLetters,
  harmoniseToFivePoint,
  jarDistribution,
  ols,
  pairwiseOutcomes,
  pearson,
  penaltyAnalysis,
  vif,
} from '@accord/stats';
import { describe, expect, it } from 'vitest';
import { CsvError, parseCsv } from './csv.ts';
import { buildDataset, readProductNames, readRegression, type Dataset } from './dataset.ts';
import { generateStatistics, GeneratorError, letterRows, type GeneratorOptions } from './generate.ts';
import { SAMPLES_DIR, sampleFiles } from './sample-data.ts';

type ReferenceCase = { id: string; x: number[]; y: number[]; expected: { p_value: number } };
const referenceCases = JSON.parse(
  readFileSync(
    new URL('../../../../../../packages/stats/reference/stats-cases.json', import.meta.url),
    'utf8',
  ),
) as ReferenceCase[];
const reference = (id: string): ReferenceCase => {
  const found = referenceCases.find((entry) => entry.id === id);
  if (!found) throw new Error(`no reference case ${id}`);
  return found;
};

const files = sampleFiles();
const sampleDataset = (names = false): Dataset =>
  buildDataset({
    name: 'Sample',
    data: parseCsv(files['sample_data.csv'], 'sample_data.csv'),
    scale: parseCsv(files['sample_scale.csv'], 'sample_scale.csv'),
    productColumn: 'product_code',
    binaryOption: '0 and 1',
    ...(names
      ? { productNames: readProductNames(parseCsv(files['sample_products.csv'], 'sample_products.csv')) }
      : {}),
  });

const baseOptions: GeneratorOptions = {
  mainQuestion: 'liking',
  productOrder: 'Unspecified Product Order',
  testTypes: ['two_99', 'two_95', 'two_90'],
  paired: true,
  parametric: true,
  regression: null,
  replaceProductCodes: false,
  charts: true,
  displayCorrelation: true,
  // These tests compare letters with the uncorrected pairwise tests; the defaults are tested apart.
  multipleComparisons: 'none',
};

/** Two products with the reference case's samples as answers on a wide scale (harmonising is linear). */
function twoProductDataset(x: readonly number[], y: readonly number[], paired: boolean): Dataset {
  const min = -10;
  const max = 10;
  const rows = [
    ...x.map((value, index) => ({
      respondent: paired ? `r${index}` : `x${index}`,
      product: 'X',
      values: [value],
    })),
    ...y.map((value, index) => ({
      respondent: paired ? `r${index}` : `y${index}`,
      product: 'Y',
      values: [value],
    })),
  ];
  return {
    name: 'Reference',
    questions: [{ id: 'q', text: 'Reference', type: 'numerical', min, max }],
    rows,
    products: ['X', 'Y'],
    productNames: new Map(),
  };
}

describe('sample files', () => {
  it('are the committed bytes of the deterministic generator', () => {
    for (const [name, content] of Object.entries(files))
      expect(readFileSync(join(SAMPLES_DIR, name), 'utf8'), name).toBe(content);
  });
});

describe('p-values of the generator agree with the SciPy reference cases', () => {
  const cases: [string, boolean, boolean, GeneratorOptions['testTypes']][] = [
    ['welch_t-000', false, true, ['two_95']],
    ['welch_t-018', false, true, ['two_95']],
    ['mann_whitney-020', false, false, ['two_95']],
    ['paired_t-036', true, true, ['two_95']],
    ['paired_t-054', true, true, ['two_95']],
    ['wilcoxon_signed_rank-046', true, false, ['two_90']],
    ['wilcoxon_signed_rank-064', true, false, ['two_95']],
    // One-tailed in the observed direction: the reference's "greater" with a positive difference.
    ['paired_t-066', true, true, ['one_99']],
    ['wilcoxon_signed_rank-058', true, false, ['one_99']],
  ];
  it.each(cases)('%s', (id, paired, parametric, testTypes) => {
    const entry = reference(id);
    const result = generateStatistics(twoProductDataset(entry.x, entry.y, paired), {
      ...baseOptions,
      mainQuestion: 'q',
      paired,
      parametric,
      testTypes,
      // The test's own p-value, without control of multiplicity.
      multipleComparisons: 'none',
    });
    const outcomes = result.questions[0]?.significance[0]?.outcomes;
    const p = outcomes?.[0]?.[1]?.pValue ?? Number.NaN;
    expect(Math.abs(p - entry.expected.p_value) / entry.expected.p_value).toBeLessThan(1e-6);
    expect(outcomes?.[1]?.[0]?.pValue).toBe(p);
    // The letter appears exactly when p is below the level, on the higher product.
    const letters = result.questions[0]?.significance[0]?.letters ?? [];
    const level = result.letterRows[0]?.levels[0] ?? 0;
    const higher = outcomes?.[0]?.[1]?.direction === 'mt' ? 0 : 1;
    expect(letters[higher]?.text).toBe(p < level ? (higher === 0 ? 'B' : 'A') : '');
    expect(letters[1 - higher]?.text).toBe('');
  });
});

describe('generator on the sample data', () => {
  const dataset = sampleDataset(true);
  const result = generateStatistics(dataset, {
    ...baseOptions,
    strengthQuestions: ['strength'],
    cpvQuestions: ['purchase_intention'],
  });
  const q = (id: string): number => dataset.questions.findIndex((question) => question.id === id);
  const harmonisedByProduct = (id: string): number[][] => {
    const question = dataset.questions[q(id)];
    if (!question) throw new Error(id);
    const respondents = [...new Set(dataset.rows.map((row) => row.respondent))];
    return dataset.products.map((code) =>
      respondents.map((respondent) => {
        const row = dataset.rows.find((entry) => entry.product === code && entry.respondent === respondent);
        return row
          ? harmoniseToFivePoint(row.values[q(id)] ?? Number.NaN, question.min, question.max)
          : Number.NaN;
      }),
    );
  };

  it('letters match packages/stats pairwise tests at 99/95 (upper, lower case) and 90 %', () => {
    const samples = harmonisedByProduct('liking');
    const outcomes = pairwiseOutcomes(samples, { method: 'paired-t', tails: 2 });
    const strict = assignSignificanceLetters(outcomes, [0.01, 0.05]).map((letter) => letter.text);
    const loose = assignSignificanceLetters(outcomes, [0.1]).map((letter) => letter.text);
    const rows = result.summary.data.filter((row) => row[0] === 'liking: Overall liking');
    expect(rows.find((row) => row[1] === 'Significance Two-tailed 99% / 95%')?.slice(2)).toEqual(strict);
    expect(rows.find((row) => row[1] === 'Significance Two-tailed 90%')?.slice(2)).toEqual(loose);
    // The sample is built so that F101 is liked most: it beats someone at 99 %.
    expect(strict[0]).toMatch(/[A-Z]/);
  });

  it('summary holds base, harmonised mean and boxes per product', () => {
    const rows = result.summary.data.filter((row) => row[0] === 'fresh: How fresh is the fragrance?');
    const fresh = harmonisedByProduct('fresh');
    const finite = fresh.map((values) => values.filter(Number.isFinite));
    expect(rows.find((row) => row[1] === 'Base (n)')?.slice(2)).toEqual(
      finite.map((values) => values.length),
    );
    const means = rows.find((row) => row[1] === 'Mean')?.slice(2) as number[];
    finite.forEach((values, index) =>
      expect(means[index]).toBeCloseTo(values.reduce((a, b) => a + b, 0) / values.length, 12),
    );
    const top2 = rows.find((row) => row[1] === 'Top 2 box')?.slice(2) as number[];
    finite.forEach((values, index) =>
      expect(top2[index]).toBeCloseTo(values.filter((value) => value >= 3.5).length / values.length, 12),
    );
    expect(result.summary.headers.slice(0, 3)).toEqual(['Question', 'Statistic', 'A: F101']);
  });

  it('strength questions read too weak / just right / too strong with the penalty analysis', () => {
    const strengthRows = result.summary.data.filter(
      (row) => row[0] === 'strength: Strength of the fragrance',
    );
    expect(strengthRows.map((row) => row[1])).toContain('Just right');
    const jar = result.jar;
    // Each penalty group pools two points of the scale, and its name says so.
    expect(jar?.headers.slice(3, 6)).toEqual(['Weak or too weak', 'Just right', 'Strong or too strong']);
    expect(jar?.headers.slice(7)).toEqual([
      'Weak or too weak: mean drop',
      'Weak or too weak: standard error',
      'Weak or too weak: p-value',
      'Weak or too weak: penalty',
      'Strong or too strong: mean drop',
      'Strong or too strong: standard error',
      'Strong or too strong: p-value',
      'Strong or too strong: penalty',
      'Note',
    ]);
    const first = jar?.data[0];
    const strength = harmonisedByProduct('strength')[0] ?? [];
    const liking = harmonisedByProduct('liking')[0] ?? [];
    const distribution = jarDistribution(strength);
    const penalty = penaltyAnalysis(strength, liking);
    expect(first?.slice(2, 6)).toEqual([
      distribution.n,
      distribution.tooWeak,
      distribution.justRight,
      distribution.tooStrong,
    ]);
    expect(first?.[11]).toBeCloseTo(penalty.tooStrong.meanDrop ?? Number.NaN, 12);
  });

  it('the strength rows are the five exclusive points of the scale and add up to 100 %', () => {
    const strengthRows = result.summary.data.filter(
      (row) => row[0] === 'strength: Strength of the fragrance',
    );
    const labels = ['Too strong', 'Strong', 'Just right', 'Weak', 'Too weak'];
    const rows = labels.map((label) => strengthRows.find((row) => row[1] === label)?.slice(2) as number[]);
    const answers = harmonisedByProduct('strength').map((values) => values.filter(Number.isFinite));
    answers.forEach((values, product) => {
      const share = (test: (value: number) => boolean) => values.filter(test).length / values.length;
      const expected = [
        share((value) => value >= 4.5),
        share((value) => value >= 3.5 && value < 4.5),
        share((value) => value > 2.5 && value < 3.5),
        share((value) => value > 1.5 && value <= 2.5),
        share((value) => value <= 1.5),
      ];
      rows.forEach((row, index) => expect(row[product]).toBeCloseTo(expected[index]!, 12));
      expect(rows.reduce((sum, row) => sum + row[product]!, 0)).toBeCloseTo(1, 12);
    });
  });

  it('correlations with the main question are Pearson r on harmonised answers', () => {
    const row = result.correlation.data.find(
      (entry) => entry[0] === 'pleasant: How pleasant is the fragrance?',
    );
    const column = (id: string): number[] => {
      const question = dataset.questions[q(id)];
      return dataset.rows.map((entry) =>
        question
          ? harmoniseToFivePoint(entry.values[q(id)] ?? Number.NaN, question.min, question.max)
          : Number.NaN,
      );
    };
    const expected = pearson(column('pleasant'), column('liking'));
    expect(row?.[1]).toBeCloseTo(expected.r, 12);
    expect(row?.[2]).toBeCloseTo(expected.pValue, 15);
    expect(result.correlation.data).toHaveLength(dataset.questions.length - 1);
  });

  it('fits the OLS regression of the regression file', () => {
    const regression = readRegression(
      parseCsv(files['sample_regression.csv'], 'sample_regression.csv'),
      new Set(dataset.questions.map((question) => question.id)),
    );
    const withRegression = generateStatistics(dataset, { ...baseOptions, regression });
    const column = (id: string): number[] => {
      const question = dataset.questions[q(id)];
      return dataset.rows.map((entry) =>
        question
          ? harmoniseToFivePoint(entry.values[q(id)] ?? Number.NaN, question.min, question.max)
          : Number.NaN,
      );
    };
    const drivers = ['pleasant', 'fresh', 'long_lasting'].map(column);
    const y = column('liking');
    const complete = y.map((value, i) =>
      [value, ...drivers.map((driver) => driver[i] ?? Number.NaN)].every(Number.isFinite),
    );
    const fit = ols(
      y.map((_, index) => drivers.map((driver) => driver[index] ?? Number.NaN)),
      y,
    );
    const table = withRegression.regression;
    expect(table?.data.map((row) => row[0]).slice(0, 4)).toEqual([
      '(Intercept)',
      'pleasant: How pleasant is the fragrance?',
      'fresh: How fresh is the fragrance?',
      'long_lasting: How long lasting is the fragrance?',
    ]);
    // Each driver's variance inflation factor, from the same rows.
    const inflation = vif(drivers.map((driver) => driver.filter((_, i) => complete[i])));
    table?.data
      .slice(1, 4)
      .forEach((row, index) => expect(row[5]).toBeCloseTo(inflation[index] ?? Number.NaN, 10));
    expect(table?.data[1]?.[1]).toBeCloseTo(fit.coefficients[1] ?? Number.NaN, 12);
    expect(table?.data.find((row) => row[0] === 'R squared')?.[1]).toBeCloseTo(fit.rSquared, 12);
  });

  it('charts: stacked box shares per product summing to 100 %, names replacing codes', () => {
    const named = generateStatistics(dataset, { ...baseOptions, replaceProductCodes: true });
    const chart = named.charts.find((entry) => entry.question === 'fresh');
    expect(chart?.labels).toEqual([
      'A: Amber Dusk',
      'B: Citrus Veil',
      'C: Green Orchard',
      'D: Velvet Musk and...',
    ]);
    const totals = chart?.labels.map((_, index) =>
      chart.series.reduce((sum, series) => sum + (series.values[index] ?? 0), 0),
    );
    totals?.forEach((total) => expect(total).toBeCloseTo(100, 0));
    expect(named.charts).toHaveLength(dataset.questions.length);
    expect(generateStatistics(dataset, { ...baseOptions, charts: false }).charts).toEqual([]);
  });

  it('benchmarks are compared with every candidate only', () => {
    const benchmarked = generateStatistics(dataset, { ...baseOptions, benchmarkCodes: ['F103'] });
    expect(benchmarked.products.map((product) => product.code)).toEqual(['F103', 'F101', 'F102', 'F104']);
    const outcomes = benchmarked.questions[q('liking')]?.significance[0]?.outcomes ?? [];
    expect(outcomes[1]?.[2]).toBeNull();
    expect(outcomes[0]?.[1]).not.toBeNull();
    expect(benchmarked.legend.some((line) => line.startsWith('Benchmarks (A)'))).toBe(true);
  });

  it('orders products by the chosen option', () => {
    const order = (options: Partial<GeneratorOptions>): string[] =>
      generateStatistics(dataset, { ...baseOptions, ...options }).products.map((product) => product.code);
    expect(order({ productOrder: 'Specified Product Order', productCodeOrder: ['F104', 'F102'] })).toEqual([
      'F104',
      'F102',
      'F101',
      'F103',
    ]);
    expect(order({ productOrder: 'Specified Benchmark Order Only', benchmarkOrder: ['F102'] })).toEqual([
      'F102',
      'F101',
      'F103',
      'F104',
    ]);
    expect(
      order({ productOrder: 'Specified Candidate Order Only', candidateOrder: ['F104', 'F101'] }),
    ).toEqual(['F102', 'F103', 'F104', 'F101']);
    expect(() => order({ productOrder: 'Specified Product Order', productCodeOrder: ['F999'] })).toThrow(
      new GeneratorError('"F999" is not a product code of the data.'),
    );
  });

  it('refuses a CPV question off a 5-point scale and an unknown main question', () => {
    expect(() => generateStatistics(dataset, { ...baseOptions, cpvQuestions: ['liking'] })).toThrow(
      /not on a 5-point scale/,
    );
    expect(() => generateStatistics(dataset, { ...baseOptions, mainQuestion: 'gender' })).toThrow(
      GeneratorError,
    );
  });

  it('letter rows pair the levels of each tails kind from the strictest', () => {
    expect(letterRows(['two_90', 'one_95', 'two_99', 'two_95'], 'welch-t').map((row) => row.label)).toEqual([
      'Two-tailed 99% / 95%',
      'Two-tailed 90%',
      'One-tailed 95%',
    ]);
  });
});

describe('bad input names the file, row and column', () => {
  const scale = parseCsv(files['sample_scale.csv'], 'sample_scale.csv');
  const build = (data: string) =>
    buildDataset({
      name: 'x',
      data: parseCsv(data, 'data.csv'),
      scale,
      productColumn: 'product_code',
      binaryOption: '0 and 1',
    });
  const header =
    'respondent_id,product_code,liking,pleasant,fresh,long_lasting,strength,purchase_intention,natural';
  const expectCsvError = (run: () => unknown, message: string) => {
    expect(run).toThrow(CsvError);
    expect(run).toThrow(message);
  };

  it('an empty file', () => expectCsvError(() => parseCsv('', 'data.csv'), 'data.csv is empty.'));
  it('a wrong delimiter', () =>
    expectCsvError(
      () => parseCsv('a;b;c\n1;2;3\n', 'data.csv'),
      'data.csv, row 1: the columns are separated by semicolons; save the file with commas (,) as the delimiter.',
    ));
  it('a missing product code column', () =>
    expectCsvError(
      () => build(`${header.replace('product_code', 'sample')}\nR1,F1,1,1,1,1,1,1,0\n`),
      'data.csv: there is no column "product_code".',
    ));
  it('a non-numeric answer', () =>
    expectCsvError(
      () => build(`${header}\nR1,F1,5,4,3,3,3,3,1\nR1,F2,6,high,3,3,3,3,1\n`),
      'data.csv, row 3, column pleasant: "high" is not a number.',
    ));
  it('an answer off the scale', () =>
    expectCsvError(
      () => build(`${header}\nR1,F1,10,4,3,3,3,3,1\n`),
      'data.csv, row 2, column liking: 10 is outside the scale 1 to 9.',
    ));
  it('a short row', () =>
    expectCsvError(
      () => build(`${header}\nR1,F1,5,4\n`),
      'data.csv, row 2: expected 9 cells as in the header, found 4.',
    ));
  it('a question of the scale missing from the data', () =>
    expectCsvError(
      () => build('respondent_id,product_code,liking\nR1,F1,5\n'),
      'data.csv: the question "pleasant" of sample_scale.csv is not a column of the data file.',
    ));
  it('an empty product code', () =>
    expectCsvError(
      () => build(`${header}\nR1,,5,4,3,3,3,3,1\n`),
      'data.csv, row 2, column product_code: the product code is empty.',
    ));
  it('a header without rows', () =>
    expectCsvError(() => parseCsv(`${header}\n`, 'data.csv'), 'data.csv has a header but no data rows.'));
  it('an unknown question type in the scale', () =>
    expectCsvError(
      () =>
        buildDataset({
          name: 'x',
          data: parseCsv(`${header}\nR1,F1,5,4,3,3,3,3,1\n`, 'd.csv'),
          scale: parseCsv('question_id,text,type,scale_min,scale_max\nliking,Liking,likert,1,9\n', 's.csv'),
          productColumn: 'product_code',
          binaryOption: '0 and 1',
        }),
      's.csv, row 2, column type: "likert" is not a question type',
    ));
  it('quoted cells with commas and blank lines keep the row numbers', () => {
    const table = parseCsv('a,b\n"x, y",1\n\n"he said ""hi""",2\n', 'q.csv');
    expect(table.rows).toEqual([
      ['x, y', '1'],
      ['he said "hi"', '2'],
    ]);
    expect(table.rowNumbers).toEqual([2, 4]);
  });
  it('paired tests without a respondent column', () => {
    const dataset = buildDataset({
      name: 'x',
      data: parseCsv(
        `${header.replace('respondent_id,', '')}\nF1,5,4,3,3,3,3,1\nF2,6,4,3,3,3,3,1\n`,
        'd.csv',
      ),
      scale,
      productColumn: 'product_code',
      binaryOption: '0 and 1',
    });
    expect(() => generateStatistics(dataset, baseOptions)).toThrow(
      /Paired tests need a respondent_id column/,
    );
    expect(generateStatistics(dataset, { ...baseOptions, paired: false }).products).toHaveLength(2);
  });
});
