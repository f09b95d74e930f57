/**
 * The statistics generator (document 3 sections 2.11, 3.5, 4.8) and the study statistics page.
 *
 * A wizard run lives in a working folder: a statistics_runs row owned by the user (another user's
 * folder answers 404) and the files under `statistics/{folder}/` of the file storage (DATA_DIR).
 * Folders older than a day are removed, with their files, whenever a new one is created. The uploads
 * are checked when they arrive (a refused csv stores nothing and the message names file, row and
 * column); generating results reads them again, runs the engine and writes the three result files.
 */
import { randomUUID } from 'node:crypto';
import {
  STUDIES_UPLOAD_MESSAGES,
  STATISTICS_FILES,
  STATISTICS_FOLDER_TTL_MS,
  STATISTICS_MESSAGES,
  type StatisticsFileName,
  type StatisticsFileResponse,
  type StatisticsFormParsed,
  type StatisticsProductCodeRequest,
  type StatisticsProductCodeResponse,
  type StatisticsResults,
  type StatisticsDesign,
  type StatisticsScaleResponse,
  type StatisticsStudyProducts,
  type StatisticsUploadResponse,
} from '@accord/contracts';
import type { Clock } from '../../lib/clock.ts';
import { studyByIdScope } from '../../lib/client-scope.ts';
import { errors } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import { generateStatisticsOffThread, parseCsvOffThread, UploadMemoryError } from '../../workers/pool.ts';
import { CsvError, type CsvTable } from './engine/csv.ts';
import {
  buildDataset,
  checkAnswers,
  checkNumericColumns,
  isOutcomeMeasure,
  parseNumber,
  productCodeColumns,
  productCodesOf,
  readProductNames,
  readRegression,
  readScale,
  RESPONDENT_COLUMN,
  SCALED_TYPES,
  type Dataset,
  type QuestionDef,
  type QuestionType,
  type RegressionSpec,
} from './engine/dataset.ts';
import { designLine, defaultPaired } from './engine/design.ts';
import { GeneratorError } from './engine/generate.ts';
import { designDetection } from '@accord/stats';
import { SAMPLE_FILES, SAMPLE_FOLDER, sampleFiles, type SampleFile } from './engine/sample-data.ts';
import { chartPresentation, correlationWorkbook, summaryWorkbook } from './engine/writers.ts';
import type { RunState, StatisticsRepository } from './statistics.repository.ts';

export interface UploadedCsv {
  fileName: string;
  bytes: Buffer;
  truncated: boolean;
}

/** The wizard's csv files kept in a folder. */
const STORED = {
  data: 'data.csv',
  scale: 'scale.csv',
  regression: 'regression.csv',
  names: 'names.csv',
} as const;
const DEMOGRAPHIC_COLUMNS = new Set([
  RESPONDENT_COLUMN,
  'gender',
  'age',
  'ethnicity',
  'social_class',
  'country',
]);

const CONTENT_TYPES: Record<string, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

export interface DownloadFile {
  fileName: string;
  contentType: string;
  bytes: Buffer;
}

const key = (folder: string, file: string): string => `statistics/${folder}/${file}`;

/** The design of who rated what (one entry per answer row), as the wizard and the filter card preselect from it. */
function designOf(respondents: readonly string[] | null, products: readonly string[]): StatisticsDesign {
  const detected = respondents ? designDetection(respondents, products) : null;
  return {
    design: detected?.design ?? null,
    respondents: detected?.respondents ?? 0,
    products: detected?.products ?? new Set(products).size,
    paired: defaultPaired(detected),
    text: designLine(detected),
  };
}

/**
 * The products a fragrance test compares: its fragrances. Concepts shown in the same study are rated
 * on other questions and are not products of the test; a study of concepts only compares its concepts.
 */
function testProducts<T extends { kind: 'fragrance' | 'concept' }>(products: readonly T[]): T[] {
  return products.some((product) => product.kind === 'fragrance')
    ? products.filter((product) => product.kind === 'fragrance')
    : [...products];
}
const option = (value: string, label = value) => ({ value, label });

