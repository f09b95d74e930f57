/**
 * The worker threads that parse and validate uploads (tasks.ts), so that reading a large or hostile
 * file (a sheet of 480,000 rows, a csv of 100,000 columns) never holds up the requests of other users.
 * A small pool (two threads, one per core of a small server) started on first use; each thread's
 * heap is capped, so a file that would need more memory ends its task (UploadMemoryError) instead of
 * the server, and the thread is replaced. Idle threads end after a while. Report spreadsheets are
 * written here too, the statistics generator's engine runs here, and the statistics of long analytics answers (significance, metric search).
 */
import { PassThrough, type Readable } from 'node:stream';
import v8 from 'node:v8';
import { MessageChannel, type TransferListItem } from 'node:worker_threads';
import type { StudyFileError } from '@accord/contracts';
import { Piscina } from 'piscina';
import type { ParsedResults } from '../modules/fileprocess/inject.ts';
import type {
  ReferenceData,
  StudyDraft,
  ValidationOptions,
  ValidationResult,
  ZipFile,
} from '../modules/fileprocess/study-zip.ts';
import type { ReportHeader, ReportTable } from '../lib/report-workbook.ts';
import { delimitedRows, jsonRows, writeReportXlsx, type DelimitedRows } from '../lib/xlsx-writer-report.ts';
import { deckBytes, type DeckSpec } from '../modules/decks/deck-writer.ts';
import { CsvError, type CsvTable } from '../modules/statistics/engine/csv.ts';
import type { Dataset } from '../modules/statistics/engine/dataset.ts';
import {
  generateStatistics,
  GeneratorError,
  type GeneratorOptions,
  type GeneratorResult,
} from '../modules/statistics/engine/generate.ts';
import type { FileToCheck } from '../modules/study/file-validation.ts';
import {
  assembleMetricSearch,
  type AssembledSearch,
  type SearchAssemblyInput,
} from '../modules/analytics/metric-search-rows.ts';
import { handSums, type HandedSums } from '../modules/analytics/packed-sums.ts';
import { significanceOf, type SignificanceInput } from '../modules/analytics/significance-tests.ts';
import { serveFiles } from './remote-files.ts';
import type { ReportStreamMessage, UploadTask, UploadTaskResult } from './tasks.ts';

/** Heap of one worker thread (MB): with the server's own, the process stays well below 1 GB. */
export const UPLOAD_WORKER_HEAP_MB = 384;
const THREADS = 2;
const IDLE_MS = 60_000;

/** A task that needed more memory than a worker thread has. */
export class UploadMemoryError extends Error {
  constructor() {
    super('The upload needs more memory to read than an upload may take.');
    this.name = 'UploadMemoryError';
  }
}

/**
 * The old generation a worker thread starts with (MB), so that it runs its first full collection only
 * once it holds this much. Left to itself V8 sets a thread's limit barely above what it holds after
 * loading (29 MB against 30), and a thread assembling searches ran a full collection every 100-150 ms
 * under load, each holding its search 3-17 ms; with room to grow the two threads ran one between them
 * in 3,000 searches (bench/README.md). A thread reads this once, when it starts: set here, before the
 * pool starts its first thread, it leaves the request loop's heap as it is.
 */
const WORKER_INITIAL_OLD_MB = 64;

let pool: Piscina | null = null;

function workers(): Piscina {
  if (pool !== null) return pool;
  v8.setFlagsFromString(`--initial-old-space-size=${WORKER_INITIAL_OLD_MB}`);
  pool = new Piscina({
    filename: new URL('./entry.js', import.meta.url).href,
    // The threads stay loaded, so an upload does not wait for one to start.
    minThreads: THREADS,
    maxThreads: THREADS,
    idleTimeout: IDLE_MS,
    // A queued task that finds both threads busy keeps its place at the head of the queue. By default
    // it goes back to the tail, so each thread freed sent the second task in line to the back: with
    // eight exports in flight one waited 4.8 s where the others waited 1.1-2.1 (bench/README.md).
    stricterFIFO: true,
    resourceLimits: { maxOldGenerationSizeMb: UPLOAD_WORKER_HEAP_MB, maxYoungGenerationSizeMb: 32 },
  });
  return pool;
}

