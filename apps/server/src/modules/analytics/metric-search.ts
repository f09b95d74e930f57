/**
 * The metric search: per fragrance or concept of the filters (or the chosen ones) the chosen metrics'
 * aggregations with their bases, kept and ordered by the thresholds, the pooled summary, the
 * performance breakdown when asked, and the diagnostics of the studies found. The answer is written
 * once as JSON text (metric-search.presenter.ts).
 */
import {
  AGGREGATION_LABELS,
  ANALYTICS_MESSAGES,
  LOW_BASE,
  NO_TAG,
  type Aggregation,
  type Diagnostics,
  type MetricSearchResult,
  type ParsedMetricSearchRequest,
  type PerformanceBreakdown,
  type Threshold,
} from '@accord/contracts';
import { errors } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import {
  poolSums,
  studyFiltersOf,
  sumsKey,
  sumsOf,
  type AnalyticsContext,
  type SumsTable,
} from './analytics-context.ts';
import { aggregate, applyThreshold, rankJointly, summarise } from './analytics-metrics.ts';
import type { StoredResult } from './analytics-job-runner.ts';
import type { MetricRecord, OutOfScaleRow, ProductRecord } from './analytics-types.ts';
import { respondentConditions, type AnalyticsRepository } from './analytics.repository.ts';
import { metricSearchJson, type ComputedRows } from './metric-search.presenter.ts';

/** Whether a metric is expected in a study of the given kind (EEG in EEG studies, implicit in IRT). */
const expectedIn = (metric: MetricRecord, rdfType: ProductRecord['rdfType']) =>
  metric.kind === 'eeg' ? rdfType === 'eeg' : metric.kind === 'implicit' ? rdfType === 'irt' : true;

