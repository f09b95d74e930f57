/**
 * Question mapping (document 2 sections 2 to 7). Reads are for every signed-in user within their
 * client scope (a study outside it is answered 404); edits are for admins and analytics users (the
 * routes check the role). Rules of an edit, all checked inside one transaction with the file's
 * questions locked:
 * - a metric is used at most once per results file;
 * - a validated question keeps its metric; validating needs a metric;
 * - only constant questions have a value;
 * - a metric change moves the question's answers and refreshes the product statistics (repository).
 *
 * Suggestions are computed when questions are read, never stored: the suggester learns from every
 * validated mapping of the library, so a stored suggestion would go stale with each validation. The
 * suggester is rebuilt after each edit made here and at most SUGGESTER_TTL_MS after edits made
 * elsewhere (uploads, other server processes).
 */
import {
  MAPPING_MESSAGES,
  metricNameOf,
  type MappingQuestionUpdate,
  type MappingUpdateResponse,
  type MetricsCatalogueResponse,
  type StudyMetricsResponse,
  type StudyQuestionsResponse,
} from '@accord/contracts';
import type { Clock } from '../../lib/clock.ts';
import { studyByIdScope } from '../../lib/client-scope.ts';
import { errors } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import type {
  MappingRepository,
  MetricRecord,
  QuestionChange,
  QuestionRecord,
} from './mapping.repository.ts';
import { presentMetricOption, presentQuestion, presentStudyQuestions } from './mapping.presenter.ts';
import { MetricSuggester } from './suggest.ts';

export const SUGGESTER_TTL_MS = 60_000;

/** Questions added on the mapping page are numbered C1, C2 ... within their file. */
const ADDED_QID = /^C(\d+)$/;

