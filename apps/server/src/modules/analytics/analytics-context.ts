/**
 * What the analytics jobs share: the metric catalogue, the data's fingerprint, the caller's scope,
 * the product lists, the checks of a request's filters and metrics, and the sufficient statistics of
 * products per metric (stored, recomputed without out-of-scale answers, or summed under respondent
 * filters from the demographic tables or the answers), each kept in memory while the data is
 * unchanged. One context serves every job file of the module (metric-search.ts, significance.ts,
 * top-attributes.ts, tendencies.ts, analytics-options.ts).
 */
import {
  AGGREGATIONS_BY_METRIC_KIND,
  ANALYTICS_MESSAGES,
  isClientScopedRole,
  type Aggregation,
  type ParsedAnalyticsQuery,
  type ParsedStudySearchQuery,
} from '@accord/contracts';
import { studyScope } from '../../lib/client-scope.ts';
import { errors } from '../../lib/errors.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import type { FieldsRepository } from '../fields/fields.repository.ts';
import { compileFilters, s, type CompiledFilters } from '../search/search-filters.ts';
import { createFingerprintCache } from './analytics-cache.ts';
import { EMPTY_SUMS, addSumsInto, type Sums } from './analytics-metrics.ts';
import type { MetricRecord, MetricSums, OutOfScaleRow, ProductRecord } from './analytics-types.ts';
import type { AnalyticsRepository, ProductSelection, RespondentConditions } from './analytics.repository.ts';
import {
  demographicSearchSums,
  demographicTableBuilder,
  type DemographicSumsSource,
  type DemographicTable,
} from './demographic-table.ts';
import { storedSumsOf as storedSumsColumns, type StoredSums, type SumsColumns } from './stored-sums.ts';
import type { RespondentCells as ColumnCells } from './respondent-cells.ts';
import { countKeptRespondents, indexSums } from './index-sums.ts';
import { respondentIndexBuilder, type RespondentIndex } from './respondent-index.ts';
import { respondentSumsOf } from './respondent-sums.ts';
import {
  EVERY_RESPONDENT,
  keptRespondentIds,
  respondentTraitsBuilder,
  type RespondentMatcher,
  type RespondentTraits,
} from './respondent-traits.ts';

/** Product lists kept (one per distinct selection of filters, scope and study kind). */
const PRODUCT_LISTS = 16;
/** Metrics whose stored statistics are kept in memory (about 1.5 MB each at 24,000 products). */
const STORED_SUMS_METRICS = 40;
/**
 * Metrics whose demographic statistics are kept in memory for gender and age filters (about 50 MB
 * each at 21,600 products: 1.1 million rows, one per product, gender and year of age): the three
 * a group comparison reads (the warm-up loads the metrics of most products, which are those), within
 * the memory a server of 1 GB can give.
 */
export const DEMOGRAPHIC_TABLES = 3;
/**
 * Metrics whose respondents per product and answers are kept in memory (respondent-index.ts), for
 * counting a group comparison's respondent bases and for the clustered significance tests of
 * Calculate: 5 bytes an answer (its respondent and its value's one-byte code), 17.4 MB for liking at
 * 24,000 products (3.4 million answers; 12 bytes an answer for EEG scores, whose values are too many
 * to code). The three a group comparison reads (the warm-up loads them) and two more, within
 * RESPONDENT_INDEX_BYTES.
 */
export const RESPONDENT_INDEXES = 5;
const RESPONDENT_INDEX_BYTES = 100 * 1024 * 1024;
/** How long a filtered search waits for a demographic table being read before it asks the database. */
const DEMOGRAPHIC_LOAD_WAIT_MS = 100;

/**
 * The part of the data's fingerprint ("table:version|...") the answers and their statistics follow:
 * they are written with their products and moved between metrics with their questions.
 */
const answersPart = (fingerprint: string) =>
  fingerprint
    .split('|')
    .filter((part) => part.startsWith('products:') || part.startsWith('questions:'))
    .join('|');

/** A promise's value if it settles within `ms`, else null (the work goes on for later callers). */
async function within<T>(work: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<null>((resolve) => {
    timer = setTimeout(resolve, ms, null);
  });
  try {
    return await Promise.race([work, waited]);
  } finally {
    clearTimeout(timer);
  }
}