async function run<K extends UploadTask['kind']>(
  task: Extract<UploadTask, { kind: K }>,
  transferList: TransferListItem[] = [],
): Promise<Extract<UploadTaskResult, { kind: K }>> {
  try {
    return (await workers().run(task, { transferList })) as Extract<UploadTaskResult, { kind: K }>;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') throw new UploadMemoryError();
    throw error;
  }
}

/** Runs a task that reads `files` from storage through a port the server answers. */
async function runWithFiles<K extends 'validate-studies' | 'parse-results'>(
  files: readonly ZipFile[],
  task: (port: MessageChannel['port2']) => Extract<UploadTask, { kind: K }>,
): Promise<Extract<UploadTaskResult, { kind: K }>> {
  const channel = new MessageChannel();
  const stop = serveFiles(channel.port1, files);
  try {
    return await run(task(channel.port2), [channel.port2]);
  } finally {
    stop();
  }
}

const infos = (files: readonly ZipFile[]) => files.map((file) => ({ path: file.path, size: file.size }));

/** validateStudies (study-zip.ts) in a worker thread. */
export async function validateStudiesOffThread(
  files: readonly ZipFile[],
  ref: ReferenceData,
  options: ValidationOptions,
): Promise<ValidationResult> {
  const answer = await runWithFiles<'validate-studies'>(files, (port) => ({
    kind: 'validate-studies',
    port,
    files: infos(files),
    ref,
    options: {
      replaceExisting: options.replaceExisting,
      replaceCmis: [...(options.replaceCmis ?? [])],
      ...(options.form ? { form: { ...options.form } } : {}),
    },
  }));
  return answer.result;
}

/** parseStudyResults (inject.ts) in a worker thread: the answers of a study's results files. */
export async function parseStudyResultsOffThread(
  study: StudyDraft,
  files: ReadonlyMap<string, ZipFile>,
): Promise<ParsedResults[]> {
  const used = study.results
    .map((results) => files.get(results.path))
    .filter((file): file is ZipFile => file !== undefined);
  const answer = await runWithFiles<'parse-results'>(used, (port) => ({
    kind: 'parse-results',
    port,
    files: infos(used),
    study,
  }));
  return answer.parsed;
}

/** validateStudyFile (file-validation.ts) in a worker thread. */
export async function validateStudyFileOffThread(file: FileToCheck): Promise<StudyFileError[]> {
  const answer = await run({
    kind: 'check-study-file',
    file: { ...file, bytes: new Uint8Array(file.bytes) },
  });
  return answer.errors;
}

/** parseCsv (statistics/engine/csv.ts) in a worker thread; throws its CsvError. */
export async function parseCsvOffThread(bytes: Uint8Array, fileName: string): Promise<CsvTable> {
  const answer = await run({ kind: 'parse-csv', bytes: new Uint8Array(bytes), fileName });
  if (answer.problem) {
    const { message, file, row, column } = answer.problem;
    throw new CsvError(message, file, row, column);
  }
  return answer.table as CsvTable;
}

/**
 * generateStatistics (statistics/engine/generate.ts) in a worker thread; throws its GeneratorError.
 * Tukey's studentized range and the intra-block analysis of incomplete blocks hold a thread for
 * seconds on a study, which on the request loop every other caller would wait for. The dataset and
 * options are plain data (the product names a Map), copied by the structured clone; the result comes
 * back the same way. Run on the loop if the thread runs out of memory.
 */
export async function generateStatisticsOffThread(
  dataset: Dataset,
  options: GeneratorOptions,
): Promise<GeneratorResult> {
  let answer;
  try {
    answer = await run({ kind: 'generate-statistics', dataset, options });
  } catch (error) {
    if (!(error instanceof UploadMemoryError)) throw error;
    return generateStatistics(dataset, options);
  }
  if (answer.refusal !== undefined) throw new GeneratorError(answer.refusal);
  return answer.result as GeneratorResult;
}

