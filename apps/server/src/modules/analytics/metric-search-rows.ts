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
import { poolSums, sumsKey, sumsReader, type SumsTable } from './analytics-context.ts';
import {
  addSumsInto,
  applyThreshold,
  columnValue,
  EMPTY_SUMS,
  rankJointly,
  summarise,
  type Sums,
} from './analytics-metrics.ts';
import type { MetricRecord, OutOfScaleRow, ProductRecord } from './analytics-types.ts';

const RDF_TYPES = ['rdf', 'eeg', 'irt'] as const satisfies readonly ProductRecord['rdfType'][];

/** The products of a search as the assembly reads them (positions as in the product list). */
export interface SearchProducts {
  ids: Int32Array;
  studyIds: Int32Array;
  /** Per product, its C-MI number as a position in `cMiNumbers`. */
  cMiAt: Int32Array;
  cMiNumbers: string[];
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
  const packed = { ids, studyIds, cMiAt, cMiNumbers, rdfTypes };
  packedLists.set(list, packed);
  return packed;
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
  const idAt = (position: number) => products.ids[position]!;

  // Values and bases in columns (NaN: no value), rows as positions in the product list. Loops over
  // every product write numbers only: no object, no iterator per product.
  const values = columns.map(() => new Float64Array(count));
  const bases = columns.map(() => new Int32Array(count));
  let order: number[] = new Array<number>(count);
  for (let position = 0; position < count; position++) order[position] = position;
  const read = sumsReader(sums);
  // Each metric's statistics pooled over every product in the list's order, as they are read: the
  // summary when every product is a row in that order (no threshold), added in the same order as
  // poolSums adds them, so not read a second time.
  const pooledAsListed = new Map<number, Sums>();
  entries.forEach((entry, index) => {
    const columnValues = values[index]!;
    const columnBases = bases[index]!;
    const total = pooledAsListed.has(entry.metric.id) ? null : { ...EMPTY_SUMS };
    if (total) pooledAsListed.set(entry.metric.id, total);
    for (let position = 0; position < count; position++) {
      const productSums = read(idAt(position), entry.metric.id);
      if (total) addSumsInto(total, productSums);
      columnValues[position] = columnValue(productSums, entry.aggregation, entry.metric.kind) ?? Number.NaN;
      columnBases[position] = productSums.n;
    }
  });
  const valueAt = (index: number, position: number) => {
    const value = values[index]![position]!;
    return Number.isNaN(value) ? null : value;
  };

  // Thresholds: an entry's own threshold keeps the products ranking within it (those with a value
  // for it); the entries under the global threshold are ranked jointly (document 3 section 4.2,
  // source All: liking and EEG hedonic together), and the global threshold keeps the first products
  // of that joint ranking, in its order. Without a global threshold the first own one orders them.
  const global = input.globalThreshold;
  const own = entries
    .map((entry, index) => ({ index, threshold: entry.threshold }))
    .filter((item): item is { index: number; threshold: Threshold } => item.threshold !== null);
  const joint = global
    ? entries.map((_, index) => index).filter((index) => !own.some((item) => item.index === index))
    : [];
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
  } else if (own.length > 0) {
    const primary = own[0]!;
    order.sort((left, right) => {
      const a = valueAt(primary.index, left);
      const b = valueAt(primary.index, right);
      if (a === null || b === null) return a === null ? (b === null ? 0 : 1) : -1;
      if (a === b) return idAt(left) - idAt(right);
      return primary.threshold.desc ? b - a : a - b;
    });
  }
  const rows = new Int32Array(order.length);
  const keptIds = new Int32Array(order.length);
  for (let row = 0; row < order.length; row++) {
    rows[row] = order[row]!;
    keptIds[row] = idAt(order[row]!);
  }

  let asListed = rows.length === count;
  for (let row = 0; asListed && row < rows.length; row++) asListed = rows[row] === row;
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
    diagnostics: diagnose(input, idSet(keptIds), rows, basesOf),
    filtered: input.filtered,
  };
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

/**
 * Per study of the result: errors (answers outside the question's scale, left out of every number),
 * warnings (a chosen metric the study should have but no question is mapped to) and infos (low
 * bases, below 30 answers).
 */
function diagnose(
  input: SearchAssemblyInput,
  keptIds: IdSet,
  rows: Int32Array,
  basesOf: ReadonlyMap<number, Int32Array>,
): Diagnostics {
  const { products, metrics: metricList, mapped, outOfScale } = input;
  const read = sumsReader(input.sums);
  const count = products.ids.length;
  // The kept products (the rows' positions: product ids are unique in a list) in the list's order.
  const isKept = new Uint8Array(count);
  for (let row = 0; row < rows.length; row++) isKept[rows[row]!] = 1;
  const kept: number[] = [];
  for (let position = 0; position < count; position++) if (isKept[position] === 1) kept.push(position);
  // Per study found, its last kept product (which names its C-MI number and kind), in the order
  // the studies are first met: arrays by study id, not a map entry set per product.
  let maxStudy = -1;
  for (const position of kept) maxStudy = Math.max(maxStudy, products.studyIds[position]!);
  const lastOfStudy = new Int32Array(maxStudy + 1).fill(-1);
  const studyOrder: number[] = [];
  for (const position of kept) {
    const studyId = products.studyIds[position]!;
    if (lastOfStudy[studyId] === -1) studyOrder.push(studyId);
    lastOfStudy[studyId] = position;
  }
  const studiesFound = new Map<number, { cMiNumber: string; rdfType: ProductRecord['rdfType'] }>();
  for (const studyId of studyOrder) {
    const position = lastOfStudy[studyId]!;
    studiesFound.set(studyId, {
      cMiNumber: products.cMiNumbers[products.cMiAt[position]!]!,
      rdfType: RDF_TYPES[products.rdfTypes[position]!]!,
    });
  }
  // Pairs of study and metric as numbers (sumsKey), cheaper than text keys over every product.
  const mappedSet = new Set<number>();
  for (let at = 0; at < mapped.length; at += 2) mappedSet.add(sumsKey(mapped[at]!, mapped[at + 1]!));
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
  // Entries made in the order products and then metrics meet them (the order of the infos).
  const columnsOf = metricList.map((metric) => basesOf.get(metric.id));
  for (const position of kept) {
    const studyId = products.studyIds[position]!;
    for (let index = 0; index < metricList.length; index++) {
      const metric = metricList[index]!;
      const column = columnsOf[index];
      const n = column ? column[position]! : read(products.ids[position]!, metric.id).n;
      if (n === 0 || n >= LOW_BASE) continue;
      const key = sumsKey(studyId, metric.id);
      let entry = lowBases.get(key);
      if (!entry) lowBases.set(key, (entry = { studyId, metric: metric.name, bases: [] }));
      entry.bases.push(n);
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