/** The study filters of an analytics query, as the study search compiles them. */
export function studyFiltersOf(query: ParsedAnalyticsQuery): ParsedStudySearchQuery {
  const { essentials, fragranceDetails, conceptDetails, methodology } = query;
  return { essentials, fragranceDetails, conceptDetails, methodology };
}

/** One number per product and metric (metric ids are smallints): cheaper map keys than texts. */
export const sumsKey = (productId: number, metricId: number) => productId * 65536 + metricId;

/**
 * Statistics per sumsKey: a map, or a view over the stored statistics kept per metric, which also
 * writes them straight into packed statistics (copyTo, see StoredSums).
 */
export type SumsTable = Pick<Map<number, Sums>, 'get'> & {
  copyTo?(productId: number, metricId: number, target: Float64Array, at: number): boolean;
  /**
   * Sums under a gender and age filter not taken yet: the demographic tables and kept cells they
   * come from and the products wanted. A search assembled in a worker thread takes them there.
   */
  demographic?: { source: DemographicSumsSource; wanted: readonly number[] };
  /**
   * Stored statistics read from their columns (shared memory) and the products recomputed before
   * them: a search assembled in a worker thread hands the columns over as they are (handSums).
   */
  stored?: { byMetric: ReadonlyMap<number, StoredSums>; map?: ReadonlyMap<number, Sums> };
  /**
   * A metric's statistics as columns, where the table keeps them so (stored or summed under a
   * filter): metricSumsReader reads them there, no lookup by metric per product.
   */
  columnsOf?(metricId: number): MetricColumns | null;
};

/**
 * One metric's statistics in columns (a product outside them has none) and the products whose
 * statistics the table holds elsewhere (recomputed without out-of-scale answers), read by `get`.
 */
export interface MetricColumns {
  columns: SumsColumns;
  recomputed: ReadonlySet<number> | null;
}

/** The statistics of one product and metric (none: empty). */
export function sumsOf(map: SumsTable, productId: number, metricId: number): Sums {
  return map.get(sumsKey(productId, metricId)) ?? EMPTY_SUMS;
}

/**
 * A reader of statistics that makes no object per product: each read is written into one object it
 * reuses (from the table's columns where it has them), valid until the next read. For loops over
 * every product of a search; the numbers are sumsOf's.
 */
export function sumsReader(map: SumsTable): (productId: number, metricId: number) => Sums {
  const copyTo = map.copyTo;
  if (!copyTo) return (productId, metricId) => sumsOf(map, productId, metricId);
  const scratch = new Float64Array(8);
  const into: Sums = { ...EMPTY_SUMS };
  return (productId, metricId) => {
    if (!copyTo.call(map, productId, metricId, scratch, 0)) return sumsOf(map, productId, metricId);
    into.n = scratch[0]!;
    into.sum = scratch[1]!;
    into.sumSq = scratch[2]!;
    into.nTopBox = scratch[3]!;
    into.nTop2Box = scratch[4]!;
    into.nJustRight = scratch[5]!;
    into.nBottom2Box = scratch[6]!;
    into.nBottomBox = scratch[7]!;
    return into;
  };
}

/**
 * A reader of one metric's statistics by product id, resolved once for a loop over every product
 * of a search: straight from the metric's columns where the table has them (no map lookup, no
 * closure chain per product), into one object it reuses, valid until the next read. The numbers
 * are sumsOf's.
 */
export function metricSumsReader(map: SumsTable, metricId: number): (productId: number) => Sums {
  const source = map.columnsOf?.(metricId);
  if (!source) {
    const read = sumsReader(map);
    return (productId) => read(productId, metricId);
  }
  const { positionOf, counts, totals } = source.columns;
  const recomputed = source.recomputed;
  const into: Sums = { ...EMPTY_SUMS };
  return (productId) => {
    if (recomputed?.has(productId)) return sumsOf(map, productId, metricId);
    const position = positionOf[productId] ?? -1;
    if (position < 0) return EMPTY_SUMS;
    // The fields in copyColumns' order (stored-sums.ts): 6 counts and 2 totals a position.
    const count = position * 6;
    into.n = counts[count]!;
    into.sum = totals[position * 2]!;
    into.sumSq = totals[position * 2 + 1]!;
    into.nTopBox = counts[count + 1]!;
    into.nTop2Box = counts[count + 2]!;
    into.nJustRight = counts[count + 3]!;
    into.nBottom2Box = counts[count + 4]!;
    into.nBottomBox = counts[count + 5]!;
    return into;
  };
}