/** Computes a metric search as the JSON text of its answer. */
export async function computeMetricSearch(
  context: AnalyticsContext,
  user: AuthUser,
  request: ParsedMetricSearchRequest,
  fingerprintNow: string,
): Promise<StoredResult> {
  const {
    analytics,
    compileFor,
    resolveMetrics,
    productsOf,
    scopeOf,
    outOfScaleAnswers,
    mappedPairs,
    loadSums,
  } = context;
  const query = request.q;
  const compiled = compileFor(user, studyFiltersOf(query));
  const entries = query.metrics.metricsList;
  const entryMetrics = await resolveMetrics(entries, 'q.metrics.metricsList');
  const distinctMetrics = [...new Map(entryMetrics.map((metric) => [metric.id, metric])).values()];
  const kind = request.type === 'concepts' ? 'concept' : 'fragrance';
  const chosenIds = request.fragrances ? [...new Set(request.fragrances.map((entry) => entry.id))] : null;

  const productList = await productsOf(
    user,
    studyFiltersOf(query),
    { compiled, kind, rdfType: query.metrics.rdfType, productIds: chosenIds },
    fingerprintNow,
  );
  if (chosenIds) {
    const found = new Set(productList.map((product) => product.id));
    const missing = chosenIds.filter((id) => !found.has(id));
    if (missing.length > 0) throw errors.badRequest(ANALYTICS_MESSAGES.missingProducts(missing));
  }
  const productIds = productList.map((product) => product.id);
  const respondentFilter = respondentConditions(query.demographics, request.demographics_fragrances);

  const [outOfScale, mapped] = await Promise.all([
    outOfScaleAnswers(productIds, distinctMetrics, fingerprintNow),
    mappedPairs(distinctMetrics, fingerprintNow),
  ]);
  const sums = await loadSums(
    productIds,
    distinctMetrics,
    respondentFilter,
    new Set(outOfScale.map((row) => row.productId)),
    fingerprintNow,
  );

  const columns = entries.map((entry, index) => {
    const metric = entryMetrics[index]!;
    return {
      metric: metric.name,
      label: metric.label,
      metric_type: metric.metricType,
      aggregation: entry.aggregation,
      aggregation_label: AGGREGATION_LABELS[entry.aggregation],
      confidence: entry.confidence,
      key: `${metric.name}.${entry.aggregation}`,
    };
  });

  // Values and bases in columns (NaN: no value), rows as positions in the product list.
  const computed: ComputedRows = {
    products: productList,
    values: columns.map(() => new Float64Array(productList.length)),
    bases: columns.map(() => new Int32Array(productList.length)),
    order: productList.map((_, position) => position),
  };
  columns.forEach((column, index) => {
    const metric = entryMetrics[index]!;
    const values = computed.values[index]!;
    const bases = computed.bases[index]!;
    for (let position = 0; position < productList.length; position++) {
      const productSums = sumsOf(sums, productList[position]!.id, metric.id);
      values[position] = aggregate(productSums, column.aggregation, metric.kind) ?? Number.NaN;
      bases[position] = productSums.n;
    }
  });
  const valueAt = (index: number, position: number) => {
    const value = computed.values[index]![position]!;
    return Number.isNaN(value) ? null : value;
  };

  // Thresholds: an entry's own threshold keeps the products ranking within it (those with a value
  // for it); the entries under the global threshold are ranked jointly (document 3 section 4.2,
  // source All: liking and EEG hedonic together), and the global threshold keeps the first products
  // of that joint ranking, in its order. Without a global threshold the first own one orders them.
  const global = query.metrics.threshold?.applyThreshold ? query.metrics.threshold : null;
  const own = entries
    .map((entry, index) => ({
      index,
      threshold: entry.applyThreshold && entry.threshold ? entry.threshold : null,
    }))
    .filter((item): item is { index: number; threshold: Threshold } => item.threshold !== null);
  const joint = global
    ? entries.map((_, index) => index).filter((index) => !own.some((item) => item.index === index))
    : [];
  const valuesOf = (index: number) =>
    computed.order.map((position) => ({
      id: productList[position]!.id,
      value: valueAt(index, position),
    }));
  if (own.length > 0) {
    const kept = own.map((item) => ({
      index: item.index,
      ids: applyThreshold(valuesOf(item.index), item.threshold),
    }));
    computed.order = computed.order.filter((position) => {
      const relevant = kept.filter((item) => valueAt(item.index, position) !== null);
      return relevant.length > 0 && relevant.every((item) => item.ids.has(productList[position]!.id));
    });
  }
  if (global && joint.length > 0) {
    const positionOf = new Map(computed.order.map((position) => [productList[position]!.id, position]));
    computed.order = rankJointly(
      joint.map((index) => valuesOf(index)),
      global,
    ).map((id) => positionOf.get(id)!);
  } else if (own.length > 0) {
    const primary = own[0]!;
    computed.order.sort((left, right) => {
      const a = valueAt(primary.index, left);
      const b = valueAt(primary.index, right);
      if (a === null || b === null) return a === null ? (b === null ? 0 : 1) : -1;
      if (a === b) return productList[left]!.id - productList[right]!.id;
      return primary.threshold.desc ? b - a : a - b;
    });
  }
  const keptIds = computed.order.map((position) => productList[position]!.id);

  const summary: MetricSearchResult['summary'] = {};
  for (const metric of distinctMetrics) {
    const pooled = poolSums(sums, keptIds, metric.id);
    summary[metric.name] = summarise(pooled, metric.kind);
  }

  const performance = request.data
    ? await breakdown(
        analytics,
        {
          compiled,
          scope: scopeOf(user),
          kind,
          rdfType: query.metrics.rdfType,
          productIds: keptIds,
        },
        request.data,
        columns,
        entryMetrics,
        sums,
      )
    : undefined;

  const text = metricSearchJson(
    {
      type: request.type,
      columns,
      summary,
      ...(performance ? { performance } : {}),
      diagnostics: diagnose(productList, new Set(keptIds), distinctMetrics, sums, mapped, outOfScale),
      filtered: respondentFilter.length > 0,
    },
    computed,
  );
  return { text };
}

/**
 * Performance rows: the result rows pooled per value of the breakdown field (a product with several
 * values counts in each; products without a value under 'No tag'), largest groups first.
 */
async function breakdown(
  analytics: AnalyticsRepository,
  selection: Parameters<AnalyticsRepository['breakdownValues']>[0],
  by: PerformanceBreakdown,
  columns: { key: string; aggregation: Aggregation }[],
  entryMetrics: MetricRecord[],
  sums: SumsTable,
): Promise<NonNullable<MetricSearchResult['performance']>> {
  const values = await analytics.breakdownValues(selection, by.category, by.field);
  const groups = new Map<string, Set<number>>();
  const grouped = new Set<number>();
  for (const row of values) {
    if (!groups.has(row.value)) groups.set(row.value, new Set());
    groups.get(row.value)!.add(row.productId);
    grouped.add(row.productId);
  }
  const ungrouped = (selection.productIds ?? []).filter((id) => !grouped.has(id));
  if (ungrouped.length > 0) groups.set(NO_TAG, new Set(ungrouped));
  return [...groups.entries()]
    .map(([value, ids]) => {
      const n: Record<string, number> = {};
      const metrics = columns.map((column, index) => {
        const metric = entryMetrics[index]!;
        const pooled = poolSums(sums, ids, metric.id);
        n[column.key] = pooled.n;
        return { name: column.key, value: aggregate(pooled, column.aggregation, metric.kind) };
      });
      // The fragrances the values are pooled over: those with answers to a shown metric, not every
      // fragrance of the group.
      const metricIds = [...new Set(entryMetrics.map((metric) => metric.id))];
      let fragrances = 0;
      for (const id of ids) if (metricIds.some((metricId) => sumsOf(sums, id, metricId).n > 0)) fragrances++;
      return { category: { name: by.field, value }, metrics, fragrances, n };
    })
    .sort(
      (left, right) =>
        right.fragrances - left.fragrances || left.category.value.localeCompare(right.category.value),
    );
}

