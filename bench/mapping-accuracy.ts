/**
 * Accuracy of the metric suggestion on the library the bench measures: the share of questions whose
 * suggestion equals the demo generator's true metric. The seed records that metric in
 * questions.suggested_metric_id (the API never reads that column: it computes suggestions from the
 * text and scale). Each study is judged leave-one-study-out, so a question is never suggested from
 * its own validated mapping. Read only: safe on an existing library.
 */
import path from 'node:path';
import { openDatabase } from '../apps/server/src/db/client.ts';
import {
  measureSuggestionAccuracy,
  type AccuracyReport,
  type LabelledQuestion,
} from '../apps/server/src/modules/mapping/suggest-accuracy.ts';
import type { CatalogueMetric, QuestionType } from '../apps/server/src/modules/mapping/suggest.ts';

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

export async function measureMappingAccuracy(scratch: {
  databaseUrl?: string;
  dataDir: string;
}): Promise<AccuracyReport & { milliseconds: number }> {
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
    console.log(
      `suggestions ${percent(report.accuracy)} of ${report.questions.toLocaleString('en-US')} questions get the generator's metric ` +
        `(${percent(report.withMetricCorrect / Math.max(1, report.withMetric))} of ${report.withMetric.toLocaleString('en-US')} with a metric, ` +
        `${percent(report.withoutMetricCorrect / Math.max(1, report.withoutMetric))} of ${report.withoutMetric.toLocaleString('en-US')} without one; ` +
        `catalogue synonyms alone ${percent(report.catalogueOnlyAccuracy)}; measured in ${milliseconds} ms)`,
    );
    return { ...report, milliseconds };
  } finally {
    await database.close();
  }
}