/** A refused upload or option: the engine's message as a 400 naming the file, row and column. */
function asBadRequest(error: unknown): never {
  if (error instanceof CsvError || error instanceof GeneratorError) {
    const path =
      error instanceof CsvError
        ? [error.file, error.row, error.column].filter((part) => part !== undefined).join(':')
        : 'form';
    throw errors.badRequest(error.message, [{ path, message: error.message }]);
  }
  throw error;
}

function checkCsv(file: UploadedCsv | undefined, field: string): UploadedCsv {
  if (!file)
    throw errors.badRequest(STATISTICS_MESSAGES.missingValue(field), [
      { path: field, message: STATISTICS_MESSAGES.missingValue(field) },
    ]);
  if (!file.fileName.toLowerCase().endsWith('.csv'))
    throw errors.badRequest(STATISTICS_MESSAGES.invalidExtension, [
      { path: field, message: STATISTICS_MESSAGES.invalidExtension },
    ]);
  if (file.truncated) throw errors.badRequest(`${file.fileName} is larger than 20 MB.`);
  return file;
}

/** Parses an upload in a worker thread (workers/pool.ts); a refused csv is a 400 naming it. */
async function parse(file: UploadedCsv): Promise<CsvTable> {
  try {
    return await parseCsvOffThread(file.bytes, file.fileName);
  } catch (error) {
    if (error instanceof UploadMemoryError)
      throw errors.badRequest(STUDIES_UPLOAD_MESSAGES.unreadableTable(file.fileName));
    return asBadRequest(error);
  }
}

