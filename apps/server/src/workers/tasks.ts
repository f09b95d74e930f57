/**
 * What upload worker threads run: the parsing and validation of uploads, the writing of report
 * spreadsheets, the statistics generator's engine and the statistics of long analytics answers, kept off the server's request loop (pool.ts sends the tasks). Each task answers a plain result; the errors the user must
 * read come back as values (a thrown error crosses threads as a bare Error and loses its kind).
 */
import type { MessagePort } from 'node:worker_threads';
import type { StudyFileError } from '@accord/contracts';
import { parseStudyResults, type ParsedResults } from '../modules/fileprocess/inject.ts';
import {
  validateStudies,
  type ReferenceData,
  type StudyDraft,
  type ValidationOptions,
  type ValidationResult,
} from '../modules/fileprocess/study-zip.ts';
import { Writable } from 'node:stream';
import type { ReportHeader, ReportTable } from '../lib/report-workbook.ts';
import { delimitedRows, jsonRows, writeReportXlsx, type DelimitedRows } from '../lib/xlsx-writer-report.ts';
import { deckBytes, type DeckSpec } from '../modules/decks/deck-writer.ts';
import { CsvError, parseCsv, type CsvTable } from '../modules/statistics/engine/csv.ts';
import type { Dataset } from '../modules/statistics/engine/dataset.ts';
import {
  generateStatistics,
  GeneratorError,
  type GeneratorOptions,
  type GeneratorResult,
} from '../modules/statistics/engine/generate.ts';
import { validateStudyFile, type FileToCheck } from '../modules/study/file-validation.ts';
import {
  assembleMetricSearch,
  type AssembledSearch,
  type SearchAssemblyInput,
} from '../modules/analytics/metric-search-rows.ts';
import { takeSums, type HandedSums } from '../modules/analytics/packed-sums.ts';
import { significanceOf, type SignificanceInput } from '../modules/analytics/significance-tests.ts';
import { remoteFiles, type RemoteFileInfo } from './remote-files.ts';

export type UploadTask =
  | {
      kind: 'validate-studies';
      port: MessagePort;
      files: RemoteFileInfo[];
      ref: ReferenceData;
      options: ValidationOptions;
    }
  | { kind: 'parse-results'; port: MessagePort; files: RemoteFileInfo[]; study: StudyDraft }
  | { kind: 'check-study-file'; file: Omit<FileToCheck, 'bytes'> & { bytes: Uint8Array } }
  | { kind: 'parse-csv'; bytes: Uint8Array; fileName: string }
  | { kind: 'generate-statistics'; dataset: Dataset; options: GeneratorOptions }
  | {
      kind: 'report-stream';
      port: MessagePort;
      sheetName: string;
      header: ReportHeader;
      table: ReportTable;
      /** The rows as a JSON text (see jsonRows), in place of the table's. */
      rowsJson?: string;
      /** The rows as a delimited text (see delimitedRows), in place of the table's. */
      rowsText?: DelimitedRows;
      /** Pieces the thread may send before the server has passed them on. */
      piecesAhead?: number;
      fitWidths: boolean;
    }
  | { kind: 'deck-bytes'; spec: DeckSpec }
  | { kind: 'significance'; input: SignificanceInput }
  | { kind: 'metric-search'; input: Omit<SearchAssemblyInput, 'sums'>; sums: HandedSums }
  | { kind: 'ready' };

/** A csv the statistics generator refuses, as it crosses back to the server. */
export interface CsvProblem {
  message: string;
  file: string;
  row?: number;
  column?: string;
}

export type UploadTaskResult =
  | { kind: 'validate-studies'; result: ValidationResult }
  | { kind: 'parse-results'; parsed: ParsedResults[] }
  | { kind: 'check-study-file'; errors: StudyFileError[] }
  | { kind: 'parse-csv'; table?: CsvTable; problem?: CsvProblem }
  /** The generator's result, or the message of the GeneratorError that refused the options. */
  | { kind: 'generate-statistics'; result?: GeneratorResult; refusal?: string }
  /** The bytes written; none and `unread` when the delimited rows could not be read (nothing sent). */
  | { kind: 'report-stream'; bytes: number; unread?: true }
  | { kind: 'deck-bytes'; bytes: Uint8Array }
  | { kind: 'significance'; text: string }
  | { kind: 'metric-search'; assembled: AssembledSearch }
  | { kind: 'ready' };