/**
 * A one-sheet report in the house style of lib/report-workbook.ts streamed from a worker thread:
 * the streaming xlsx writer (lib/xlsx-writer-report.ts) runs there, its bytes come back through a
 * port piece by piece and leave as they arrive, so the request loop only passes them on. The rows
 * are read here once (a generator is fine) and copied to the thread. With `fitWidths` the columns
 * fit their values, as reportBytes fits them. If the thread runs out of memory before its first
 * bytes, the report is streamed from this thread instead; a failure after them destroys the stream
 * (the download breaks off).
 */
export function reportStreamOffThread(
  sheetName: string,
  header: ReportHeader,
  table: ReportTable,
  fitWidths: boolean,
): Readable {
  const rows = [...table.rows];
  return streamOffThread(sheetName, header, { ...table, rows }, { rows }, fitWidths);
}

/**
 * reportStreamOffThread of rows given as one JSON text (an array of rows, each the values of the
 * columns in order; lists become "a, b", see cellOf), as the database writes a search's export: the
 * text crosses to the thread in one copy and is read there, so this loop neither parses nor clones
 * a row.
 */
export function reportJsonStreamOffThread(
  sheetName: string,
  header: ReportHeader,
  table: Omit<ReportTable, 'rows'>,
  rowsJson: string,
): Readable {
  return streamOffThread(sheetName, header, { ...table, rows: [] }, { rowsJson }, false);
}

/**
 * reportStreamOffThread of rows given as one delimited text (see DelimitedRows), as the database
 * writes a search's export: the text crosses to the thread in one copy, is checked, sorted and read
 * there. Should a value hold a separator (the text then does not read as its rows), nothing has been
 * sent yet: `asJson` reads the rows again as JSON, and the report is written from those.
 */
export function reportTextStreamOffThread(
  sheetName: string,
  header: ReportHeader,
  table: Omit<ReportTable, 'rows'>,
  rowsText: DelimitedRows,
  asJson: () => Promise<string>,
): Readable {
  return streamOffThread(sheetName, header, { ...table, rows: [] }, { rowsText }, false, asJson);
}

/** Pieces of a report the thread may have sent that the reader has not taken yet. */
const REPORT_PIECES_AHEAD = 8;

function streamOffThread(
  sheetName: string,
  header: ReportHeader,
  table: ReportTable,
  source: { rows: ReportTable['rows'] } | { rowsJson: string } | { rowsText: DelimitedRows },
  fitWidths: boolean,
  asJson?: () => Promise<string>,
): Readable {
  const output = new PassThrough();
  const channel = new MessageChannel();
  let started = false;
  const fail = (error: unknown) => {
    channel.port1.close();
    output.destroy(error instanceof Error ? error : new Error(String(error)));
  };
  /** Writes the report again from the rows read as JSON, into this output. */
  const fromJson = () => {
    channel.port1.close();
    if (!asJson) {
      fail(new Error('The report’s rows could not be read.'));
      return;
    }
    asJson().then((rowsJson) => {
      if (output.destroyed) return;
      const again = streamOffThread(sheetName, header, table, { rowsJson }, fitWidths);
      again.on('error', fail);
      // A download broken off frees that thread too.
      output.on('close', () => again.destroy());
      again.pipe(output);
    }, fail);
  };
  // A download broken off by its reader: the thread's further pieces are dropped.
  output.on('close', () => channel.port1.close());
  channel.port1.on('message', (message: ReportStreamMessage) => {
    if ('chunk' in message) {
      started = true;
      if (output.destroyed) return;
      // Each piece is acknowledged once the reader has room: the thread stays a few pieces ahead
      // of a slow reader, so a file never waits here whole.
      const taken = () => {
        try {
          channel.port1.postMessage({ taken: 1 });
        } catch {
          // The port closed with the download.
        }
      };
      if (output.write(Buffer.from(message.chunk.buffer, message.chunk.byteOffset, message.chunk.byteLength)))
        taken();
      else output.once('drain', taken);
    } else {
      channel.port1.close();
      output.end();
    }
  });
  run(
    {
      kind: 'report-stream',
      port: channel.port2,
      sheetName,
      header,
      table,
      ...source,
      piecesAhead: REPORT_PIECES_AHEAD,
      fitWidths,
    },
    [channel.port2],
  ).then(
    (result) => {
      if (result.unread) fromJson();
    },
    (error: unknown) => {
      // A task that ends well has posted its end on the port (read in its turn, maybe after this).
      if (error instanceof UploadMemoryError && !started) {
        const rows =
          'rowsJson' in source
            ? jsonRows(source.rowsJson)
            : 'rowsText' in source
              ? delimitedRows(source.rowsText)
              : source.rows;
        if (rows === null) {
          fromJson();
          return;
        }
        channel.port1.close();
        writeReportXlsx(output, sheetName, header, { ...table, rows }, fitWidths).catch(fail);
        return;
      }
      fail(error);
    },
  );
  return output;
}

