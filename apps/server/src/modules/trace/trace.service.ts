/**
 * "How was this computed?" (METRICS.md sections 1, 2, 2b): an aggregate shown on screen recomputed
 * from the answers it is made of, with the questions and scales behind it per study, the respondent
 * filters in words, its base, the test behind a significance mark, the results files it came from, and
 * the answers themselves as csv. Scoped as every study read: client and sales users trace only the
 * verified studies of their clients; a product outside the caller's scope answers 404.
 */
import {
  AGGREGATION_LABELS,
  AGGREGATIONS_BY_METRIC_KIND,
  ANALYTICS_MESSAGES,
  CLUSTERED_TEST_NAMES,
  CLUSTERED_SHARE_TESTS,
  CLUSTERED_TESTS,
  LOW_BASE,
  SIGNIFICANCE_NOT_TESTED,
  TRACE_CSV_COLUMNS,
  TRACE_MESSAGES,
  type ParsedTraceRequest,
  type TraceResponse,
  yesNoAggregationLabel,
} from '@accord/contracts';
import {
  ANALYTICS_LEVELS,
  classifySignificance,
  clusterAverageTests,
  clusterRestTests,
  compareSelectionVsRest,
  type ClusterCell,
} from '@accord/stats';
import { studyByIdScope } from '../../lib/client-scope.ts';
import { errors } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import {
  EMPTY_SUMS,
  addSums,
  boxCount,
  columnValue,
  isShare,
  yesNoCount,
  type Sums,
} from '../analytics/analytics-metrics.ts';
import { respondentConditions, type MetricRecord } from '../analytics/analytics.repository.ts';
import { s } from '../search/search-filters.ts';
import type { AnswerSelection, TraceRepository } from './trace.repository.ts';
import { csvLine, filterWords, harmonisationWords, ruleWords, scaleWords } from './trace-words.ts';

/** The download route of a study file (study-files routes). */
const fileUrl = (studyId: number, fileId: number) => `/api/study/${studyId}/study-files/${fileId}`;

/** Test ids in words. */
const TEST_WORDS: Record<string, string> = {
  'welch-t': 'Welch two-sample t-test',
  'one-sample-t': 'One-sample t-test',
  'two-proportion-z': 'Two-proportion z-test (pooled variance, no continuity correction)',
  'one-proportion-z': 'One-sample z-test of a proportion',
};

