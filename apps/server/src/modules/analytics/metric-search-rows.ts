/**
 * The assembly of a metric search's answer once its data is loaded (metric-search.ts loads it): the
 * values and bases of every product, the thresholds (the rows' order), the pooled summary and the
 * diagnostics, as typed columns (result-store.ts keeps them; no row object and no JSON is made
 * here). Pure and fed with compact data (products as typed arrays, statistics as a SumsTable), so
 * that a search of tens of thousands of products is assembled in a worker thread and a short one on
 * the request loop, with one answer.
 */
import {
  AGGREGATION_LABELS,
  ANALYTICS_MESSAGES,
  LOW_BASE,
  type Aggregation,
  type Diagnostics,
  type MetricSearchResult,
  type ParsedMetricSearchRequest,
  type Threshold,
  yesNoAggregationLabel,
} from '@accord/contracts';
import {
  metricSumsReader,
  poolSums,
  sumsKey,
  sumsOf,
  type MetricColumns,
  type SumsTable,
} from './analytics-context.ts';
import {
  addSumsInto,
  applyThreshold,
  boxField,
  columnValue,
  EMPTY_SUMS,
  rankJointly,
  summarise,
  type Sums,
  yesNoField,
} from './analytics-metrics.ts';
import type { MetricRecord, OutOfScaleRow, ProductRecord } from './analytics-types.ts';

const RDF_TYPES = ['rdf', 'eeg', 'irt'] as const satisfies readonly ProductRecord['rdfType'][];

/** The products of a search as the assembly reads them (positions as in the product list). */
export interface SearchProducts {
  ids: Int32Array;
  studyIds: Int32Array;
  /** Per product, its C-MI number as a position in `cMiNumbers`. */
  cMiAt: Int32Array;
  /**
   * The distinct C-MI numbers as UTF-8 bytes one after the other, number k from `starts[k]` to
   * `starts[k + 1]` (read with cMiNumberOf): on shared memory like the rest, as thousands of strings
   * were copied to the worker thread at every search (0.3 ms of the loop's time at 3,000 studies,
   * and as much again in the thread), while a search names only its diagnosed studies' numbers.
   */
  cMiNumbers: { bytes: Uint8Array; starts: Int32Array };
  /**
   * Per C-MI number (by its position in `cMiNumbers`), its rank in the diagnostics' order
   * (localeCompare; numbers comparing equal share one): the studies are sorted by these numbers at
   * every search, by their texts once per list.
   */
  cMiRanks: Int32Array;
  /** Per product, its study kind as a position in RDF_TYPES. */
  rdfTypes: Uint8Array;
}

/** Packed product lists, kept while the (cached) list lives: a repeated search packs nothing. */
const packedLists = new WeakMap<readonly ProductRecord[], SearchProducts>();

/** A product list in the assembly's form (kept for the list's lifetime). */
export function searchProductsOf(list: readonly ProductRecord[]): SearchProducts {
  const known = packedLists.get(list);
  if (known) return known;
  // In shared memory: a search assembled in a worker thread hands the list over without copying it.
  const shared = (bytes: number) => new SharedArrayBuffer(bytes * list.length);
  const ids = new Int32Array(shared(4));
  const studyIds = new Int32Array(shared(4));
  const cMiAt = new Int32Array(shared(4));
  const rdfTypes = new Uint8Array(shared(1));
  const cMiNumbers: string[] = [];
  const cMiPosition = new Map<string, number>();
  list.forEach((product, at) => {
    ids[at] = product.id;
    studyIds[at] = product.studyId;
    let position = cMiPosition.get(product.cMiNumber);
    if (position === undefined) {
      position = cMiNumbers.push(product.cMiNumber) - 1;
      cMiPosition.set(product.cMiNumber, position);
    }
    cMiAt[at] = position;
    rdfTypes[at] = RDF_TYPES.indexOf(product.rdfType);
  });
  const packed = {
    ids,
    studyIds,
    cMiAt,
    cMiNumbers: packedTexts(cMiNumbers),
    cMiRanks: ranksOf(cMiNumbers),
    rdfTypes,
  };
  packedLists.set(list, packed);
  return packed;
}