/** A piece of a streamed report as it crosses to the server: bytes, then its end. */
export type ReportStreamMessage = { chunk: Uint8Array } | { end: true };
/** What the server answers a piece it has passed on. */
export interface ReportTakenMessage {
  taken: number;
}

/**
 * Writes a report with the streaming xlsx writer (lib/xlsx-writer-report.ts), posting its bytes to the port as they are written (each
 * piece moved, not copied), then the end; answers the bytes written.
 */
async function streamReport(
  task: Extract<UploadTask, { kind: 'report-stream' }>,
): Promise<Extract<UploadTaskResult, { kind: 'report-stream' }>> {
  // Delimited rows are checked whole before a byte is sent: rows it cannot read go back unwritten.
  const textRows = task.rowsText === undefined ? undefined : delimitedRows(task.rowsText);
  if (textRows === null) return { kind: 'report-stream', bytes: 0, unread: true };
  let written = 0;
  let ahead = 0;
  let waiting: ((error?: Error) => void) | null = null;
  let gone = false;
  const limit = task.piecesAhead ?? Number.POSITIVE_INFINITY;
  task.port.on('message', (message: ReportTakenMessage) => {
    ahead -= message.taken;
    if (waiting && ahead < limit) {
      const resume = waiting;
      waiting = null;
      resume();
    }
  });
  // The server closes its end when the download breaks off: the writing stops, the thread is free.
  task.port.on('close', () => {
    gone = true;
    const resume = waiting;
    waiting = null;
    resume?.(new Error('The report’s reader went away.'));
  });
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (gone) {
        done(new Error('The report’s reader went away.'));
        return;
      }
      const piece = new Uint8Array(chunk);
      written += piece.byteLength;
      ahead += 1;
      task.port.postMessage({ chunk: piece } satisfies ReportStreamMessage, [piece.buffer]);
      // Ahead of the reader by as many pieces as allowed: wait until it takes one.
      if (ahead < limit) done();
      else waiting = done;
    },
  });
  const finished = new Promise<void>((resolve, reject) => {
    output.on('finish', resolve);
    output.on('error', reject);
  });
  // A failure is the writer's to report (below); this only waits for the last piece.
  finished.catch(() => undefined);
  const rows = textRows ?? (task.rowsJson === undefined ? task.table.rows : jsonRows(task.rowsJson));
  await writeReportXlsx(output, task.sheetName, task.header, { ...task.table, rows }, task.fitWidths);
  await finished;
  task.port.postMessage({ end: true } satisfies ReportStreamMessage);
  return { kind: 'report-stream', bytes: written };
}

export async function runTask(task: UploadTask): Promise<UploadTaskResult> {
  switch (task.kind) {
    case 'ready':
      return { kind: 'ready' };
    case 'validate-studies': {
      try {
        const files = remoteFiles(task.port, task.files);
        return { kind: task.kind, result: await validateStudies(files, task.ref, task.options) };
      } finally {
        task.port.close();
      }
    }
    case 'parse-results': {
      try {
        const files = remoteFiles(task.port, task.files);
        return {
          kind: task.kind,
          parsed: await parseStudyResults(task.study, new Map(files.map((file) => [file.path, file]))),
        };
      } finally {
        task.port.close();
      }
    }
    case 'check-study-file':
      return {
        kind: task.kind,
        errors: await validateStudyFile({ ...task.file, bytes: Buffer.from(task.file.bytes) }),
      };
    case 'deck-bytes':
      return { kind: task.kind, bytes: new Uint8Array(await deckBytes(task.spec)) };
    case 'report-stream':
      try {
        return await streamReport(task);
      } finally {
        task.port.close();
      }
    case 'significance':
      return {
        kind: task.kind,
        text: JSON.stringify(significanceOf(task.input)),
      };
    case 'metric-search':
      return {
        kind: task.kind,
        assembled: assembleMetricSearch({
          ...task.input,
          sums: takeSums(task.sums, task.input.products.ids),
        }),
      };
    case 'generate-statistics':
      try {
        return { kind: task.kind, result: generateStatistics(task.dataset, task.options) };
      } catch (error) {
        if (!(error instanceof GeneratorError)) throw error;
        return { kind: task.kind, refusal: error.message };
      }
    case 'parse-csv':
      try {
        return { kind: task.kind, table: parseCsv(task.bytes, task.fileName) };
      } catch (error) {
        if (!(error instanceof CsvError)) throw error;
        const { message, file, row, column } = error;
        return { kind: task.kind, problem: { message, file, row, column } };
      }
  }
}
