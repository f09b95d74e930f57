/**
 * The reader of a results file's scale file (results/<name>.scale.csv): one row per question with
 * its type and scale, checked column by column.
 */
import { csvRecords } from '../../../lib/csv-table.ts';
import {
  QUESTION_TYPES,
  type QuestionDraft,
  type QuestionType,
  type ReferenceData,
  type ZipFile,
} from './model.ts';
import type { IssueList } from './issues.ts';
import { orNull, parseNumber } from './cells.ts';

export async function readScale(
  file: ZipFile,
  ref: ReferenceData,
  issues: IssueList,
): Promise<QuestionDraft[] | null> {
  const questions: QuestionDraft[] = [];
  let header: string[] | null = null;
  let rowNumber = 0;
  let valid = true;
  const seen = new Set<string>();
  for await (const row of csvRecords(await file.stream(), file.path)) {
    rowNumber++;
    if (row.length === 0 || row.every((c) => c.trim() === '')) continue;
    if (!header) {
      header = row.map((h) => h.trim().toLowerCase());
      for (const required of ['question_id', 'text', 'type', 'scale_min', 'scale_max']) {
        if (!header.includes(required)) {
          issues.error('Missing column', `The scale file has no column ${required}.`, {
            file: file.path,
            row: 1,
          });
          return null;
        }
      }
      continue;
    }
    const h = header;
    const get = (name: string) => (h.indexOf(name) >= 0 ? (row[h.indexOf(name)] ?? '').trim() : '');
    const where = (name: string) => ({ file: file.path, row: rowNumber, column: name });
    const qid = get('question_id');
    if (qid === '') {
      issues.error(
        'Empty question_id',
        'A question of the scale file has no question_id.',
        where('question_id'),
      );
      valid = false;
      continue;
    }
    if (seen.has(qid)) {
      issues.error('Duplicate question', `The question ${qid} is described twice.`, where('question_id'));
      valid = false;
      continue;
    }
    seen.add(qid);
    const type = get('type').toLowerCase() as QuestionType;
    if (!QUESTION_TYPES.includes(type)) {
      issues.error(
        'Unknown question type',
        `The type of ${qid} must be one of ${QUESTION_TYPES.join(', ')}, not "${get('type')}".`,
        where('type'),
      );
      valid = false;
      continue;
    }
    const min = parseNumber(get('scale_min'));
    const max = parseNumber(get('scale_max'));
    if (type !== 'constant' && (min === null || max === null || !(max > min))) {
      issues.error(
        'Invalid scale',
        `The scale of ${qid} needs numbers scale_min < scale_max (found "${get('scale_min')}" and "${get('scale_max')}").`,
        where('scale_min'),
      );
      valid = false;
      continue;
    }
    const labels: { name: string; value: number }[] = [];
    for (const part of get('labels').split(';')) {
      const match = /^\s*(-?[\d.]+)\s*=\s*(.+?)\s*$/.exec(part);
      if (match) labels.push({ value: Number(match[1]), name: match[2] as string });
    }
    const metricName = get('metric');
    let metricId: number | null = null;
    if (metricName !== '') {
      const metric = ref.metrics.get(metricName.toLowerCase());
      if (!metric)
        issues.warning(
          'Unknown metric',
          `The metric "${metricName}" of ${qid} is not in the catalogue; a metric will be suggested instead.`,
          where('metric'),
        );
      else metricId = metric.id;
    }
    questions.push({
      qid,
      text: get('text') || qid,
      questionType: type,
      scaleMin: type === 'constant' ? min : min,
      scaleMax: type === 'constant' ? max : max,
      labels,
      constantValue: type === 'constant' ? orNull(labels[0]?.name ?? '') : null,
      metricId,
    });
  }
  if (!header) {
    issues.error('Empty scale file', 'The scale file is empty.', { file: file.path });
    return null;
  }
  return valid ? questions : null;
}
