/**
 * Accuracy of the metric suggestion on the library the bench measures: the share of questions whose
 * suggestion equals the demo generator's true metric. The seed records that metric in
 * questions.suggested_metric_id (the API never reads that column: it computes suggestions from the
 * text and scale). Each study is judged leave-one-study-out, so a question is never suggested from
 * its own validated mapping. Read only: safe on an existing library.
 *
 * Beside it, the figure that matters to a new user: the hand-written questions worded as real
 * questionnaires word them (apps/server/src/modules/mapping/fixtures/realistic-questions.json), on
 * this library's validated mappings and on an empty library, for the whole set and its held-out part.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { openDatabase } from '../apps/server/src/db/client.ts';
import {
  measureRealisticAccuracy,
  measureSuggestionAccuracy,
  type AccuracyReport,
  type LabelledQuestion,
  type RealisticSet,
} from '../apps/server/src/modules/mapping/suggest-accuracy.ts';
import type {
  CatalogueMetric,
  MappingExample,
  QuestionType,
} from '../apps/server/src/modules/mapping/suggest.ts';

const REALISTIC_SET = new URL(
  '../apps/server/src/modules/mapping/fixtures/realistic-questions.json',
  import.meta.url,
);

/** Right, missed and wrong suggestions of the realistic questions, whole set and held-out part. */
export interface RealisticFigures {
  questions: number;
  right: number;
  missed: number;
  wrong: number;
  accuracy: number;
  heldOut: { questions: number; right: number; missed: number; wrong: number; accuracy: number };
}

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

export async function measureMappingAccuracy(scratch: { databaseUrl?: string; dataDir: string }): Promise<
  AccuracyReport & {
    milliseconds: number;
    realistic: { withLibrary: RealisticFigures; emptyLibrary: RealisticFigures };
  }
> {
  const database = await openDatabase(
    scratch.databaseUrl
      ? { databaseUrl: scratch.databaseUrl }
      : { dataDir: path.join(scratch.dataDir, 'db') },
  );
  try {
    const started = performance.now();
    const { rows: metricRows } = await database.sql.executeSql('SELECT id, name, label, kind FROM metrics');
    const catalogue: CatalogueMetric[] = metricRows.map((row) => ({
      id: Number(row.id),
      name: String(row.name),
      label: String(row.label),
      kind: row.kind as CatalogueMetric['kind'],
    }));
    const { rows } = await database.sql.executeSql(
      `SELECT study_id, text, question_type, scale_min, scale_max, metric_id, metric_validated, suggested_metric_id
       FROM questions WHERE question_type <> 'constant' ORDER BY study_id`,
    );
    const studies = new Map<number, LabelledQuestion[]>();
    const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));
    for (const row of rows) {
      const list = studies.get(Number(row.study_id)) ?? [];
      list.push({
        text: String(row.text),
        questionType: row.question_type as QuestionType,
        scaleMin: numberOrNull(row.scale_min),
        scaleMax: numberOrNull(row.scale_max),
        metricId: numberOrNull(row.metric_id),
        validated: row.metric_validated === true,
        truth: numberOrNull(row.suggested_metric_id),
      });
      studies.set(Number(row.study_id), list);
    }
    const report = measureSuggestionAccuracy(catalogue, [...studies.values()]);
    const milliseconds = Math.round(performance.now() - started);
    const { rows: exampleRows } = await database.sql.executeSql(
      `SELECT text, question_type, metric_id, count(*)::int AS count FROM questions
       WHERE metric_validated AND metric_id IS NOT NULL GROUP BY text, question_type, metric_id`,
    );
    const examples: MappingExample[] = exampleRows.map((row) => ({
      text: String(row.text),
      questionType: row.question_type as QuestionType,
      metricId: Number(row.metric_id),
      count: Number(row.count),
    }));
    const set = JSON.parse(await readFile(REALISTIC_SET, 'utf8')) as RealisticSet;
    const figures = (library: MappingExample[]): RealisticFigures => {
      const { outcomes: _all, ...whole } = measureRealisticAccuracy(catalogue, library, set);
      const { outcomes: _part, ...heldOut } = measureRealisticAccuracy(catalogue, library, set, 'held-out');
      return { ...whole, heldOut };
    };
    const realistic = { withLibrary: figures(examples), emptyLibrary: figures([]) };
    console.log(
      `suggestions ${percent(report.accuracy)} of ${report.questions.toLocaleString('en-US')} questions get the generator's metric ` +
        `(${percent(report.withMetricCorrect / Math.max(1, report.withMetric))} of ${report.withMetric.toLocaleString('en-US')} with a metric, ` +
        `${percent(report.withoutMetricCorrect / Math.max(1, report.withoutMetric))} of ${report.withoutMetric.toLocaleString('en-US')} without one; ` +
        `catalogue synonyms alone ${percent(report.catalogueOnlyAccuracy)}; measured in ${milliseconds} ms)`,
    );
    const line = (name: string, f: RealisticFigures) =>
      `${name}: ${percent(f.accuracy)} right of ${f.questions} (${f.missed} without a suggestion, ${f.wrong} wrong); ` +
      `held-out part ${percent(f.heldOut.accuracy)} of ${f.heldOut.questions} (${f.heldOut.wrong} wrong)`;
    console.log(`realistic questions ${line('on this library', realistic.withLibrary)}`);
    console.log(`realistic questions ${line('on an empty library', realistic.emptyLibrary)}`);
    return { ...report, milliseconds, realistic };
  } finally {
    await database.close();
  }
}