/** Texts as UTF-8 bytes one after the other on shared memory, with where each starts. */
function packedTexts(texts: readonly string[]): SearchProducts['cMiNumbers'] {
  const encoded = texts.map((text) => Buffer.from(text, 'utf8'));
  const starts = new Int32Array(new SharedArrayBuffer(4 * (texts.length + 1)));
  encoded.forEach((bytes, at) => (starts[at + 1] = starts[at]! + bytes.length));
  const bytes = new Uint8Array(new SharedArrayBuffer(starts[texts.length]!));
  encoded.forEach((text, at) => bytes.set(text, starts[at]));
  return { bytes, starts };
}

/** The C-MI number at a position of `products.cMiNumbers`. */
export function cMiNumberOf(products: SearchProducts, position: number): string {
  const { bytes, starts } = products.cMiNumbers;
  const start = starts[position]!;
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, starts[position + 1]! - start).toString('utf8');
}

/** Each text's rank in localeCompare's order, on shared memory; texts comparing equal share one. */
function ranksOf(texts: readonly string[]): Int32Array {
  const sorted = texts.map((_, at) => at).sort((left, right) => texts[left]!.localeCompare(texts[right]!));
  const ranks = new Int32Array(new SharedArrayBuffer(4 * texts.length));
  sorted.forEach((at, index) => {
    const previous = sorted[index - 1];
    const tied = previous !== undefined && texts[previous]!.localeCompare(texts[at]!) === 0;
    ranks[at] = tied ? ranks[previous]! : index;
  });
  return ranks;
}

/** The metric fields the assembly reads. */
export type SearchMetric = Pick<MetricRecord, 'id' | 'name' | 'label' | 'metricType' | 'kind'>;

/** One entry of the request's metric list, with its metric. */
export interface SearchEntry {
  metric: SearchMetric;
  aggregation: Aggregation;
  confidence: boolean;
  /** The entry's own threshold, when it applies one. */
  threshold: Threshold | null;
}

/** What the assembly needs, all loaded before it. */
export interface SearchAssemblyInput {
  type: ParsedMetricSearchRequest['type'];
  entries: SearchEntry[];
  /** The threshold over the entries without their own, when applied. */
  globalThreshold: Threshold | null;
  /** The distinct metrics of the entries, in their first order. */
  metrics: SearchMetric[];
  products: SearchProducts;
  sums: SumsTable;
  /** Studies with a question mapped to a metric: pairs of study and metric id, one after the other. */
  mapped: Int32Array;
  outOfScale: OutOfScaleRow[];
  /** Whether respondent filters applied. */
  filtered: boolean;
}

/**
 * The answer without its performance breakdown (which needs the kept products to be read from the
 * database), in columns: per column the value (NaN: none) and base of every product of the list (by
 * its position there), and the rows as positions in the list, in the answer's order.
 */
export interface AssembledSearch {
  type: MetricSearchResult['type'];
  columns: MetricSearchResult['columns'];
  values: Float64Array[];
  bases: Int32Array[];
  order: Int32Array;
  summary: MetricSearchResult['summary'];
  diagnostics: Diagnostics;
  filtered: boolean;
}

/** The columns of the answer, one per entry. */
export function searchColumns(entries: readonly SearchEntry[]): MetricSearchResult['columns'] {
  return entries.map((entry) => ({
    metric: entry.metric.name,
    label: entry.metric.label,
    metric_type: entry.metric.metricType,
    aggregation: entry.aggregation,
    // A yes/no (CATA) column is a share, "% selected" (or "% not selected"), never a mean or a box.
    aggregation_label:
      (entry.metric.kind === 'binary' ? yesNoAggregationLabel(entry.aggregation) : null) ??
      AGGREGATION_LABELS[entry.aggregation],
    confidence: entry.confidence,
    key: `${entry.metric.name}.${entry.aggregation}`,
    ...(entry.metric.kind === 'binary' ? { yes_no: true } : {}),
  }));
}