const csvLine = (cells: readonly (string | number)[]): string =>
  cells
    .map((cell) => (/[",\n]/.test(String(cell)) ? `"${String(cell).replaceAll('"', '""')}"` : String(cell)))
    .join(',');

export function createStatisticsService(deps: {
  runs: StatisticsRepository;
  storage: FileStorage;
  clock: Clock;
}) {
  const { runs, storage, clock } = deps;

  async function removeFolder(folder: string): Promise<void> {
    for (const file of [...Object.values(STORED), ...STATISTICS_FILES])
      await storage.remove(key(folder, file));
  }

  /** Removes the working folders older than a day (rows and files). */
  async function cleanExpired(): Promise<number> {
    const expired = await runs.removeRunsBefore(new Date(clock.now().getTime() - STATISTICS_FOLDER_TTL_MS));
    for (const folder of expired) await removeFolder(folder);
    return expired.length;
  }

  async function ownRun(user: AuthUser, folder: string) {
    const run = await runs.findRun(folder, user.id);
    if (!run) throw errors.notFound(STATISTICS_MESSAGES.folderNotFound);
    return { run, state: run.form as RunState };
  }

  async function readStored(folder: string, file: string, fileName: string): Promise<CsvTable> {
    try {
      return await parseCsvOffThread(await storage.get(key(folder, file)), fileName);
    } catch (error) {
      if (error instanceof UploadMemoryError)
        throw errors.badRequest(STUDIES_UPLOAD_MESSAGES.unreadableTable(fileName));
      throw error;
    }
  }

  async function newFolder(
    user: AuthUser,
    studyName: string,
    studyId: number | null,
    state: RunState,
  ): Promise<string> {
    await cleanExpired();
    const folderName = randomUUID();
    await runs.createRun({
      folderName,
      userId: user.id,
      studyId,
      studyName,
      form: state,
      createdAt: clock.now(),
    });
    return folderName;
  }

  async function visibleStudy(user: AuthUser, studyId: number) {
    const study = await runs.findStudy(studyId, studyByIdScope(user));
    if (!study) throw errors.notFound(STATISTICS_MESSAGES.studyNotFound(studyId));
    return study;
  }

  /**
   * An existing study as a generator dataset: its questions with a scale, keyed by their metric name
   * (the values GET /study/metrics/{id} offers), or by question id when not mapped; one row per
   * respondent and product. A metric mapped in several results files takes the first file's question.
   */
  async function studyDataset(
    user: AuthUser,
    studyId: number,
    categories: readonly string[] = [],
  ): Promise<Dataset> {
    const study = await visibleStudy(user, studyId);
    const [rows, allProducts] = await Promise.all([runs.questionsOf(studyId), runs.productsOf(studyId)]);
    const products = testProducts(allProducts);
    // The category filter: only the products of the chosen families enter the statistics.
    const known = new Set(products.map((product) => product.category).filter((family) => family !== null));
    for (const category of categories)
      if (!known.has(category)) throw errors.badRequest(STATISTICS_MESSAGES.unknownCategory(category));
    const kept =
      categories.length === 0
        ? products
        : products.filter((product) => product.category !== null && categories.includes(product.category));
    const keptCodes = new Set(kept.map((product) => product.code));
    const used = new Set<string>();
    const chosen: { id: number; def: QuestionDef }[] = [];
    for (const row of rows) {
      const id = row.metricName ?? row.qid;
      if (used.has(id)) continue;
      const binary = row.questionType === 'binary';
      const min = row.scaleMin ?? (binary ? 0 : null);
      const max = row.scaleMax ?? (binary ? 1 : null);
      if (min === null || max === null || !(max > min)) continue;
      used.add(id);
      chosen.push({
        id: row.id,
        def: {
          id,
          text: row.metricLabel ? `${row.metricLabel} (${row.qid})` : row.text,
          type: row.questionType as QuestionType,
          min,
          max,
        },
      });
    }
    const allAnswers = await runs.answersOf(
      studyId,
      chosen.map((entry) => entry.id),
    );
    if (allAnswers.length === 0) throw errors.badRequest(STATISTICS_MESSAGES.studyHasNoAnswers);
    const answerRows = allAnswers.filter((answer) => keptCodes.has(answer.product));
    const position = new Map(chosen.map((entry, index) => [entry.id, index]));
    const byRespondentProduct = new Map<string, { respondent: string; product: string; values: number[] }>();
    for (const answer of answerRows) {
      const rowKey = `${answer.respondent}\u0000${answer.product}`;
      let row = byRespondentProduct.get(rowKey);
      if (!row) {
        row = {
          respondent: answer.respondent,
          product: answer.product,
          values: chosen.map(() => Number.NaN),
        };
        byRespondentProduct.set(rowKey, row);
      }
      const index = position.get(answer.questionId);
      if (index !== undefined) row.values[index] = answer.rawValue;
    }
    const present = new Set(answerRows.map((answer) => answer.product));
    if (categories.length > 0 && present.size < 2)
      throw errors.badRequest(STATISTICS_MESSAGES.tooFewProducts(present.size));
    return {
      name: study.projectName,
      questions: chosen.map((entry) => entry.def),
      rows: [...byRespondentProduct.values()],
      products: kept.map((product) => product.code).filter((code) => present.has(code)),
      productNames: new Map(products.map((product) => [product.code, product.name])),
    };
  }

  async function uploadDataset(
    folder: string,
    state: RunState,
    form: StatisticsFormParsed,
    studyName: string,
  ): Promise<Dataset> {
    if (!state.data_file) throw errors.badRequest(STATISTICS_MESSAGES.dataFirst);
    if (!state.scale_file) throw errors.badRequest(STATISTICS_MESSAGES.scaleFirst);
    try {
      const data = await readStored(folder, STORED.data, state.data_file);
      const scale = await readStored(folder, STORED.scale, state.scale_file);
      const productNames =
        form.replace_product_codes && state.names_file
          ? readProductNames(await readStored(folder, STORED.names, state.names_file))
          : undefined;
      return buildDataset({
        name: studyName,
        data,
        scale,
        productColumn: form.product_code,
        binaryOption: form.binary_option,
        ...(productNames ? { productNames } : {}),
      });
    } catch (error) {
      return asBadRequest(error);
    }
  }

  async function regressionOf(
    dataset: Dataset,
    form: StatisticsFormParsed,
    folder: string | null,
    state: RunState,
  ): Promise<RegressionSpec | null> {
    if (!form.regression) return null;
    if (folder && state.regression_file) {
      try {
        return readRegression(
          await readStored(folder, STORED.regression, state.regression_file),
          new Set(dataset.questions.map((q) => q.id)),
        );
      } catch (error) {
        return asBadRequest(error);
      }
    }
    if (folder) throw errors.badRequest(STATISTICS_MESSAGES.missingValue('regression_input'));
    // An existing study: every other scale question drives the main one, except strength questions and
    // measures of the outcome itself (purchase intention, recommendation, liking at another stage,
    // overall satisfaction), which the table names as left out.
    const strength = new Set(form.strength_questions);
    const candidates = dataset.questions.filter(
      (q) => q.id !== form.main_question_column && !strength.has(q.id) && q.type === 'numerical',
    );
    return {
      drivers: candidates.filter((q) => !isOutcomeMeasure(q)).map((q) => q.id),
      outcome: null,
      leftOut: candidates.filter((q) => isOutcomeMeasure(q)).map((q) => q.id),
    };
  }

  /** Runs the engine, writes the three files into the folder and keeps the result with the run. */
  async function compute(
    dataset: Dataset,
    form: StatisticsFormParsed,
    folder: string,
    regression: RegressionSpec | null,
    studyName: string,
    author: string,
  ): Promise<StatisticsResults> {
    let result;
    try {
      result = await generateStatisticsOffThread(dataset, {
        mainQuestion: form.main_question_column,
        productOrder: form.product_order,
        productCodeOrder: form.product_code_order,
        benchmarkCodes: form.benchmark_product_code,
        benchmarkOrder: form.benchmark_product_code_order,
        candidateOrder: form.candidate_product_code_order,
        strengthQuestions: form.strength_questions,
        cpvQuestions: form.cpv_question,
        testTypes: form.test_types,
        paired: form.paired,
        parametric: form.parametric,
        regression,
        replaceProductCodes: form.replace_product_codes,
        charts: form.charts,
        displayCorrelation: form.display_correlation,
        multipleComparisons: form.multiple_comparisons,
      });
    } catch (error) {
      return asBadRequest(error);
    }
    const tables = { studyName, author, date: new Date(), ...result };
    await storage.put(key(folder, 'summary.xlsx'), await summaryWorkbook(tables));
    await storage.put(key(folder, 'Regressions&Correlations.xlsx'), await correlationWorkbook(tables));
    const files: StatisticsResults['files'] = ['summary.xlsx', 'Regressions&Correlations.xlsx'];
    if (result.charts.length > 0) {
      await storage.put(key(folder, 'chart_ppt.pptx'), await chartPresentation(tables));
      files.push('chart_ppt.pptx');
    } else await storage.remove(key(folder, 'chart_ppt.pptx'));
    const results: StatisticsResults = {
      study_folder_name: folder,
      study_name: studyName,
      summary: result.summary,
      omnibus: result.omnibus,
      correlation: result.correlation,
      product_correlation: result.productCorrelation,
      regression: result.regression,
      jar: result.jar,
      legend: result.legend,
      design: result.design,
      charts: result.charts,
      files,
      product_codes: result.products.map((product) => product.code),
    };
    await runs.updateRun(folder, { result: results });
    return results;
  }

  return {
    cleanExpired,

    /** Step 0 -> 1: the study name and the data csv open a new working folder. */
    async uploadData(
      user: AuthUser,
      studyName: string | undefined,
      file: UploadedCsv | undefined,
    ): Promise<StatisticsUploadResponse> {
      const name = (studyName ?? '').trim();
      if (!name)
        throw errors.badRequest(STATISTICS_MESSAGES.missingValue('study_name'), [
          { path: 'study_name', message: STATISTICS_MESSAGES.missingValue('study_name') },
        ]);
      const upload = checkCsv(file, 'data_input');
      const table = await parse(upload);
      try {
        checkNumericColumns(table, DEMOGRAPHIC_COLUMNS);
      } catch (error) {
        return asBadRequest(error);
      }
      const columns = productCodeColumns(table);
      let codes: string[] = [];
      if (table.headers.includes('product_code')) {
        try {
          codes = productCodesOf(table, 'product_code');
        } catch (error) {
          return asBadRequest(error);
        }
      }
      const productColumn = table.headers.indexOf('product_code');
      const respondentColumn = table.headers.indexOf(RESPONDENT_COLUMN);
      const design =
        productColumn < 0
          ? null
          : designOf(
              respondentColumn < 0 ? null : table.rows.map((row) => row[respondentColumn] ?? ''),
              table.rows.map((row) => row[productColumn] ?? ''),
            );
      const state: RunState = { data_file: table.file, data_columns: table.headers };
      const folder = await newFolder(user, name, null, state);
      await storage.put(
        key(folder, STORED.data),
        table === undefined ? Buffer.alloc(0) : (file as UploadedCsv).bytes,
      );
      return {
        folder_name: folder,
        design,
        product_codes: codes.map((code) => option(code)),
        product_code_columns: columns.map((column) => option(column)),
        metrics: table.headers
          .filter((header) => !DEMOGRAPHIC_COLUMNS.has(header))
          .map((header) => option(header)),
      };
    },

    /** Step 1 -> 2: the likert scale csv, checked against the data file's columns. */
    async uploadScale(
      user: AuthUser,
      folder: string | undefined,
      file: UploadedCsv | undefined,
    ): Promise<StatisticsScaleResponse> {
      if (!folder) throw errors.badRequest(STATISTICS_MESSAGES.missingValue('folder_name'));
      const { state } = await ownRun(user, folder);
      const table = await parse(checkCsv(file, 'likert_scale'));
      let scale;
      try {
        scale = readScale(table);
      } catch (error) {
        return asBadRequest(error);
      }
      const columns = new Set(state.data_columns ?? []);
      const missing = scale.find(
        (question) => SCALED_TYPES.includes(question.type) && !columns.has(question.id),
      );
      if (missing) {
        const message = `${table.file}: the question "${missing.id}" is not a column of ${state.data_file ?? 'the data file'}.`;
        throw errors.badRequest(message, [{ path: `${table.file}:question_id`, message }]);
      }
      // The answers are read against their scales now, not first when the results are computed.
      try {
        checkAnswers(await readStored(folder, STORED.data, state.data_file ?? 'data.csv'), scale);
      } catch (error) {
        return asBadRequest(error);
      }
      const scaled = scale.filter((question) => SCALED_TYPES.includes(question.type));
      if (scaled.length === 0)
        throw errors.badRequest(`${table.file}: no question has the type numerical, binary or jar.`);
      await storage.put(key(folder, STORED.scale), (file as UploadedCsv).bytes);
      await runs.updateRun(folder, { form: { ...state, scale_file: table.file } });
      return {
        folder_name: folder,
        metrics: scaled.map((question) => option(question.id, `${question.id}: ${question.text}`)),
        strength_questions: scaled
          .filter((question) => question.type === 'jar')
          .map((question) => question.id),
        binary_questions: scaled
          .filter((question) => question.type === 'binary')
          .map((question) => question.id),
      };
    },

    /** Steps 4 and 5: the regression file and the product names file. */
    async uploadFile(
      user: AuthUser,
      folder: string | undefined,
      kind: string | undefined,
      file: UploadedCsv | undefined,
    ): Promise<StatisticsFileResponse> {
      if (!folder) throw errors.badRequest(STATISTICS_MESSAGES.missingValue('folder_name'));
      if (kind !== 'regression' && kind !== 'names')
        throw errors.badRequest('kind must be regression or names.');
      const field = kind === 'regression' ? 'regression_input' : 'replace_product_input';
      const { state } = await ownRun(user, folder);
      const table = await parse(checkCsv(file, field));
      try {
        if (kind === 'regression') {
          if (!state.scale_file) throw errors.badRequest(STATISTICS_MESSAGES.scaleFirst);
          const scale = readScale(await readStored(folder, STORED.scale, state.scale_file));
          readRegression(table, new Set(scale.filter((q) => SCALED_TYPES.includes(q.type)).map((q) => q.id)));
        } else readProductNames(table);
      } catch (error) {
        return asBadRequest(error);
      }
      await storage.put(
        key(folder, kind === 'regression' ? STORED.regression : STORED.names),
        (file as UploadedCsv).bytes,
      );
      await runs.updateRun(folder, {
        form: {
          ...state,
          ...(kind === 'regression' ? { regression_file: table.file } : { names_file: table.file }),
        },
      });
      return { folder_name: folder, file: table.file, rows: table.rows.length };
    },

    /** Step 3 -> 4: the chosen product code column must exist and be filled on every row. */
    async checkProductCode(
      user: AuthUser,
      body: StatisticsProductCodeRequest,
    ): Promise<StatisticsProductCodeResponse> {
      if (body.folder_name) {
        const { state } = await ownRun(user, body.folder_name);
        if (!state.data_file) throw errors.badRequest(STATISTICS_MESSAGES.dataFirst);
        try {
          const table = await readStored(body.folder_name, STORED.data, state.data_file);
          const codes = productCodesOf(table, body.product_code);
          if (codes.length < 2)
            throw new GeneratorError(
              `${table.file}, column ${body.product_code}: it holds one product code only; statistics compare at least two products.`,
            );
          await runs.updateRun(body.folder_name, { form: { ...state, product_code: body.product_code } });
          return { product_codes: codes.map((code) => option(code)) };
        } catch (error) {
          return asBadRequest(error);
        }
      }
      const dataset = await studyDataset(user, body.study_id ?? 0);
      if (body.product_code !== 'product_code')
        throw errors.badRequest(STATISTICS_MESSAGES.unknownColumn(dataset.name, body.product_code));
      return {
        product_codes: dataset.products.map((code) =>
          option(code, `${code} - ${dataset.productNames.get(code) ?? code}`),
        ),
      };
    },

    /** Step 5 -> results: runs the engine on the folder's files or on the study's answers. */
    async generate(user: AuthUser, form: StatisticsFormParsed): Promise<StatisticsResults> {
      if (form.folder_name) {
        const { run, state } = await ownRun(user, form.folder_name);
        const studyName = form.study_name || run.studyName || '';
        const dataset = await uploadDataset(form.folder_name, state, form, studyName);
        if (form.replace_product_codes && !state.names_file)
          throw errors.badRequest(STATISTICS_MESSAGES.missingValue('replace_product_input'));
        const regression = await regressionOf(dataset, form, form.folder_name, state);
        return compute(dataset, form, form.folder_name, regression, studyName, user.email);
      }
      return this.studyStatistics(user, form.study_id ?? 0, form);
    },

    /** The study statistics page and the wizard's existing-study mode: the engine on the study's answers. */
    async studyStatistics(
      user: AuthUser,
      studyId: number,
      form: StatisticsFormParsed,
      categories: readonly string[] = [],
    ): Promise<StatisticsResults> {
      const dataset = await studyDataset(user, studyId, categories);
      const regression = await regressionOf(dataset, form, null, {});
      const folder = await newFolder(user, dataset.name, studyId, { product_code: 'product_code' });
      return compute(dataset, form, folder, regression, dataset.name, user.email);
    },

    /** The study's products with their category (fragrance family): the options of the category filter. */
    async studyProducts(user: AuthUser, studyId: number): Promise<StatisticsStudyProducts> {
      await visibleStudy(user, studyId);
      const products = testProducts(await runs.productsOf(studyId));
      const codes = new Set(products.map((product) => product.code));
      const ratings = (await runs.ratingsOf(studyId)).filter((rating) => codes.has(rating.product));
      const counts = new Map<string, number>();
      for (const product of products)
        if (product.category) counts.set(product.category, (counts.get(product.category) ?? 0) + 1);
      return {
        products,
        categories: [...counts.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([value, count]) => ({ value, label: value, count })),
        design: designOf(
          ratings.map((rating) => rating.respondent),
          ratings.map((rating) => rating.product),
        ),
      };
    },

    /** Templates (made from the folder's files), result files and the sample files. */
    async download(
      user: AuthUser,
      folder: string,
      file: StatisticsFileName | SampleFile,
    ): Promise<DownloadFile> {
      const type = CONTENT_TYPES[file.split('.').pop() ?? ''] ?? 'application/octet-stream';
      if (folder === SAMPLE_FOLDER) {
        if (!(SAMPLE_FILES as readonly string[]).includes(file))
          throw errors.notFound(STATISTICS_MESSAGES.fileNotReady(file));
        return { fileName: file, contentType: type, bytes: Buffer.from(sampleFiles()[file as SampleFile]) };
      }
      if ((SAMPLE_FILES as readonly string[]).includes(file))
        throw errors.notFound(STATISTICS_MESSAGES.fileNotReady(file));
      const { state } = await ownRun(user, folder);
      if (file === 'scale_template.csv') {
        if (!state.data_file) throw errors.notFound(STATISTICS_MESSAGES.notReady(file));
        const data = await readStored(folder, STORED.data, state.data_file);
        const questions = data.headers.filter(
          (header) => !DEMOGRAPHIC_COLUMNS.has(header) && !/product|code/i.test(header),
        );
        const lines = [
          csvLine(['question_id', 'text', 'type', 'scale_min', 'scale_max', 'labels', 'metric']),
        ];
        for (const question of questions) {
          const index = data.headers.indexOf(question);
          const values = data.rows
            .map((row) => parseNumber(row[index] ?? ''))
            .filter((value): value is number => value !== null && !Number.isNaN(value));
          const numeric =
            values.length > 0 &&
            values.length === data.rows.filter((row) => (row[index] ?? '') !== '').length;
          const min = numeric ? Math.min(...values) : '';
          const max = numeric ? Math.max(...values) : '';
          lines.push(csvLine([question, question, numeric ? 'numerical' : 'categorical', min, max, '', '']));
        }
        return { fileName: file, contentType: type, bytes: Buffer.from(`${lines.join('\n')}\n`) };
      }
      if (file === 'reg_template.csv') {
        if (!state.scale_file) throw errors.notFound(STATISTICS_MESSAGES.notReady(file));
        const scale = readScale(await readStored(folder, STORED.scale, state.scale_file)).filter((q) =>
          SCALED_TYPES.includes(q.type),
        );
        const lines = [
          csvLine(['question_id', 'role']),
          ...scale.map((q, index) => csvLine([q.id, index === 0 ? 'outcome' : 'driver'])),
        ];
        return { fileName: file, contentType: type, bytes: Buffer.from(`${lines.join('\n')}\n`) };
      }
      if (file === 'prod_template.csv') {
        if (!state.data_file) throw errors.notFound(STATISTICS_MESSAGES.notReady(file));
        const data = await readStored(folder, STORED.data, state.data_file);
        const column = state.product_code ?? 'product_code';
        let codes: string[] = [];
        try {
          codes = productCodesOf(data, column);
        } catch {
          codes = [];
        }
        const lines = [
          csvLine(['product_code', 'product_name']),
          ...codes.map((code) => csvLine([code, code])),
        ];
        return { fileName: file, contentType: type, bytes: Buffer.from(`${lines.join('\n')}\n`) };
      }
      if (!(await storage.exists(key(folder, file))))
        throw errors.notFound(STATISTICS_MESSAGES.fileNotReady(file));
      return { fileName: file, contentType: type, bytes: await storage.get(key(folder, file)) };
    },
  };
}

export type StatisticsService = ReturnType<typeof createStatisticsService>;