/**
 * Per study of the result: errors (answers outside the question's scale, left out of every number),
 * warnings (a chosen metric the study should have but no question is mapped to) and infos (low
 * bases, below 30 answers).
 */
function diagnose(
  productList: ProductRecord[],
  keptIds: Set<number>,
  metricList: MetricRecord[],
  sums: SumsTable,
  mapped: { studyId: number; metricId: number }[],
  outOfScale: OutOfScaleRow[],
): Diagnostics {
  const kept = productList.filter((product) => keptIds.has(product.id));
  const studiesFound = new Map<number, { cMiNumber: string; rdfType: ProductRecord['rdfType'] }>();
  for (const product of kept)
    studiesFound.set(product.studyId, { cMiNumber: product.cMiNumber, rdfType: product.rdfType });
  // Pairs of study and metric as numbers (sumsKey), cheaper than text keys over every product.
  const mappedSet = new Set(mapped.map((row) => sumsKey(row.studyId, row.metricId)));
  const details = new Map<number, Diagnostics['studies'][number]['details']>();
  const note = (studyId: number, entry: Diagnostics['studies'][number]['details'][number]) => {
    if (!details.has(studyId)) details.set(studyId, []);
    details.get(studyId)!.push(entry);
  };
  const byQuestion = new Map<string, { studyId: number; qid: string; filename: string; count: number }>();
  for (const row of outOfScale) {
    if (!keptIds.has(row.productId)) continue;
    const key = `${row.studyId}|${row.filename}|${row.qid}`;
    const entry = byQuestion.get(key) ?? {
      studyId: row.studyId,
      qid: row.qid,
      filename: row.filename,
      count: 0,
    };
    entry.count += row.count;
    byQuestion.set(key, entry);
  }
  for (const entry of byQuestion.values())
    note(entry.studyId, {
      level: 'error',
      message: ANALYTICS_MESSAGES.outOfScale(entry.count, entry.qid),
      file: entry.filename,
    });
  for (const [studyId, study] of studiesFound) {
    for (const metric of metricList) {
      if (expectedIn(metric, study.rdfType) && !mappedSet.has(sumsKey(studyId, metric.id)))
        note(studyId, {
          level: 'warning',
          message: ANALYTICS_MESSAGES.missingMapping(metric.name),
          file: null,
        });
    }
  }
  const lowBases = new Map<number, { studyId: number; metric: string; bases: number[] }>();
  for (const product of kept) {
    for (const metric of metricList) {
      const n = sumsOf(sums, product.id, metric.id).n;
      if (n === 0 || n >= LOW_BASE) continue;
      const key = sumsKey(product.studyId, metric.id);
      const entry = lowBases.get(key) ?? { studyId: product.studyId, metric: metric.name, bases: [] };
      entry.bases.push(n);
      lowBases.set(key, entry);
    }
  }
  for (const entry of lowBases.values())
    note(entry.studyId, {
      level: 'info',
      message: ANALYTICS_MESSAGES.lowBase(
        entry.metric,
        entry.bases.length,
        Math.min(...entry.bases),
        Math.max(...entry.bases),
      ),
      file: null,
    });
  const studies = [...details.entries()]
    .map(([studyId, entries]) => ({
      study_id: studyId,
      c_mi_number: studiesFound.get(studyId)!.cMiNumber,
      errors: entries.filter((entry) => entry.level === 'error').length,
      warnings: entries.filter((entry) => entry.level === 'warning').length,
      infos: entries.filter((entry) => entry.level === 'info').length,
      details: entries,
    }))
    .sort((left, right) => left.c_mi_number.localeCompare(right.c_mi_number));
  return {
    studies_found: studiesFound.size,
    studies_with_anomalies: studies.filter((study) => study.errors + study.warnings > 0).length,
    studies,
  };
}