export /** A metric's statistics pooled over products (added into one total: tens of thousands of products). */
function poolSums(map: SumsTable, productIds: Iterable<number>, metricId: number): Sums {
  const total: Sums = { ...EMPTY_SUMS };
  const read = metricSumsReader(map, metricId);
  for (const productId of productIds) addSumsInto(total, read(productId));
  return total;
}

/**
 * Statistics per sumsKey read from columns per metric (stored or summed under a filter), before them
 * the products recomputed in `map`: no object per product is made until a row asks for it.
 */
export function sumsView(
  byMetric: ReadonlyMap<number, StoredSums>,
  map?: ReadonlyMap<number, Sums>,
): SumsTable {
  // The recomputed products per metric (ids are small integers; a sumsKey of a large id is not, and
  // looking one up for every product of a search cost more than copying its statistics).
  const recomputedOf = new Map<number, Set<number>>();
  for (const key of map?.keys() ?? []) {
    const metricId = key % 65536;
    let products = recomputedOf.get(metricId);
    if (!products) recomputedOf.set(metricId, (products = new Set()));
    products.add((key - metricId) / 65536);
  }
  return {
    stored: { byMetric, ...(map ? { map } : {}) },
    get(key) {
      const recomputed = map?.get(key);
      if (recomputed) return recomputed;
      const metricId = key % 65536;
      return byMetric.get(metricId)?.get((key - metricId) / 65536);
    },
    copyTo(productId, metricId, target, at) {
      if (recomputedOf.get(metricId)?.has(productId)) return false;
      return byMetric.get(metricId)?.copyTo(productId, target, at) ?? false;
    },
    columnsOf(metricId) {
      const stored = byMetric.get(metricId);
      return stored ? { columns: stored.columns, recomputed: recomputedOf.get(metricId) ?? null } : null;
    },
  };
}

/**
 * Each id's position in a list of product ids (-1: not in it), kept while the list lives (lists are
 * shared with the product-list cache): a search of every fragrance asks which of a few products it
 * holds, not each of its tens of thousands whether it is one of them.
 */
const listPositions = new WeakMap<readonly number[], Int32Array>();
function positionsIn(ids: readonly number[]): Int32Array {
  let positions = listPositions.get(ids);
  if (positions) return positions;
  let max = -1;
  for (const id of ids) if (id > max) max = id;
  positions = new Int32Array(max + 1).fill(-1);
  // The first position of an id, as a filter in the list's order meets it.
  for (let at = ids.length - 1; at >= 0; at--) positions[ids[at]!] = at;
  listPositions.set(ids, positions);
  return positions;
}

/** The ids of `some` that the list holds, once each, in the list's order. */
function heldIn(ids: readonly number[], some: Iterable<number>): number[] {
  const positions = positionsIn(ids);
  const held = new Set<number>();
  for (const id of some) if (id >= 0 && (positions[id] ?? -1) >= 0) held.add(id);
  return [...held].sort((left, right) => positions[left]! - positions[right]!);
}

