/** What leaves the server for the CICS calls: questions as the spec names their fields. */
import type { CicsAnswerValue, CicsQuestion, CicsQuestionInStudy, CicsQuestionType } from '@accord/contracts';
import type { OccurrenceRecord, QuestionRecord } from './cics.repository.ts';

/** The answer labels of a question, in scale order; malformed entries are skipped. */
export function answerLabels(labels: unknown): CicsAnswerValue[] {
  if (!Array.isArray(labels)) return [];
  return labels
    .filter(
      (label): label is { name: unknown; value: unknown } =>
        typeof label === 'object' && label !== null && 'name' in label && 'value' in label,
    )
    .map((label) => ({ name: String(label.name), value: Number(label.value) }))
    .filter((label) => Number.isFinite(label.value))
    .sort((a, b) => a.value - b.value);
}

export function presentQuestion(row: QuestionRecord): Omit<CicsQuestion, 'score' | 'studies'> {
  return {
    id: row.id,
    q_id: row.qid,
    q_text: row.text,
    question_type: row.question_type as CicsQuestionType,
    question_values: answerLabels(row.labels),
    scale_min: row.scale_min,
    scale_max: row.scale_max,
    study: {
      id: row.study_id,
      c_mi_number: row.c_mi_number,
      project_name: row.project_name,
      client: row.client,
      year: row.year,
    },
  };
}

/** A study asking a question of the search list, with the question's key there. */
export function presentOccurrence(row: OccurrenceRecord): CicsQuestionInStudy {
  return {
    id: Number(row.id),
    q_id: row.qid,
    study: {
      id: row.study_id,
      c_mi_number: row.c_mi_number,
      project_name: row.project_name,
      client: row.client,
      year: row.year,
    },
  };
}