/** Assembles a search's answer (see the module note). */
export function assembleMetricSearch(input: SearchAssemblyInput): AssembledSearch {
  const { entries, products, sums } = input;
  const count = products.ids.length;
  const columns = searchColumns(entries);
  const { values, bases, pooledAsListed } = readColumns(entries, products.ids, sums);
  const rows = rowOrder(input, values);

  let asListed = rows.length === count;
  for (let row = 0; asListed && row < rows.length; row++) asListed = rows[row] === row;
  // Every product a row in the list's order: the kept ids are the list's, not copied.
  const keptIds = asListed ? products.ids : rows.map((position) => products.ids[position]!);
  const summary: MetricSearchResult['summary'] = {};
  for (const metric of input.metrics)
    summary[metric.name] = summarise(
      (asListed ? pooledAsListed.get(metric.id) : undefined) ?? poolSums(sums, keptIds, metric.id),
      metric.kind,
    );

  // Each metric's bases are a column's (the first entry of the metric): the diagnostics read them.
  const basesOf = new Map<number, Int32Array>();
  entries.forEach((entry, index) => {
    if (!basesOf.has(entry.metric.id)) basesOf.set(entry.metric.id, bases[index]!);
  });
  return {
    type: input.type,
    columns,
    values,
    bases,
    order: rows,
    summary,
    diagnostics: diagnose(input, asListed ? rows : keptPositions(rows, count), keptIds, basesOf),
    filtered: input.filtered,
  };
}

/**
 * Per entry, the value (NaN: none) and base of every product in the list's order, and each metric's
 * statistics pooled over every product in that order as they are read (the summary when every
 * product is a row in that order: added in the same order as poolSums adds them, so not read a
 * second time). Each entry resolves its metric's source once and reads it in one loop that writes
 * numbers only: no object, no lookup by metric per product.
 */
function readColumns(
  entries: readonly SearchEntry[],
  ids: Int32Array,
  sums: SumsTable,
): { values: Float64Array[]; bases: Int32Array[]; pooledAsListed: Map<number, Sums> } {
  const count = ids.length;
  const values = entries.map(() => new Float64Array(count));
  const bases = entries.map(() => new Int32Array(count));
  const pooledAsListed = new Map<number, Sums>();
  entries.forEach((entry, index) => {
    const metricId = entry.metric.id;
    const total = pooledAsListed.has(metricId) ? null : { ...EMPTY_SUMS };
    if (total) pooledAsListed.set(metricId, total);
    const column = { values: values[index]!, bases: bases[index]!, total };
    const source = sums.columnsOf?.(metricId);
    const rule = valueRule(entry.aggregation, entry.metric.kind);
    if (source && rule) readFromColumns(source, ids, rule, column, (id) => sumsOf(sums, id, metricId));
    else readEach(metricSumsReader(sums, metricId), ids, entry, column);
  });
  return { values, bases, pooledAsListed };
}

/** Where one entry's values, bases and (for a metric's first entry) pooled statistics go. */
interface ColumnTarget {
  values: Float64Array;
  bases: Int32Array;
  total: Sums | null;
}

/**
 * What a column's value is computed from, as columnValue computes it (analytics-metrics.ts): a mean
 * (sum / n) or a share (one box count / n), none without answers; null for the other cases (a
 * variance, a yes/no column without a share), which are read through columnValue itself.
 */
export type ValueRule = { mean: true } | { mean: false; box: 1 | 2 | 3 | 4 | 5 };

/** The boxes in the order of a metric's counts (stored-sums.ts): after n, top box down to bottom box. */
const BOX_AT = { nTopBox: 1, nTop2Box: 2, nJustRight: 3, nBottom2Box: 4, nBottomBox: 5 } as const;

/** An entry's value rule (see ValueRule), or null when columnValue is to compute its values. */
export function valueRule(aggregation: Aggregation, kind: SearchMetric['kind']): ValueRule | null {
  // A yes/no metric's share of "selected" or "not selected" answers (yesNoShare), never a mean.
  const field = kind === 'binary' ? yesNoField(aggregation) : boxField(aggregation);
  if (field !== null) return { mean: false, box: BOX_AT[field] };
  return kind !== 'binary' && (aggregation === 'mean' || aggregation === 'eeg_mean') ? { mean: true } : null;
}

/**
 * One entry read from its metric's columns: each product's eight numbers straight from them (the
 * recomputed products through `recomputedOf`), its value by the rule, and the pooled total added
 * product by product in the list's order in local numbers (the same additions as addSumsInto's).
 */
