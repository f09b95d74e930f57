/**
 * How often the suggestion equals a question's true metric, over a library whose truth is known (the
 * demo generator's). Each study is judged leave-one-study-out: its own validated mappings are taken
 * out of the examples first, so a question is never suggested from its own answer key. Pure.
 */
import { MetricSuggester, type CatalogueMetric, type MappingExample, type QuestionType } from './suggest.ts';

export interface LabelledQuestion {
  text: string;
  questionType: QuestionType;
  scaleMin: number | null;
  scaleMax: number | null;
  /** Mapped metric, and whether that mapping is validated (validated ones are examples). */
  metricId: number | null;
  validated: boolean;
  /** The metric the question really measures; null when none of the catalogue fits. */
  truth: number | null;
}

export interface AccuracyReport {
  questions: number;
  correct: number;
  accuracy: number;
  /** Questions with a true metric, and how many of them got it suggested. */
  withMetric: number;
  withMetricCorrect: number;
  /** Questions without one, and how many got no suggestion. */
  withoutMetric: number;
  withoutMetricCorrect: number;
  /** The same measure without any library example: catalogue synonyms and scales alone. */
  catalogueOnlyAccuracy: number;
}

const keyOf = (q: { text: string; questionType: QuestionType }, metricId: number) =>
  `${metricId}\u0000${q.questionType}\u0000${q.text}`;

/** Validated mappings counted by text, type and metric. */
export function examplesOf(questions: Iterable<LabelledQuestion>): Map<string, MappingExample> {
  const examples = new Map<string, MappingExample>();
  for (const q of questions) {
    if (!q.validated || q.metricId === null) continue;
    const key = keyOf(q, q.metricId);
    const example = examples.get(key);
    if (example) example.count++;
    else examples.set(key, { text: q.text, questionType: q.questionType, metricId: q.metricId, count: 1 });
  }
  return examples;
}

export function measureSuggestionAccuracy(
  catalogue: readonly CatalogueMetric[],
  studies: readonly (readonly LabelledQuestion[])[],
): AccuracyReport {
  const all = examplesOf(studies.flat());
  const catalogueOnly = new MetricSuggester(catalogue, []);
  const report = {
    questions: 0,
    correct: 0,
    withMetric: 0,
    withMetricCorrect: 0,
    withoutMetric: 0,
    withoutMetricCorrect: 0,
    catalogueOnlyCorrect: 0,
  };
  for (const study of studies) {
    const own = examplesOf(study);
    const others = [...all.entries()]
      .map(([key, example]) => ({ ...example, count: example.count - (own.get(key)?.count ?? 0) }))
      .filter((example) => example.count > 0);
    const suggester = new MetricSuggester(catalogue, others);
    for (const question of study) {
      const hit = suggester.suggest(question) === question.truth;
      report.questions++;
      if (hit) report.correct++;
      if (question.truth === null) {
        report.withoutMetric++;
        if (hit) report.withoutMetricCorrect++;
      } else {
        report.withMetric++;
        if (hit) report.withMetricCorrect++;
      }
      if (catalogueOnly.suggest(question) === question.truth) report.catalogueOnlyCorrect++;
    }
  }
  const share = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);
  return {
    questions: report.questions,
    correct: report.correct,
    accuracy: share(report.correct, report.questions),
    withMetric: report.withMetric,
    withMetricCorrect: report.withMetricCorrect,
    withoutMetric: report.withoutMetric,
    withoutMetricCorrect: report.withoutMetricCorrect,
    catalogueOnlyAccuracy: share(report.catalogueOnlyCorrect, report.questions),
  };
}

/** A question of the hand-written realistic set, with the metric an admin maps it to. */
export interface RealisticQuestion {
  text: string;
  scale: string;
  /** Catalogue name of the metric, or null when the question measures none. */
  metric: string | null;
  /** Kept apart from tuning: its figure is the honest estimate on unseen wording. */
  heldOut: boolean;
  /** Held-out batches written later (2, 3), each after the previous batch's figure was read. */
  batch?: number;
}

export interface RealisticScale {
  questionType: QuestionType;
  scaleMin: number | null;
  scaleMax: number | null;
  labels: { name: string; value: number }[];
}

export interface RealisticSet {
  scales: Record<string, RealisticScale>;
  questions: RealisticQuestion[];
}

export interface RealisticOutcome {
  question: RealisticQuestion;
  suggested: string | null;
  /** right: the admin's metric (or none for none); missed: none although one fits; wrong: another metric. */
  outcome: 'right' | 'missed' | 'wrong';
}

export interface RealisticReport {
  questions: number;
  right: number;
  missed: number;
  wrong: number;
  accuracy: number;
  outcomes: RealisticOutcome[];
}

/** How the suggester does on hand-written questions, over the whole set or one part of it. */
export function measureRealisticAccuracy(
  catalogue: readonly CatalogueMetric[],
  examples: readonly MappingExample[],
  set: RealisticSet,
  part: 'all' | 'tuning' | 'held-out' = 'all',
): RealisticReport {
  const suggester = new MetricSuggester(catalogue, examples);
  const nameOf = new Map(catalogue.map((m) => [m.id, m.name]));
  const outcomes = set.questions
    .filter((q) => part === 'all' || q.heldOut === (part === 'held-out'))
    .map((question): RealisticOutcome => {
      const scale = set.scales[question.scale];
      if (!scale) throw new Error(`Unknown scale ${question.scale}`);
      const id = suggester.suggest({ text: question.text, ...scale });
      const suggested = id === null ? null : (nameOf.get(id) ?? null);
      const outcome = suggested === question.metric ? 'right' : suggested === null ? 'missed' : 'wrong';
      return { question, suggested, outcome };
    });
  const count = (outcome: RealisticOutcome['outcome']) =>
    outcomes.filter((o) => o.outcome === outcome).length;
  const right = count('right');
  return {
    questions: outcomes.length,
    right,
    missed: count('missed'),
    wrong: count('wrong'),
    accuracy: outcomes.length === 0 ? 0 : right / outcomes.length,
    outcomes,
  };
}
