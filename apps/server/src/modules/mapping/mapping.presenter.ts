/** What leaves the server about question mapping: questions grouped by file, metrics as name and label. */
import type {
  MappingFile,
  MappingQuestion,
  MetricOption,
  MetricRef,
  QuestionDomain,
  StudyQuestionsResponse,
  SuggestionDetail,
} from '@accord/contracts';
import type { MetricRecord, QuestionRecord, StudyHeader } from './mapping.repository.ts';
import type { Suggestion } from './suggest.ts';

export function presentMetricRef(metric: MetricRecord | undefined): MetricRef | null {
  return metric ? { name: metric.name, label: metric.label } : null;
}

export function presentMetricOption(metric: MetricRecord): MetricOption {
  return { name: metric.name, label: metric.label, metric_type: metric.metricType, kind: metric.kind };
}

function labelsOf(question: QuestionRecord): { name: string; value: number }[] {
  const labels = Array.isArray(question.labels) ? (question.labels as unknown[]) : [];
  return labels
    .filter(
      (label): label is { name: string; value: number } =>
        typeof label === 'object' &&
        label !== null &&
        typeof (label as { name?: unknown }).name === 'string' &&
        typeof (label as { value?: unknown }).value === 'number',
    )
    .map(({ name, value }) => ({ name, value }));
}

/**
 * The domain of a question: a constant's value; the answer categories of categorical, check-all-that
 * -apply and implicit questions; the numeric range of rated scales (hedonic, JAR, EEG).
 */
export function presentDomain(question: QuestionRecord): QuestionDomain {
  if (question.questionType === 'constant') {
    return { type: 'constant', min: null, max: null, values: [], value: question.constantValue };
  }
  const categorical = ['categorical', 'binary', 'implicit'].includes(question.questionType);
  return {
    type: categorical ? 'categorical' : 'numerical',
    min: question.scaleMin,
    max: question.scaleMax,
    values: labelsOf(question),
    value: null,
  };
}

/** Why a metric is suggested: the reasons as the contract names them, and how sure. */
export function presentSuggestion(suggestion: Suggestion): SuggestionDetail {
  return {
    confidence: suggestion.confidence,
    score: suggestion.score,
    reasons: suggestion.reasons.map((reason) => {
      switch (reason.kind) {
        case 'words':
          return {
            kind: 'words',
            weight: reason.weight,
            words: reason.words,
            term: reason.term,
            source: reason.source,
            via: reason.via,
          };
        case 'example':
          return { kind: 'example', weight: reason.weight, text: reason.text, count: reason.count };
        case 'scale':
          return { kind: 'scale', weight: reason.weight, labels: reason.labels };
      }
    }),
  };
}

export function presentQuestion(
  question: QuestionRecord,
  metricsById: ReadonlyMap<number, MetricRecord>,
  suggestion: Suggestion | null,
): MappingQuestion {
  const suggested = suggestion ? presentMetricRef(metricsById.get(suggestion.metricId)) : null;
  return {
    id: question.id,
    qid: question.qid,
    text: question.text,
    question_type: question.questionType,
    domain: presentDomain(question),
    metric: question.metricId === null ? null : presentMetricRef(metricsById.get(question.metricId)),
    suggested_metric: suggested,
    suggestion: suggestion && suggested ? presentSuggestion(suggestion) : null,
    metric_validated: question.metricValidated,
    results_id: question.resultsFileId,
    filename: question.filename,
    path: question.path,
  };
}

export function presentStudyQuestions(
  study: StudyHeader,
  questions: MappingQuestion[],
): StudyQuestionsResponse {
  const files = new Map<string, MappingFile>();
  for (const question of questions) {
    let file = files.get(question.filename);
    if (!file) {
      file = {
        filename: question.filename,
        path: question.path,
        results_id: question.results_id,
        questions: [],
      };
      files.set(question.filename, file);
    }
    file.questions.push(question);
  }
  return {
    study_id: study.id,
    c_mi_number: study.cMiNumber,
    project_name: study.projectName,
    files: [...files.values()].sort((a, b) => a.filename.localeCompare(b.filename)),
  };
}