function readFromColumns(
  source: MetricColumns,
  ids: Int32Array,
  rule: ValueRule,
  target: ColumnTarget,
  recomputedOf: (productId: number) => Sums,
): void {
  const { positionOf, counts, totals } = source.columns;
  const { recomputed } = source;
  const box = rule.mean ? 0 : rule.box;
  // One product's counts in the columns' order (n, then top box down to bottom box), exact as doubles.
  const row = new Float64Array(6);
  let n = 0;
  let sum = 0;
  let sumSq = 0;
  // The pooled box counts, at their slots in `row` (slot 0, the answers, is pooled in `n`).
  const boxes = new Float64Array(6);
  for (let at = 0; at < ids.length; at++) {
    const productId = ids[at]!;
    let productSum = 0;
    let productSumSq = 0;
    if (recomputed !== null && recomputed.has(productId)) {
      const found = recomputedOf(productId);
      row[0] = found.n;
      row[1] = found.nTopBox;
      row[2] = found.nTop2Box;
      row[3] = found.nJustRight;
      row[4] = found.nBottom2Box;
      row[5] = found.nBottomBox;
      productSum = found.sum;
      productSumSq = found.sumSq;
    } else {
      const position = positionOf[productId] ?? -1;
      if (position < 0) row.fill(0);
      else {
        for (let slot = 0; slot < 6; slot++) row[slot] = counts[position * 6 + slot]!;
        productSum = totals[position * 2]!;
        productSumSq = totals[position * 2 + 1]!;
      }
    }
    const count = row[0]!;
    n += count;
    sum += productSum;
    sumSq += productSumSq;
    for (let slot = 1; slot < 6; slot++) boxes[slot] = boxes[slot]! + row[slot]!;
    target.values[at] = count === 0 ? Number.NaN : (rule.mean ? productSum : row[box]!) / count;
    target.bases[at] = count;
  }
  if (target.total) {
    const total = target.total;
    total.n = n;
    total.sum = sum;
    total.sumSq = sumSq;
    total.nTopBox = boxes[BOX_AT.nTopBox]!;
    total.nTop2Box = boxes[BOX_AT.nTop2Box]!;
    total.nJustRight = boxes[BOX_AT.nJustRight]!;
    total.nBottom2Box = boxes[BOX_AT.nBottom2Box]!;
    total.nBottomBox = boxes[BOX_AT.nBottomBox]!;
  }
}

/** One entry read product by product through a reader (statistics without columns, any rule). */
function readEach(
  read: (productId: number) => Sums,
  ids: Int32Array,
  entry: SearchEntry,
  target: ColumnTarget,
): void {
  const { aggregation, metric } = entry;
  for (let at = 0; at < ids.length; at++) {
    const productSums = read(ids[at]!);
    if (target.total) addSumsInto(target.total, productSums);
    target.values[at] = columnValue(productSums, aggregation, metric.kind) ?? Number.NaN;
    target.bases[at] = productSums.n;
  }
}

/**
 * The rows as positions in the product list, in the answer's order. Thresholds: an entry's own
 * threshold keeps the products ranking within it (those with a value for it); the entries under the
 * global threshold are ranked jointly (document 3 section 4.2, source All: liking and EEG hedonic
 * together), and the global threshold keeps the first products of that joint ranking, in its order.
 * Without a global threshold the first own one orders them. Without any, every product in the
 * list's order.
 */
function rowOrder(input: SearchAssemblyInput, values: readonly Float64Array[]): Int32Array {
  const { entries, products } = input;
  const count = products.ids.length;
  const idAt = (position: number) => products.ids[position]!;
  const global = input.globalThreshold;
  const own = entries
    .map((entry, index) => ({ index, threshold: entry.threshold }))
    .filter((item): item is { index: number; threshold: Threshold } => item.threshold !== null);
  const joint = global
    ? entries.map((_, index) => index).filter((index) => !own.some((item) => item.index === index))
    : [];
  if (own.length === 0 && !(global && joint.length > 0)) {
    const listed = new Int32Array(count);
    for (let position = 0; position < count; position++) listed[position] = position;
    return listed;
  }
  const valueAt = (index: number, position: number) => {
    const value = values[index]![position]!;
    return Number.isNaN(value) ? null : value;
  };
  let order: number[] = new Array<number>(count);
  for (let position = 0; position < count; position++) order[position] = position;
  const valuesOf = (index: number) =>
    order.map((position) => ({ id: idAt(position), value: valueAt(index, position) }));
  if (own.length > 0) {
    const kept = own.map((item) => ({
      index: item.index,
      ids: applyThreshold(valuesOf(item.index), item.threshold),
    }));
    order = order.filter((position) => {
      const relevant = kept.filter((item) => valueAt(item.index, position) !== null);
      return relevant.length > 0 && relevant.every((item) => item.ids.has(idAt(position)));
    });
  }
  if (global && joint.length > 0) {
    const positionOf = new Map(order.map((position) => [idAt(position), position]));
    order = rankJointly(
      joint.map((index) => valuesOf(index)),
      global,
    ).map((id) => positionOf.get(id)!);
  } else {
    const primary = own[0]!;
    order.sort((left, right) => {
      const a = valueAt(primary.index, left);
      const b = valueAt(primary.index, right);
      if (a === null || b === null) return a === null ? (b === null ? 0 : 1) : -1;
      if (a === b) return idAt(left) - idAt(right);
      return primary.threshold.desc ? b - a : a - b;
    });
  }
  return Int32Array.from(order);
}