export function createMappingService(deps: { mapping: MappingRepository; clock: Clock }) {
  const { mapping, clock } = deps;
  let catalogue: Promise<MetricRecord[]> | null = null;
  let suggester: { built: number; value: Promise<MetricSuggester> } | null = null;

  function metrics(): Promise<MetricRecord[]> {
    catalogue ??= mapping.metricsCatalogue().catch((error: unknown) => {
      catalogue = null;
      throw error;
    });
    return catalogue;
  }

  function currentSuggester(): Promise<MetricSuggester> {
    const now = clock.now().getTime();
    if (!suggester || now - suggester.built > SUGGESTER_TTL_MS) {
      const value = Promise.all([metrics(), mapping.validatedExamples()]).then(
        ([list, examples]) => new MetricSuggester(list, examples),
      );
      const entry = { built: now, value };
      suggester = entry;
      value.catch(() => {
        if (suggester === entry) suggester = null;
      });
    }
    return suggester.value;
  }

  async function visibleStudy(user: AuthUser, id: number) {
    const study = await mapping.findStudy(id, studyByIdScope(user));
    if (!study) throw errors.notFound(MAPPING_MESSAGES.studyNotFound(id));
    return study;
  }

  async function metricIdOf(name: string | null | undefined): Promise<number | null | undefined> {
    if (name === undefined || name === null) return name;
    const metric = (await metrics()).find((m) => m.name === name);
    if (!metric)
      throw errors.badRequest(MAPPING_MESSAGES.unknownMetric(name), [
        { path: 'q_upd.metric', message: MAPPING_MESSAGES.unknownMetric(name) },
      ]);
    return metric.id;
  }

  async function present(question: QuestionRecord) {
    const [list, engine] = await Promise.all([metrics(), currentSuggester()]);
    return presentQuestion(question, new Map(list.map((m) => [m.id, m])), engine.explain(question));
  }

  /** Refuses a metric another question of the same file already has. */
  async function checkUnusedInFile(fileQuestions: QuestionRecord[], metricId: number, self: number | null) {
    const other = fileQuestions.find((q) => q.metricId === metricId && q.id !== self);
    if (!other) return;
    const metric = (await metrics()).find((m) => m.id === metricId);
    const message = MAPPING_MESSAGES.metricUsedInFile(
      metric?.label ?? String(metricId),
      other.qid,
      other.filename,
    );
    throw errors.badRequest(message, [{ path: 'q_upd.metric', message }]);
  }

  return {
    async catalogue(): Promise<MetricsCatalogueResponse> {
      return (await metrics()).map(presentMetricOption);
    },

    async studyMetrics(user: AuthUser, studyId: number): Promise<StudyMetricsResponse> {
      await visibleStudy(user, studyId);
      const [list, questions, products] = await Promise.all([
        metrics(),
        mapping.questionsOf(studyId),
        mapping.productsOf(studyId),
      ]);
      return {
        metrics: list
          .map((metric) => ({
            value: metric.name,
            label: metric.label,
            metric_type: metric.metricType,
            used_in: questions
              .filter((q) => q.metricId === metric.id)
              .map((q) => ({
                filename: q.filename,
                qid: q.qid,
                question_id: q.id,
                validated: q.metricValidated,
              })),
          }))
          .filter((metric) => metric.used_in.length > 0),
        product_codes: products.map((p) => ({ value: p.code, label: `${p.code} - ${p.name}` })),
        product_code_columns: products.length > 0 ? [{ value: 'product_code', label: 'Product code' }] : [],
      };
    },

    async questions(user: AuthUser, studyId: number): Promise<StudyQuestionsResponse> {
      const study = await visibleStudy(user, studyId);
      const [list, rows, engine] = await Promise.all([
        metrics(),
        mapping.questionsOf(studyId),
        currentSuggester(),
      ]);
      const byId = new Map(list.map((m) => [m.id, m]));
      return presentStudyQuestions(
        study,
        rows.map((row) => presentQuestion(row, byId, engine.explain(row))),
      );
    },

    async update(
      user: AuthUser,
      studyId: number,
      change: MappingQuestionUpdate,
    ): Promise<MappingUpdateResponse> {
      await visibleStudy(user, studyId);
      const metricName = metricNameOf(change.metric);
      const metricId = await metricIdOf(metricName);
      const saved =
        change.id === undefined
          ? await addQuestion(studyId, change, metricId ?? null)
          : await editQuestion(studyId, change.id, change, metricId);
      suggester = null;
      return {
        message: change.id === undefined ? MAPPING_MESSAGES.added : MAPPING_MESSAGES.saved,
        question: await present(saved),
      };
    },
  };

  function editQuestion(
    studyId: number,
    questionId: number,
    change: MappingQuestionUpdate,
    metricId: number | null | undefined,
  ): Promise<QuestionRecord> {
    return mapping.transaction(async (tx) => {
      const found = await mapping.findQuestion(tx, studyId, questionId);
      if (!found) throw errors.notFound(MAPPING_MESSAGES.unknownQuestion(questionId));
      const fileQuestions = await mapping.lockFile(tx, studyId, found.filename);
      const current = fileQuestions.find((q) => q.id === questionId) ?? found;

      const update: QuestionChange = {};
      const metricChanges = metricId !== undefined && metricId !== current.metricId;
      if (metricChanges) {
        if (current.metricValidated) throw errors.badRequest(MAPPING_MESSAGES.validatedMetricLocked);
        if (metricId !== null) await checkUnusedInFile(fileQuestions, metricId, current.id);
        update.metricId = metricId;
      }
      if (change.value !== undefined) {
        if (current.questionType !== 'constant')
          throw errors.badRequest(MAPPING_MESSAGES.valueOnlyForConstants);
        update.constantValue = change.value === '' ? null : change.value;
      }
      if (change.metric_validated !== undefined) {
        const finalMetric = metricChanges ? metricId : current.metricId;
        if (change.metric_validated && finalMetric === null)
          throw errors.badRequest(MAPPING_MESSAGES.validateWithoutMetric);
        update.metricValidated = change.metric_validated;
      }
      if (Object.keys(update).length === 0) return current;
      const saved = await mapping.updateQuestion(tx, current.id, update);
      if (metricChanges)
        await mapping.moveAnswers(tx, studyId, current.id, current.metricId, metricId ?? null);
      return saved;
    });
  }

  function addQuestion(
    studyId: number,
    change: MappingQuestionUpdate,
    metricId: number | null,
  ): Promise<QuestionRecord> {
    const filename = change.filename ?? '';
    return mapping.transaction(async (tx) => {
      const file = (await mapping.filesOf(tx, studyId)).find((f) => f.filename === filename);
      if (!file) {
        const message = MAPPING_MESSAGES.unknownFile(filename);
        throw errors.badRequest(message, [{ path: 'q_upd.filename', message }]);
      }
      const fileQuestions = await mapping.lockFile(tx, studyId, filename);
      if (metricId !== null) await checkUnusedInFile(fileQuestions, metricId, null);
      const lastAdded = Math.max(0, ...fileQuestions.map((q) => Number(ADDED_QID.exec(q.qid)?.[1] ?? 0)));
      const lastOrder = Math.max(-1, ...fileQuestions.map((q) => q.sortOrder));
      const value = change.value ? change.value : null;
      return mapping.insertQuestion(tx, {
        studyId,
        filename,
        path: file.path,
        resultsFileId: file.resultsFileId,
        qid: `C${lastAdded + 1}`,
        text: change.text ?? '',
        questionType: 'constant',
        scaleMin: null,
        scaleMax: null,
        constantValue: value,
        metricId,
        metricValidated: false,
        sortOrder: lastOrder + 1,
      });
    });
  }
}

export type MappingService = ReturnType<typeof createMappingService>;