/** The shared pieces of the analytics jobs over one repository (see the module note). */
export function createAnalyticsContext(deps: { analytics: AnalyticsRepository; fields: FieldsRepository }) {
  const { analytics, fields } = deps;
  let catalogue: Promise<MetricRecord[]> | null = null;
  const metricCatalogue = () => {
    catalogue ??= analytics.metrics().catch((error: unknown) => {
      catalogue = null;
      throw error;
    });
    return catalogue;
  };
  /**
   * The data's fingerprint for every cache of the service. Reads asked for in one turn share one
   * query (db/data-versions.ts), and a read never joins one already sent, so a request always sees
   * every write committed before it arrived.
   */
  const fingerprint = () => analytics.fingerprint();
  const scopeOf = (user: AuthUser) => studyScope(user, s.client);
  /** What limits a user's studies, as a cache key part (staff all see the same). */
  const scopeKey = (user: AuthUser) => (isClientScopedRole(user.roleId) ? [...user.clients].sort() : null);

  /**
   * The products a selection holds, kept per selection while the data is unchanged: the list (with
   * its study filters, client scope and study details) is read once, not at every search.
   */
  const productCache = createFingerprintCache<ProductRecord[]>(PRODUCT_LISTS);
  function productsOf(
    user: AuthUser,
    filters: unknown,
    selection: Omit<ProductSelection, 'scope'>,
    fingerprintNow: string,
  ): Promise<ProductRecord[]> {
    const key = JSON.stringify({
      filters,
      scope: scopeKey(user),
      kind: selection.kind,
      rdfType: selection.rdfType,
      productIds: selection.productIds ?? null,
    });
    return productCache.get(key, fingerprintNow, () =>
      analytics.products({ ...selection, scope: scopeOf(user) }),
    );
  }

  /** Compiles the study filters after checking the caller may use them (as the study search does). */
  function compileFor(user: AuthUser, query: ParsedStudySearchQuery): CompiledFilters {
    const compiled = compileFilters(query);
    if (!user.permissions.isAdmin) {
      if (compiled.concept.length > 0) throw errors.forbidden(ANALYTICS_MESSAGES.conceptFiltersAdminOnly);
      if (!query.essentials.verified) throw errors.forbidden(ANALYTICS_MESSAGES.notVerifiedAdminOnly);
    }
    return compiled;
  }

  /** The catalogue metric of each entry, refusing unknown metrics and aggregations they do not offer. */
  async function resolveMetrics(
    entries: readonly { metric: string; aggregation: Aggregation }[],
    path: string,
  ): Promise<MetricRecord[]> {
    const known = await metricCatalogue();
    return entries.map((entry, index) => {
      const metric = known.find((candidate) => candidate.name === entry.metric);
      if (!metric) {
        const message = ANALYTICS_MESSAGES.unknownMetric(entry.metric);
        throw errors.badRequest(message, [{ path: `${path}.${index}.metric`, message }]);
      }
      if (!AGGREGATIONS_BY_METRIC_KIND[metric.kind].includes(entry.aggregation)) {
        const message = ANALYTICS_MESSAGES.aggregationNotOffered(entry.aggregation, entry.metric);
        throw errors.badRequest(message, [{ path: `${path}.${index}.aggregation`, message }]);
      }
      return metric;
    });
  }

  /**
   * Answers outside their question's scale for the metrics, of the given products. The scan reads
   * every answer of a metric, so its outcome is kept per metric while the data is unchanged.
   */
  const anomalyCache = createFingerprintCache<OutOfScaleRow[]>(200);
  async function outOfScaleAnswers(
    productIds: number[],
    metricList: MetricRecord[],
    fingerprintNow: string,
  ): Promise<OutOfScaleRow[]> {
    const perMetric = await Promise.all(
      metricList
        .filter((metric) => metric.kind !== 'eeg')
        .map((metric) =>
          anomalyCache.get(String(metric.id), fingerprintNow, () => analytics.outOfScale(metric.id)),
        ),
    );
    const rows = perMetric.flat();
    // Most metrics have none, the others a few products: the set made is of those products that
    // the search holds, not of every product of the search.
    if (rows.length === 0) return rows;
    const wanted = new Set(
      heldIn(
        productIds,
        rows.map((row) => row.productId),
      ),
    );
    return rows.filter((row) => wanted.has(row.productId));
  }

  /**
   * Studies with a question mapped to each metric as pairs of study and metric id, one after the
   * other, kept while the data is unchanged (on shared memory: a search assembled in a worker thread
   * reads them there).
   */
  const mappingCache = createFingerprintCache<Int32Array>(200);
  async function mappedPairs(metricList: MetricRecord[], fingerprintNow: string): Promise<Int32Array> {
    const perMetric = await Promise.all(
      metricList.map((metric) =>
        mappingCache.get(String(metric.id), fingerprintNow, async () => {
          const studyIds = await analytics.studiesMappedTo(metric.id);
          const pairs = new Int32Array(new SharedArrayBuffer(studyIds.length * 8));
          studyIds.forEach((studyId, at) => {
            pairs[at * 2] = studyId;
            pairs[at * 2 + 1] = metric.id;
          });
          return pairs;
        }),
      ),
    );
    if (perMetric.length === 1) return perMetric[0]!;
    const all = new Int32Array(
      new SharedArrayBuffer(perMetric.reduce((bytes, pairs) => bytes + pairs.byteLength, 0)),
    );
    let at = 0;
    for (const pairs of perMetric) {
      all.set(pairs, at);
      at += pairs.length;
    }
    return all;
  }

  /**
   * The stored statistics of every product of a metric, by product id, kept while the data is
   * unchanged: a search of every fragrance then reads no statistics row at all.
   */
  const storedSumsCache = createFingerprintCache<StoredSums>(STORED_SUMS_METRICS);
  const storedSumsOf = (metricId: number, fingerprintNow: string) =>
    storedSumsCache.get(String(metricId), fingerprintNow, async () =>
      storedSumsColumns(metricId, await analytics.metricStoredSums(metricId)),
    );

  /**
   * The demographic statistics of a metric, kept while the answers are unchanged: a gender and age
   * filter over every product is then summed in memory. The answers and their statistics change only
   * with products (uploads, replacements, removals) and questions (mappings), so edits of study
   * details keep the tables.
   */
  const demographicTables = createFingerprintCache<DemographicTable>(DEMOGRAPHIC_TABLES);
  const demographicTableOf = (metricId: number, eeg: boolean, fingerprintNow: string) =>
    demographicTables.get(`${metricId}:${eeg}`, answersPart(fingerprintNow), async () => {
      const builder = demographicTableBuilder(metricId);
      await analytics.demographicRows(metricId, eeg, (chunk) => builder.add(chunk));
      return builder.finish();
    });

  /**
   * The demographic tables of the metrics when they are loaded, else null. Reading a table takes
   * seconds at library scale (a million rows a metric) and happens after each change of products or
   * questions: a search does not wait for it beyond DEMOGRAPHIC_LOAD_WAIT_MS but is answered from the
   * database meanwhile, as before the tables, while the load goes on for the searches after it.
   */
  async function loadedDemographicTables(
    metricIds: readonly number[],
    eegIds: readonly number[],
    fingerprintNow: string,
  ): Promise<DemographicTable[] | null> {
    const loading = Promise.all(
      metricIds.map((metricId) => demographicTableOf(metricId, eegIds.includes(metricId), fingerprintNow)),
    ).catch((error: unknown) => {
      console.error(`Demographic statistics could not be loaded: ${(error as Error).message}`);
      return null;
    });
    return within(loading, DEMOGRAPHIC_LOAD_WAIT_MS);
  }

  /** Each product's respondents of a metric, kept while the answers are unchanged. */
  const respondentIndexes = createFingerprintCache<RespondentIndex>(RESPONDENT_INDEXES, {
    weigh: (index) => index.bytes,
    max: RESPONDENT_INDEX_BYTES,
  });
  const respondentIndexOf = (metricId: number, eeg: boolean, fingerprintNow: string) =>
    respondentIndexes.get(`${metricId}:${eeg}`, answersPart(fingerprintNow), async () => {
      const builder = respondentIndexBuilder(metricId);
      await analytics.respondentLists(metricId, eeg, (chunk) => builder.add(chunk));
      return builder.finish();
    });
  /**
   * Every respondent's gender, age, ethnicity, social class and BUMO (respondent-traits.ts), kept
   * while the answers are unchanged: respondents are written with their study's results, which write
   * its questions and products too.
   */
  const respondentTraits = createFingerprintCache<RespondentTraits>(1);
  const respondentTraitsNow = (fingerprintNow: string) =>
    respondentTraits.get('all', answersPart(fingerprintNow), async () => {
      const builder = respondentTraitsBuilder();
      await analytics.respondentTraits((chunk) => builder.add(chunk));
      return builder.finish();
    });

  /**
   * Reads the respondents and answers of the metrics into memory (the warm-up), unless they are
   * there; answers the bytes their indexes hold.
   */
  async function loadRespondents(
    metricList: readonly MetricRecord[],
    fingerprintNow: string,
  ): Promise<number> {
    const [indexes] = await Promise.all([
      Promise.all(
        metricList
          .slice(0, RESPONDENT_INDEXES)
          .map((metric) => respondentIndexOf(metric.id, metric.kind === 'eeg', fingerprintNow)),
      ),
      respondentTraitsNow(fingerprintNow),
    ]);
    return indexes.reduce((total, index) => total + index.bytes, 0);
  }

  /**
   * Distinct respondents behind the products' answers to the metrics (in scale) whom the filter
   * keeps: per metric id and for any of them (key null). Counted in memory when the metrics fit the
   * kept indexes (the filter's matcher applied to the respondents' traits); otherwise, and while an
   * index is still being read (beyond DEMOGRAPHIC_LOAD_WAIT_MS), counted by the database.
   */
  async function respondentCounts(
    productIds: readonly number[],
    metricList: readonly MetricRecord[],
    respondentFilter: RespondentConditions,
    fingerprintNow: string,
  ): Promise<Map<number | null, number>> {
    const metricIds = [...new Set(metricList.map((metric) => metric.id))];
    const eegIds = metricList.filter((metric) => metric.kind === 'eeg').map((metric) => metric.id);
    const matcher = respondentFilter.length > 0 ? respondentFilter.matcher : EVERY_RESPONDENT;
    if (productIds.length > 0 && metricIds.length <= RESPONDENT_INDEXES && matcher) {
      const loaded = await loadedIndexes(metricIds, eegIds, true, fingerprintNow);
      if (loaded) return countKeptRespondents(loaded[0], productIds, keptRespondentIds(loaded[1]!, matcher));
    }
    return analytics.respondentCounts(productIds, metricIds, eegIds, respondentFilter);
  }

  /**
   * The respondent indexes of the metrics and, when asked, every respondent's traits, once both are
   * in memory within DEMOGRAPHIC_LOAD_WAIT_MS; null while they are still being read (the read goes on
   * for the calls after it) or when they could not be read: the caller then asks the database.
   */
  async function loadedIndexes(
    metricIds: readonly number[],
    eegIds: readonly number[],
    withTraits: boolean,
    fingerprintNow: string,
  ) {
    const loading = Promise.all([
      Promise.all(
        metricIds.map((metricId) => respondentIndexOf(metricId, eegIds.includes(metricId), fingerprintNow)),
      ),
      withTraits ? respondentTraitsNow(fingerprintNow) : null,
    ]).catch((error: unknown) => {
      console.error(`Respondents could not be loaded: ${(error as Error).message}`);
      return null;
    });
    return within(loading, DEMOGRAPHIC_LOAD_WAIT_MS);
  }

  /**
   * Each respondent's sums per product of the list for the metrics (in scale, EEG scores all), under
   * the respondent filter, read from the respondent indexes: what the clustered significance tests
   * take, the same cells as the grouped read of the answers (analytics.respondentCells). Null when
   * they cannot come from memory: a filter without matcher, more metrics than the indexes kept, or
   * an index still being read beyond DEMOGRAPHIC_LOAD_WAIT_MS (seconds at library scale,
   * after a start or a change of products or questions: the caller then asks the database, while
   * the read goes on for the calls after it).
   */
  async function respondentSums(
    productIds: readonly number[],
    metricList: readonly MetricRecord[],
    respondentFilter: RespondentConditions,
    fingerprintNow: string,
  ): Promise<Map<number, ColumnCells> | null> {
    const loaded = await respondentIndexesFor(metricList, respondentFilter, fingerprintNow);
    if (!loaded) return null;
    return new Map(
      loaded.indexes.map((index) => [index.metricId, respondentSumsOf(index, productIds, loaded.keep)]),
    );
  }

  /**
   * The respondent indexes of the metrics and whom the respondent filter keeps (null: everybody),
   * when respondentSums can read them: null as there.
   */
  async function respondentIndexesFor(
    metricList: readonly MetricRecord[],
    respondentFilter: RespondentConditions,
    fingerprintNow: string,
  ): Promise<{ indexes: RespondentIndex[]; keep: ((respondentId: number) => boolean) | null } | null> {
    const metrics = [...new Map(metricList.map((metric) => [metric.id, metric])).values()];
    const matcher = respondentFilter.length > 0 ? respondentFilter.matcher : null;
    if (metrics.length > RESPONDENT_INDEXES || (respondentFilter.length > 0 && !matcher)) return null;
    const loaded = await loadedIndexes(
      metrics.map((metric) => metric.id),
      metrics.filter((metric) => metric.kind === 'eeg').map((metric) => metric.id),
      matcher !== null,
      fingerprintNow,
    );
    if (!loaded) return null;
    const [indexes, traits] = loaded;
    const kept = matcher && traits ? keptRespondentIds(traits, matcher) : null;
    const keep = kept ? (id: number) => id < kept.length && kept[id] === 1 : null;
    return { indexes, keep };
  }

  /**
   * The statistics of the products under a respondent filter summed from the respondent indexes of
   * the metrics (the answers analytics.answerSums reads, with its box thresholds), or null while an
   * index or the respondents' traits are still being read beyond DEMOGRAPHIC_LOAD_WAIT_MS (the
   * caller then asks the database; the read goes on for the searches after it).
   */
  async function indexedSums(
    productIds: readonly number[],
    metricIds: readonly number[],
    eegIds: readonly number[],
    matcher: RespondentMatcher,
    fingerprintNow: string,
  ): Promise<MetricSums[] | null> {
    const loaded = await loadedIndexes(metricIds, eegIds, true, fingerprintNow);
    if (!loaded) return null;
    const [indexes, traits] = loaded;
    const kept = keptRespondentIds(traits!, matcher);
    return indexes.flatMap((index) => indexSums(index, productIds, kept));
  }

  /** Sufficient statistics per product and metric: stored ones, or computed under respondent filters. */
  async function loadSums(
    productIds: number[],
    metricList: MetricRecord[],
    respondentFilter: RespondentConditions,
    outOfScaleProducts: Set<number>,
    fingerprintNow: string,
  ): Promise<SumsTable> {
    const metricIds = [...new Set(metricList.map((metric) => metric.id))];
    const eegIds = metricList.filter((metric) => metric.kind === 'eeg').map((metric) => metric.id);
    const map = new Map<number, Sums>();
    const put = (rows: MetricSums[]) => {
      for (const row of rows) map.set(sumsKey(row.productId, row.metricId), row);
    };
    if (respondentFilter.length > 0) {
      // Gender and age alone are summed from the demographic tables once they are loaded; more
      // metrics than the tables kept (top attributes) would push each other out at every search.
      // Other filters are summed from the respondent indexes over the respondents the matcher keeps.
      const { match, matcher } = respondentFilter;
      if (match) {
        const tables =
          metricIds.length <= DEMOGRAPHIC_TABLES
            ? await loadedDemographicTables(metricIds, eegIds, fingerprintNow)
            : null;
        // Summed when first read: a long search sums in the worker thread that assembles it.
        if (tables) return demographicSearchSums(tables, match, productIds);
      } else if (matcher && metricIds.length <= RESPONDENT_INDEXES) {
        const summed = await indexedSums(productIds, metricIds, eegIds, matcher, fingerprintNow);
        if (summed) {
          put(summed);
          return map;
        }
      }
      put(await analytics.answerSums(productIds, metricIds, eegIds, respondentFilter));
      return map;
    }
    const stored = await Promise.all(metricIds.map((metricId) => storedSumsOf(metricId, fingerprintNow)));
    const byMetric = new Map(metricIds.map((metricId, index) => [metricId, stored[index]!]));
    // The stored statistics count every answer; products with out-of-scale answers are recomputed
    // without them, as METRICS.md drops such answers (the map then holds those products' numbers).
    const recompute = outOfScaleProducts.size > 0 ? heldIn(productIds, outOfScaleProducts) : [];
    if (recompute.length > 0) {
      for (const id of recompute)
        for (const metricId of metricIds) map.set(sumsKey(id, metricId), EMPTY_SUMS);
      put(await analytics.answerSums(recompute, metricIds, eegIds, []));
    }
    // A view, not a copy: callers only ask for the products of the list.
    return sumsView(byMetric, map);
  }

  return {
    analytics,
    fields,
    metricCatalogue,
    fingerprint,
    scopeOf,
    scopeKey,
    productsOf,
    compileFor,
    resolveMetrics,
    outOfScaleAnswers,
    mappedPairs,
    loadSums,
    storedSumsOf,
    demographicTableOf,
    respondentCounts,
    respondentSums,
    respondentIndexesFor,
    loadRespondents,
  };
}

/** The shared pieces every analytics job takes. */
export type AnalyticsContext = ReturnType<typeof createAnalyticsContext>;