/** The rows' positions (product ids are unique in a list) in the list's order. */
function keptPositions(rows: Int32Array, count: number): Int32Array {
  const isKept = new Uint8Array(count);
  for (let row = 0; row < rows.length; row++) isKept[rows[row]!] = 1;
  const kept = new Int32Array(rows.length);
  let at = 0;
  for (let position = 0; position < count; position++) if (isKept[position] === 1) kept[at++] = position;
  return kept;
}

/** Ids (product ids: small positive integers) to test membership of. */
interface IdSet {
  has(id: number): boolean;
}

/**
 * The ids as flags in an array indexed by id: a search of every fragrance tests tens of thousands
 * of products, cheaper than filling a Set with them.
 */
function idSet(ids: Int32Array): IdSet {
  let max = -1;
  for (const id of ids) if (id > max) max = id;
  const flags = new Uint8Array(max + 1);
  for (const id of ids) if (id >= 0) flags[id] = 1;
  return { has: (id) => flags[id] === 1 };
}

/** Whether a metric is expected in a study of the given kind (EEG in EEG studies, implicit in IRT). */
const expectedIn = (metric: SearchMetric, rdfType: ProductRecord['rdfType']) =>
  metric.kind === 'eeg' ? rdfType === 'eeg' : metric.kind === 'implicit' ? rdfType === 'irt' : true;

/** One study's lines of diagnostics. */
type Detail = Diagnostics['studies'][number]['details'][number];

/**
 * Per study of the result: errors (answers outside the question's scale, left out of every number),
 * warnings (a chosen metric the study should have but no question is mapped to) and infos (low
 * bases, below 30 answers).
 */
function diagnose(
  input: SearchAssemblyInput,
  kept: Int32Array,
  keptIds: Int32Array,
  basesOf: ReadonlyMap<number, Int32Array>,
): Diagnostics {
  const { products } = input;
  const found = studiesOf(products.studyIds, kept);
  const details = new Map<number, Detail[]>();
  const note = (studyId: number, entry: Detail) => {
    const lines = details.get(studyId);
    if (lines) lines.push(entry);
    else details.set(studyId, [entry]);
  };
  noteOutOfScale(input.outOfScale, keptIds, note);
  noteMissingMappings(input, found, note);
  for (const entry of lowBasesOf(input, kept, basesOf))
    note(entry.studyId, {
      level: 'info',
      message: ANALYTICS_MESSAGES.lowBase(entry.metric, entry.count, entry.min, entry.max),
      file: null,
    });
  // By C-MI number (its rank: the order of localeCompare, taken once per list), named by the
  // study's last kept product.
  const cMiOf = (studyId: number) => products.cMiAt[found.lastOf[studyId]!]!;
  const studies = [...details.entries()]
    .map(([studyId, entries]) => ({ studyId, cMi: cMiOf(studyId), entries }))
    .sort((left, right) => products.cMiRanks[left.cMi]! - products.cMiRanks[right.cMi]!)
    .map(({ studyId, cMi, entries }) => ({
      study_id: studyId,
      c_mi_number: cMiNumberOf(products, cMi),
      errors: entries.filter((entry) => entry.level === 'error').length,
      warnings: entries.filter((entry) => entry.level === 'warning').length,
      infos: entries.filter((entry) => entry.level === 'info').length,
      details: entries,
    }));
  return {
    studies_found: found.ids.length,
    studies_with_anomalies: studies.filter((study) => study.errors + study.warnings > 0).length,
    studies,
  };
}

/** The studies of the kept products, in the order they are first met, and each one's last kept product. */
interface StudiesFound {
  ids: Int32Array;
  /** By study id, the position in the list of its last kept product (-1: none kept). */
  lastOf: Int32Array;
}