export function createTraceService(deps: { trace: TraceRepository }) {
  const { trace } = deps;

  /** The metric of the request, refusing unknown ones and aggregations it does not offer (400). */
  async function metricOf(request: ParsedTraceRequest): Promise<MetricRecord> {
    const metric = await trace.metricByName(request.metric);
    if (!metric) {
      const message = ANALYTICS_MESSAGES.unknownMetric(request.metric);
      throw errors.badRequest(message, [{ path: 'metric', message }]);
    }
    if (!AGGREGATIONS_BY_METRIC_KIND[metric.kind].includes(request.aggregation)) {
      const message = ANALYTICS_MESSAGES.aggregationNotOffered(request.aggregation, request.metric);
      throw errors.badRequest(message, [{ path: 'aggregation', message }]);
    }
    return metric;
  }

  /** The caller's products of a list: all of them, or 404 (a foreign product is not named). */
  async function visible(user: AuthUser, productIds: readonly number[]) {
    const wanted = [...new Set(productIds)];
    const found = await trace.visibleProducts(wanted, studyByIdScope(user, s));
    if (found.length !== wanted.length) throw errors.notFound(TRACE_MESSAGES.unknownProducts);
    return found;
  }

  /** Per product, the sums of its counted answers (every question of the metric together). */
  async function productSums(selection: AnswerSelection): Promise<Map<number, Sums>> {
    const byProduct = new Map<number, Sums>();
    for (const row of await trace.sumsByQuestion(selection))
      byProduct.set(row.productId, addSums(byProduct.get(row.productId) ?? EMPTY_SUMS, row));
    return byProduct;
  }

  /**
   * The significance of one product against the list (METRICS.md section 2), as the Calculate computes
   * it: the respondent-clustered test of its answers against the rest or the average of the list. The
   * p-value is the raw one; the table's level reads it after the correction across the Calculate.
   */
  async function listSignificance(
    user: AuthUser,
    request: ParsedTraceRequest,
    metric: MetricRecord,
    conditions: AnswerSelection['respondentConditions'],
  ): Promise<TraceResponse['significance']> {
    const significance = request.significance!;
    const listIds = [...new Set([...significance.products, ...request.products])];
    await visible(user, listIds);
    const selection = { metric, productIds: listIds, respondentConditions: conditions };
    const [sums, byRespondent] = await Promise.all([
      productSums(selection),
      trace.sumsByRespondent(selection),
    ]);
    const sumsOf = (id: number) => sums.get(id) ?? EMPTY_SUMS;
    const mine = request.products.map(sumsOf).reduce(addSums, EMPTY_SUMS as Sums);
    const total = listIds.map(sumsOf).reduce(addSums, EMPTY_SUMS as Sums);
    const withAnswers = listIds.map(sumsOf).filter((entry) => entry.n > 0);
    // A yes/no metric is tested on its 0/1 selection (its share), as the Calculate tests it.
    const yesNo = metric.kind === 'binary';
    const share = yesNo || isShare(request.aggregation);
    const boxOf = (entry: Sums) =>
      yesNo ? yesNoCount(entry, request.aggregation) : boxCount(entry, request.aggregation)!;
    const average =
      withAnswers.length === 0
        ? Number.NaN
        : withAnswers.reduce(
            (sum, entry) => sum + (share ? boxOf(entry) / entry.n : entry.sum / entry.n),
            0,
          ) / withAnswers.length;
    const rest = total.n - mine.n;
    const reference =
      significance.calculation === 'rest'
        ? rest > 0
          ? share
            ? (boxOf(total) - boxOf(mine)) / rest
            : (total.sum - mine.sum) / rest
          : null
        : average;
    // The traced products are one side (index 0), every other product of the list its own.
    const traced = new Set(request.products);
    const others = listIds.filter((id) => !traced.has(id));
    const indexOf = new Map(others.map((id, at) => [id, at + 1]));
    const cells: ClusterCell[] = byRespondent.map((row) => {
      const count = share ? boxOf(row) : 0;
      return {
        product: traced.has(row.productId) ? 0 : indexOf.get(row.productId)!,
        cluster: row.respondentId,
        n: row.n,
        sum: share ? count : row.sum,
        sumSq: share ? count : row.sumSq,
      };
    });
    const [result] =
      significance.calculation === 'rest'
        ? clusterRestTests(cells, others.length + 1)
        : clusterAverageTests(cells, others.length + 1);
    const test = (yesNo ? CLUSTERED_SHARE_TESTS : CLUSTERED_TESTS)[significance.calculation];
    const tested = result!.n >= LOW_BASE && result!.testable;
    const found = tested ? classifySignificance(result!.pValue, result!.difference, ANALYTICS_LEVELS) : null;
    const against =
      significance.calculation === 'rest'
        ? `the pooled answers of the other ${others.length} products of the list`
        : `the unweighted average of the ${withAnswers.length} product ${share ? 'shares' : 'means'} of the list, itself included`;
    const sentence = (words: string) => `${words[0]!.toUpperCase()}${words.slice(1)}`;
    const why =
      result!.n < LOW_BASE
        ? ` ${sentence(SIGNIFICANCE_NOT_TESTED.lowBase)} (${result!.n} answers, below ${LOW_BASE}).`
        : tested
          ? ' The table reads this p-value after the correction chosen for the whole Calculate.'
          : ` ${sentence(SIGNIFICANCE_NOT_TESTED.noVariance)}.`;
    return {
      test,
      description: `${sentence(CLUSTERED_TEST_NAMES[test]!)}, two-sided, of this product’s answers against ${against} (respondents as clusters, t with ${result!.df} df).${why}`,
      p_value: tested ? result!.pValue : null,
      level: found?.level ?? null,
      direction: found?.direction ?? null,
      reference: reference !== null && Number.isFinite(reference) ? reference : null,
    };
  }

  /** Product scores (one per product with answers) of a group. */
  function scores(sums: Map<number, Sums>, request: ParsedTraceRequest, metric: MetricRecord): number[] {
    return [...sums.values()]
      .map((entry) => columnValue(entry, request.aggregation, metric.kind))
      .filter((value): value is number => value !== null);
  }

  return {
    /** How the aggregate was computed, recomputed from its answers. */
    async trace(user: AuthUser, request: ParsedTraceRequest): Promise<TraceResponse> {
      const metric = await metricOf(request);
      const productList = await visible(user, request.products);
      const conditions = respondentConditions(request.demographics, request.demographics_fragrances);
      const selection: AnswerSelection = {
        metric,
        productIds: request.products,
        respondentConditions: conditions,
      };
      const [byQuestion, respondents, outOfScale] = await Promise.all([
        trace.sumsByQuestion(selection),
        trace.respondentCount(selection),
        trace.outOfScaleCount(selection),
      ]);
      const byProduct = new Map<number, Sums>();
      const answersOfQuestion = new Map<number, number>();
      for (const row of byQuestion) {
        byProduct.set(row.productId, addSums(byProduct.get(row.productId) ?? EMPTY_SUMS, row));
        answersOfQuestion.set(row.questionId, (answersOfQuestion.get(row.questionId) ?? 0) + row.n);
      }
      const pooled = [...byProduct.values()].reduce(addSums, EMPTY_SUMS as Sums);
      const productScores = scores(byProduct, request, metric);
      const mean = (values: number[]) =>
        values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
      const value =
        request.unit === 'answers'
          ? columnValue(pooled, request.aggregation, metric.kind)
          : mean(productScores);

      const studyIds = [...new Set(productList.map((product) => product.studyId))];
      const questionList = await trace.questionsOf(studyIds, metric.id);
      const mayDownload = user.permissions.allowDownload;
      const studiesOut: TraceResponse['studies'] = studyIds.map((studyId) => {
        const first = productList.find((product) => product.studyId === studyId)!;
        return {
          study_id: studyId,
          c_mi_number: first.cMiNumber,
          project_name: first.projectName,
          client: first.client,
          products: productList
            .filter((product) => product.studyId === studyId)
            .map((product) => {
              const own = byProduct.get(product.id) ?? EMPTY_SUMS;
              return {
                id: product.id,
                code: product.code,
                name: product.name,
                value: columnValue(own, request.aggregation, metric.kind),
                n: own.n,
              };
            }),
          questions: questionList
            .filter((question) => question.studyId === studyId)
            .map((question) => ({
              id: question.id,
              qid: question.qid,
              text: question.text,
              question_type: question.questionType,
              scale_min: question.scaleMin,
              scale_max: question.scaleMax,
              scale: scaleWords(question.scaleMin, question.scaleMax, question.questionType),
              harmonisation: harmonisationWords(question.scaleMin, question.scaleMax, question.questionType),
              answers: answersOfQuestion.get(question.id) ?? 0,
              filename: question.filename,
              // Results files are listed to users who may download them (document 1 section 6).
              results_file:
                mayDownload && question.resultsFileId !== null
                  ? {
                      id: question.resultsFileId,
                      name: question.resultsFileName ?? question.filename,
                      url: fileUrl(studyId, question.resultsFileId),
                    }
                  : null,
            })),
        };
      });

      let significance: TraceResponse['significance'] = null;
      if (request.significance) significance = await listSignificance(user, request, metric, conditions);
      if (request.versus) {
        await visible(user, request.versus.products);
        const other = await productSums({
          metric,
          productIds: request.versus.products,
          respondentConditions: respondentConditions(request.versus.demographics, []),
        });
        const otherScores = scores(other, request, metric);
        const comparison = compareSelectionVsRest({
          kind: 'mean',
          selection: productScores,
          rest: otherScores,
        });
        significance = {
          test: comparison.test,
          description: `${TEST_WORDS[comparison.test] ?? comparison.test}, two-sided, of this group’s ${productScores.length} product scores against the other group’s ${otherScores.length} (the product is the unit).`,
          p_value: comparison.pValue,
          level: comparison.level,
          direction: comparison.direction,
          reference: mean(otherScores),
        };
      }

      const base = {
        respondents,
        answers: pooled.n,
        products: [...byProduct.values()].filter((entry) => entry.n > 0).length,
        studies: new Set(productList.filter((product) => byProduct.has(product.id)).map((p) => p.studyId))
          .size,
      };
      const n = request.unit === 'answers' ? base.answers : productScores.length;
      return {
        metric: { name: metric.name, label: metric.label, kind: metric.kind, metric_type: metric.metricType },
        aggregation: request.aggregation,
        aggregation_label:
          (metric.kind === 'binary' ? yesNoAggregationLabel(request.aggregation) : null) ??
          AGGREGATION_LABELS[request.aggregation],
        rule: ruleWords(request.aggregation, request.unit, metric.kind === 'binary'),
        unit: request.unit,
        value,
        base,
        low_base: n > 0 && n < LOW_BASE,
        filters: filterWords(request.demographics, request.demographics_fragrances),
        out_of_scale: outOfScale,
        studies: studiesOut,
        significance,
        can_download: mayDownload,
      };
    },

    /**
     * The counted answers of the aggregate as csv lines (header first), read page by page so a large
     * base is streamed: users with the download right only (403), the caller's products only (404).
     */
    async answersCsv(user: AuthUser, request: ParsedTraceRequest): Promise<AsyncIterable<string>> {
      if (!user.permissions.allowDownload) throw errors.forbidden(TRACE_MESSAGES.downloadNotAllowed);
      const metric = await metricOf(request);
      await visible(user, request.products);
      const selection: AnswerSelection = {
        metric,
        productIds: request.products,
        respondentConditions: respondentConditions(request.demographics, request.demographics_fragrances),
      };
      return (async function* lines() {
        yield csvLine(TRACE_CSV_COLUMNS);
        for await (const page of trace.answerPages(selection)) {
          yield page
            .map((row) =>
              csvLine([
                row.study,
                row.respondent,
                row.product,
                row.question,
                row.questionText,
                row.rawValue,
                row.value,
              ]),
            )
            .join('');
        }
      })();
    },
  };
}

export type TraceService = ReturnType<typeof createTraceService>;
