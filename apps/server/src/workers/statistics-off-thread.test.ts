/// <reference types="node" />
import { afterAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../modules/statistics/engine/csv.ts';
import {
  buildDataset,
  readProductNames,
  readRegression,
  type Dataset,
} from '../modules/statistics/engine/dataset.ts';
import {
  generateStatistics,
  GeneratorError,
  type GeneratorOptions,
} from '../modules/statistics/engine/generate.ts';
import { sampleFiles } from '../modules/statistics/engine/sample-data.ts';
import { closeUploadWorkers, generateStatisticsOffThread } from './pool.ts';

afterAll(async () => {
  await closeUploadWorkers();
});

/** The engine runs Tukey HSD for seconds; a busy machine may take several times that. */
const LONG = 120_000;

const files = sampleFiles();
const dataset = (): Dataset =>
  buildDataset({
    name: 'Sample',
    data: parseCsv(files['sample_data.csv'], 'sample_data.csv'),
    scale: parseCsv(files['sample_scale.csv'], 'sample_scale.csv'),
    productColumn: 'product_code',
    binaryOption: '0 and 1',
    productNames: readProductNames(parseCsv(files['sample_products.csv'], 'sample_products.csv')),
  });

// The defaults of a run: Tukey HSD and the design read from the data, with a regression, charts and
// names in place of codes, so that every part of the result crosses the thread.
const options = (data: Dataset): GeneratorOptions => ({
  mainQuestion: 'liking',
  productOrder: 'Unspecified Product Order',
  testTypes: ['two_99', 'two_95', 'two_90'],
  parametric: true,
  regression: readRegression(
    parseCsv(files['sample_regression.csv'], 'sample_regression.csv'),
    new Set(data.questions.map((q) => q.id)),
  ),
  replaceProductCodes: true,
  charts: true,
  displayCorrelation: true,
});

describe('generateStatisticsOffThread', () => {
  it(
    'answers in a worker thread the same result as the engine on the request loop',
    async () => {
      const data = dataset();
      const offThread = await generateStatisticsOffThread(data, options(data));
      const here = generateStatistics(data, options(data));
      expect(offThread.products.length).toBeGreaterThan(1);
      expect(offThread.charts.length).toBeGreaterThan(0);
      expect(offThread.regression).not.toBeNull();
      expect(offThread).toStrictEqual(here);
    },
    LONG,
  );

  it(
    'throws the GeneratorError of options the data cannot satisfy, with its message',
    async () => {
      const data = dataset();
      const refusal = 'The main question "gender" is not a question with a scale in the data.';
      expect(() => generateStatistics(data, { ...options(data), mainQuestion: 'gender' })).toThrow(
        new GeneratorError(refusal),
      );
      const refused = generateStatisticsOffThread(data, { ...options(data), mainQuestion: 'gender' });
      await expect(refused).rejects.toBeInstanceOf(GeneratorError);
      await expect(refused).rejects.toThrow(refusal);
    },
    LONG,
  );

  it(
    'leaves the request loop free while the engine runs',
    async () => {
      const data = dataset();
      // Timers fire while the engine works in a thread; on the loop, none could until it ended.
      let ticks = 0;
      const tick = setInterval(() => (ticks += 1), 1);
      try {
        await generateStatisticsOffThread(data, options(data));
      } finally {
        clearInterval(tick);
      }
      expect(ticks).toBeGreaterThan(0);
    },
    LONG,
  );
});