/**
 * deckBytes (modules/decks/deck-writer.ts) in a worker thread: a deck of a few hundred bars is zipped
 * with its chart workbooks, which the request loop need not wait for. Written here if the thread
 * runs out of memory.
 */
export async function deckBytesOffThread(spec: DeckSpec): Promise<Buffer> {
  try {
    const answer = await run({ kind: 'deck-bytes', spec });
    return Buffer.from(answer.bytes.buffer, answer.bytes.byteOffset, answer.bytes.byteLength);
  } catch (error) {
    if (!(error instanceof UploadMemoryError)) throw error;
    return deckBytes(spec);
  }
}

/**
 * The buffers of packed statistics, moved to the thread rather than copied (they are made for it);
 * none for demographic tables, which are on shared memory.
 */
const buffersOf = (handed: HandedSums): ArrayBuffer[] =>
  'packed' in handed
    ? [
        handed.packed.productIds.buffer as ArrayBuffer,
        handed.packed.metricIds.buffer as ArrayBuffer,
        handed.packed.values.buffer as ArrayBuffer,
      ]
    : [];

/**
 * significanceOf (analytics/significance-tests.ts) in a worker thread, as the JSON text of its
 * answer: each respondent's sums go as typed arrays (copied once, kept here in case the thread runs
 * out of memory), the answer comes back as one string, so the request loop neither clones nor writes
 * thousands of objects. Answered on the loop if the thread runs out of memory. `moving`: buffers of
 * the input moved to the thread instead of copied (the respondent index's cells; the index itself is
 * on shared memory), and the input made again for an answer on the loop.
 */
export async function significanceTextOffThread(
  input: SignificanceInput,
  moving?: { transfer: ArrayBuffer[]; again: () => SignificanceInput },
): Promise<string> {
  try {
    const answer = await run(
      { kind: 'significance', input: { ...input, productIds: Int32Array.from(input.productIds) } },
      moving?.transfer,
    );
    return answer.text;
  } catch (error) {
    if (!(error instanceof UploadMemoryError)) throw error;
    return JSON.stringify(significanceOf(moving ? moving.again() : input));
  }
}

/**
 * assembleMetricSearch (analytics/metric-search-rows.ts) in a worker thread: the products go as
 * typed arrays on shared memory, the statistics packed, or under a gender and age filter the
 * demographic tables by reference and summed in the thread (packed-sums.ts handSums), and the answer
 * comes back as its columns (typed arrays, for the result store). Assembled on the loop if the
 * thread runs out of memory.
 */
export async function assembleMetricSearchOffThread(input: SearchAssemblyInput): Promise<AssembledSearch> {
  const { sums, ...rest } = input;
  const handed = handSums(
    sums,
    input.products.ids,
    input.metrics.map((metric) => metric.id),
  );
  try {
    const answer = await run({ kind: 'metric-search', input: rest, sums: handed }, buffersOf(handed));
    return answer.assembled;
  } catch (error) {
    if (!(error instanceof UploadMemoryError)) throw error;
    return assembleMetricSearch(input);
  }
}

/** Starts a worker thread and waits until it has loaded the tasks (at server start). */
export async function warmUploadWorkers(): Promise<void> {
  await run({ kind: 'ready' });
}

/** Ends the worker threads (at shutdown); a later task starts new ones. */
export async function closeUploadWorkers(): Promise<void> {
  const current = pool;
  pool = null;
  await current?.destroy();
}