/** The studies found (see StudiesFound): arrays by study id, not a map entry set per product. */
function studiesOf(studyIds: Int32Array, kept: Int32Array): StudiesFound {
  let maxStudy = -1;
  for (let at = 0; at < kept.length; at++) {
    const studyId = studyIds[kept[at]!]!;
    if (studyId > maxStudy) maxStudy = studyId;
  }
  const lastOf = new Int32Array(maxStudy + 1).fill(-1);
  const ids = new Int32Array(kept.length);
  let count = 0;
  for (let at = 0; at < kept.length; at++) {
    const position = kept[at]!;
    const studyId = studyIds[position]!;
    if (lastOf[studyId] === -1) ids[count++] = studyId;
    lastOf[studyId] = position;
  }
  return { ids: ids.slice(0, count), lastOf };
}

/** Errors: per study, file and question of the kept products, the answers outside the scale. */
function noteOutOfScale(
  outOfScale: readonly OutOfScaleRow[],
  keptIds: Int32Array,
  note: (studyId: number, entry: Detail) => void,
): void {
  // Most searches meet no out-of-scale answer: the kept ids' flags are made only to test some.
  if (outOfScale.length === 0) return;
  const keptSet = idSet(keptIds);
  const byQuestion = new Map<string, { studyId: number; qid: string; filename: string; count: number }>();
  for (const row of outOfScale) {
    if (!keptSet.has(row.productId)) continue;
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
}

/**
 * Warnings: per study found (in the order met) and chosen metric it should have (by the kind of its
 * last kept product), none when no question of the study is mapped to the metric.
 */
function noteMissingMappings(
  input: SearchAssemblyInput,
  found: StudiesFound,
  note: (studyId: number, entry: Detail) => void,
): void {
  const { products, metrics: metricList, mapped } = input;
  // Per metric, its mapped studies flagged by study id (of the studies found: the others are not read).
  const indexOf = new Map(metricList.map((metric, index) => [metric.id, index]));
  const mappedIn = metricList.map(() => new Uint8Array(found.lastOf.length));
  for (let at = 0; at < mapped.length; at += 2) {
    const index = indexOf.get(mapped[at + 1]!);
    if (index !== undefined && mapped[at]! < found.lastOf.length) mappedIn[index]![mapped[at]!] = 1;
  }
  for (const studyId of found.ids) {
    const rdfType = RDF_TYPES[products.rdfTypes[found.lastOf[studyId]!]!]!;
    metricList.forEach((metric, index) => {
      if (expectedIn(metric, rdfType) && mappedIn[index]![studyId] !== 1)
        note(studyId, {
          level: 'warning',
          message: ANALYTICS_MESSAGES.missingMapping(metric.name),
          file: null,
        });
    });
  }
}

/**
 * Per study and metric with low bases (below LOW_BASE answers, none excluded) among the kept
 * products, how many and the smallest and largest, in the order products and then metrics meet them
 * (the order of the infos). The bases are the columns' (a metric without a column is read).
 */
function lowBasesOf(
  input: SearchAssemblyInput,
  kept: Int32Array,
  basesOf: ReadonlyMap<number, Int32Array>,
): Iterable<{ studyId: number; metric: string; count: number; min: number; max: number }> {
  const { products, metrics: metricList } = input;
  const lowBases = new Map<
    number,
    { studyId: number; metric: string; count: number; min: number; max: number }
  >();
  const columnsOf = metricList.map((metric) => basesOf.get(metric.id));
  const readers = metricList.map((metric, index) =>
    columnsOf[index] ? null : metricSumsReader(input.sums, metric.id),
  );
  for (let at = 0; at < kept.length; at++) {
    const position = kept[at]!;
    const studyId = products.studyIds[position]!;
    for (let index = 0; index < metricList.length; index++) {
      const metric = metricList[index]!;
      const column = columnsOf[index];
      const n = column ? column[position]! : readers[index]!(products.ids[position]!).n;
      if (n === 0 || n >= LOW_BASE) continue;
      const key = sumsKey(studyId, metric.id);
      const entry = lowBases.get(key);
      if (!entry) lowBases.set(key, { studyId, metric: metric.name, count: 1, min: n, max: n });
      else {
        entry.count++;
        if (n < entry.min) entry.min = n;
        if (n > entry.max) entry.max = n;
      }
    }
  }
  return lowBases.values();
}
