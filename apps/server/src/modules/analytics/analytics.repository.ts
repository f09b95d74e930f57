/**
 * The SQL of analytics: the products a search selects, their sufficient statistics per metric (from
 * product_metric_stats when no respondent filter applies, otherwise from the answers joined to the
 * respondents), raw harmonised answers for checks, and the anomalies behind the diagnostics.
 */
import { BOX_TOLERANCE } from '@accord/stats';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { batchedRead, textArrayLiteral } from '../../db/batched-read.ts';
import { preparedRows, type PreparedStatement } from '../../db/prepared.ts';
import { dataFingerprint } from '../../db/data-versions.ts';
import {
  answers,
  concepts,
  fragrances,
  jobResults,
  metrics,
  productMetricDemoStats,
  productMetricStats,
  products,
  questions,
  respondents,
  studies,
} from '../../db/schema.ts';
import { sqlTextArray } from '../../lib/client-scope.ts';
import { allOf, studyWhere, type CompiledFilters } from '../search/search-filters.ts';
import type { RespondentList } from './respondent-index.ts';
import type { RespondentMatcher, RespondentTraitRow, TraitTest } from './respondent-traits.ts';
import { emptyRespondentCells, type RespondentCells } from './respondent-cells.ts';
import type {
  DemographicMatch,
  DemographicRow,
  MetricRecord,
  MetricSums,
  OutOfScaleRow,
  ProductRecord,
} from './analytics-types.ts';

// The records of analytics live in analytics-types.ts (below the repository, the metrics and the
// demographic tables alike); they are exported here too for the modules that import them from here.
export type { MetricRecord, MetricSums, OutOfScaleRow, ProductRecord } from './analytics-types.ts';

/** SQL of each breakdown field over the product source (aliases s, f); array: one row per value. */
const BREAKDOWN_SQL: Record<string, { expression: string; array: boolean }> = {
  'metadata.client': { expression: 's.client', array: false },
  'metadata.category': { expression: 's.category', array: false },
  'metadata.product_type': { expression: 's.product_type', array: false },
  'metadata.product_area': { expression: 's.product_area', array: true },
  'metadata.region': { expression: 's.region', array: true },
  'metadata.country': { expression: 's.country', array: true },
  'metadata.year': { expression: 's.year::text', array: false },
  'metadata.methodology': { expression: 's.methodology', array: false },
  'metadata.design_method': { expression: 's.design_method', array: false },
  'metadata.research_type': { expression: 's.research_type', array: true },
  'fragrance.family': { expression: 'f.family', array: false },
  'fragrance.subfamily': { expression: 'f.subfamily', array: false },
  'fragrance.specifier': { expression: 'f.specifier', array: false },
  'fragrance.perfumer_name': { expression: 'f.perfumer_name', array: false },
  'fragrance.region': { expression: 'f.region', array: false },
  'fragrance.country': { expression: 'f.country', array: false },
};

/** Fragrance columns the tendencies may read. */
const FRAGRANCE_VALUE_COLUMNS = new Set([
  'family',
  'subfamily',
  'specifier',
  'perfumer_name',
  'region',
  'country',
  'methodology',
  'dominant_note_1',
  'dominant_note_2',
  'dominant_note_3',
  'dominant_note_4',
  'dominant_note_5',
]);

/** What selects the products of a search. */
export interface ProductSelection {
  compiled: CompiledFilters;
  scope: SQL;
  kind: 'fragrance' | 'concept';
  rdfType: 'all' | 'rdf' | 'eeg' | 'irt';
  /** Only these product ids (the selected rows), when given. */
  productIds?: readonly number[] | null;
}

/**
 * Respondent conditions (alias r), already compiled; empty means every respondent. `stats` holds the
 * same conditions over product_metric_demo_stats (alias d) when they only involve gender and age,
 * null when they need the respondents themselves.
 */
export type RespondentConditions = SQL[] & {
  stats?: SQL[] | null;
  /** The same conditions as `stats`, as a test of a statistics row's gender and age. */
  match?: DemographicMatch | null;
  /**
   * Every condition as tests of a respondent's values (respondent-traits.ts), compared as the SQL
   * compares them, a missing value failing: what the respondent indexes are filtered with.
   */
  matcher?: RespondentMatcher;
};

/**
 * An int[] bound as one parameter (an array literal), so that tens of thousands of product ids stay
 * within the protocol's parameter limit.
 */
/**
 * Beyond this many products, statistics are read for every product of the metrics and narrowed in
 * memory: cheaper than matching each row against a long id list.
 */
const PRODUCT_LIST_LIMIT = 2000;

/** Respondent ids per read of the respondents' traits (about 3 MB of JSON). */
const RESPONDENT_CHUNK = 50_000;

/** Product ids per read of a metric's demographic statistics (about 100,000 rows, 8 MB of JSON). */
const DEMOGRAPHIC_CHUNK_PRODUCTS = 2000;

/** An int[] bound as one parameter, so long id lists stay within the protocol's limits. */
export function intArray(values: readonly number[]): SQL {
  const literal = `{${values.map((value) => Math.trunc(value)).join(',')}}`;
  return sql`${literal}::int[]`;
}

/** WHERE of a product (alias p, its study s, fragrance f, concept c) of the selection. */
function productWhere(selection: ProductSelection): SQL {
  const { compiled, scope, kind } = selection;
  const parts: SQL[] = [
    studyWhere(compiled, scope, { fragrances: kind !== 'fragrance', concepts: kind !== 'concept' }),
    sql`p.kind = ${kind}`,
    kind === 'fragrance' ? allOf(compiled.fragrance) : allOf(compiled.concept),
  ];
  if (selection.rdfType !== 'all') parts.push(sql`s.rdf_type = ${selection.rdfType}`);
  if (selection.productIds) parts.push(sql`p.id = any(${intArray(selection.productIds)})`);
  return sql.join(
    parts.map((part) => sql`(${part})`),
    sql` and `,
  );
}

const productSource = sql`${products} p
  join ${studies} s on s.id = p.study_id
  left join ${fragrances} f on f.id = p.fragrance_id
  left join ${concepts} c on c.id = p.concept_id`;

const lo = (threshold: number) => threshold - BOX_TOLERANCE;
const hi = (threshold: number) => threshold + BOX_TOLERANCE;

/**
 * Aggregates over answers (alias a, value v as float8); out-of-scale answers are left out. Every
 * number that claims to be the metric search's (its cells, their traces) is counted with these.
 */
export const answerSums = sql.raw(`count(*)::int as n,
  coalesce(sum(v), 0)::float8 as sum,
  coalesce(sum(v * v), 0)::float8 as sum_sq,
  (count(*) filter (where v >= ${lo(4.5)}))::int as n_top_box,
  (count(*) filter (where v >= ${lo(3.5)}))::int as n_top_2_box,
  (count(*) filter (where v > ${hi(2.5)} and v < ${lo(3.5)}))::int as n_just_right,
  (count(*) filter (where v <= ${hi(2.5)}))::int as n_bottom_2_box,
  (count(*) filter (where v <= ${hi(1.5)}))::int as n_bottom_box`);

/** Harmonised answers inside the 5-point scale; EEG scores are continuous and always kept. */
function inScale(eegMetricIds: readonly number[]): SQL {
  const inside = sql.raw(`a.value between ${lo(1)} and ${hi(5)}`);
  if (eegMetricIds.length === 0) return inside;
  return sql`(${inside} or a.metric_id = any(${intArray(eegMetricIds)}))`;
}

/** In-scale rows of the demographic statistics (alias d); EEG scores are always kept. */
function statsInScale(eegMetricIds: readonly number[]): SQL {
  if (eegMetricIds.length === 0) return sql`d.in_scale`;
  return sql`(d.in_scale or d.metric_id = any(${intArray(eegMetricIds)}))`;
}

/** The summed sufficient statistics of demographic statistics rows (alias d). */
const statsSums = sql.raw(`sum(d.n)::int as n,
  sum(d.sum)::float8 as sum,
  sum(d.sum_sq)::float8 as sum_sq,
  sum(d.n_top_box)::int as n_top_box,
  sum(d.n_top_2_box)::int as n_top_2_box,
  sum(d.n_just_right)::int as n_just_right,
  sum(d.n_bottom_2_box)::int as n_bottom_2_box,
  sum(d.n_bottom_box)::int as n_bottom_box`);

/** The conditions over the demographic statistics, or null when the respondents must be read. */
function statsConditionsOf(conditions: RespondentConditions): SQL[] | null {
  if (conditions.length === 0) return [];
  return conditions.stats ?? null;
}

/** Conditions joined with and, after a leading one. */
const andAll = (list: SQL[]) => (list.length === 0 ? sql`` : sql` and ${sql.join(list, sql` and `)}`);

const PRODUCT_COLUMNS = [
  'id',
  'study_id',
  'kind',
  'code',
  'name',
  'c_mi_number',
  'project_name',
  'client',
  'category',
  'product_type',
  'rdf_type',
  'sap_code',
] as const;

const SUMS_COLUMNS = [
  'product_id',
  'metric_id',
  'n',
  'sum',
  'sum_sq',
  'n_top_box',
  'n_top_2_box',
  'n_just_right',
  'n_bottom_2_box',
  'n_bottom_box',
] as const;

interface SumsRow {
  product_id: number;
  metric_id: number;
  n: number;
  sum: number;
  sum_sq: number;
  n_top_box: number;
  n_top_2_box: number;
  n_just_right: number;
  n_bottom_2_box: number;
  n_bottom_box: number;
}

function toSums(row: SumsRow): MetricSums {
  return {
    productId: Number(row.product_id),
    metricId: Number(row.metric_id),
    n: Number(row.n),
    sum: Number(row.sum),
    sumSq: Number(row.sum_sq),
    nTopBox: Number(row.n_top_box),
    nTop2Box: Number(row.n_top_2_box),
    nJustRight: Number(row.n_just_right),
    nBottom2Box: Number(row.n_bottom_2_box),
    nBottomBox: Number(row.n_bottom_box),
  };
}

/** Finished analytics and comparison jobs are kept a day (their rows hold the polled answers). */
export const JOB_RESULT_TTL_MS = 24 * 60 * 60_000;
/** How often a process looks for expired jobs, when it records a new one. */
const JOB_CLEANUP_INTERVAL_MS = 10 * 60_000;

/** The columns of a job row but its result, as read by id (selection: int[] or null). */
interface JobRow {
  id: string;
  user_id: number | null;
  kind: string;
  status: string;
  progress: number;
  error: string | null;
  selection: number[] | null;
}

/** A job row written ended (createEndedJob): its result text, or its error when it failed. */
interface EndedJobRow {
  id: string;
  userId: number;
  kind: string;
  request: string;
  text: string | null;
  error: string | null;
}

/** Ended job rows inserted together up to this many are sent as a statement prepared for their count. */
const PREPARED_ENDED_ROWS = 16;

/** The insert of `count` ended job rows (7 values each: their status and progress 100 written in). */
function endedJobsInsert(count: number): PreparedStatement {
  const values = Array.from({ length: count }, (_, index) => {
    const at = index * 7;
    return `($${at + 1}, $${at + 2}::int, $${at + 3}, $${at + 4}, 100, $${at + 5}, $${at + 6}, $${at + 7})`;
  });
  return {
    name: count <= PREPARED_ENDED_ROWS ? `ended_jobs_insert_${count}` : null,
    text: `insert into job_results (id, user_id, kind, status, progress, request, result, error) values ${values.join(', ')}`,
  };
}

export function createAnalyticsRepository(db: Db, options: { productListLimit?: number } = {}) {
  const productListLimit = options.productListLimit ?? PRODUCT_LIST_LIMIT;

  /** The condition "a product of the list" on `column`, or true for long lists (see onlyProducts). */
  function productFilter(column: string, productIds: readonly number[]): SQL {
    if (productIds.length > productListLimit) return sql`true`;
    return sql`${sql.raw(column)} = any(${intArray(productIds)})`;
  }

  /** Rows of the listed products only. */
  function onlyProducts<T extends { productId: number }>(list: T[], productIds: readonly number[]): T[] {
    if (productIds.length <= productListLimit) return list;
    const wanted = new Set(productIds);
    return list.filter((row) => wanted.has(row.productId));
  }

  async function rows<T>(query: SQL): Promise<T[]> {
    const result = (await db.execute(query)) as unknown as { rows: T[] };
    return result.rows;
  }

  /**
   * Removes the finished jobs of these kinds last written longer than `olderThanMs` ago: their
   * answers were polled long since and are computed again on demand. Returns how many went.
   */
  async function removeFinishedJobs(kinds: readonly string[], olderThanMs: number): Promise<number> {
    if (kinds.length === 0) return 0;
    const gone = await rows<{ id: string }>(sql`delete from ${jobResults}
      where kind = any(${sqlTextArray(kinds)}) and status in ('SUCCESS', 'FAILURE', 'REVOKED')
        and updated_at < now() - make_interval(secs => ${olderThanMs / 1000})
      returning id`);
    return gone.length;
  }
  /** The kinds of job this repository recorded, and when it last removed expired ones. */
  const jobKinds = new Set<string>();
  let lastCleanup = 0;
  /** Notes a job row of `kind` written, and now and then removes the expired ones. */
  async function recorded(kind: string): Promise<void> {
    jobKinds.add(kind);
    if (Date.now() - lastCleanup < JOB_CLEANUP_INTERVAL_MS) return;
    lastCleanup = Date.now();
    await removeFinishedJobs([...jobKinds], JOB_RESULT_TTL_MS);
  }

  /**
   * The job rows a busy server reads at every poll and page, read by id in one query per turn of the
   * event loop (db/batched-read.ts: the reads asked for together, each sent after it was asked):
   * `jobRow` without the result (which may be large), `jobRowWithResult` with it. Each caller then
   * keeps the row only when it is of its own user and kind, as `where user_id = .. and kind = ..` did.
   */
  const jobRowsBy = <T extends JobRow>(name: string, columns: string) => {
    // Prepared once per connection (db/prepared.ts): one name per column list.
    const statement: PreparedStatement = {
      name,
      text: `select ${columns} from job_results where id = any($1::text[])`,
    };
    return batchedRead<string, T>(async (ids) => {
      const found = await preparedRows<T>(db, statement, [textArrayLiteral(ids)]);
      return new Map(found.map((row) => [row.id, row]));
    });
  };
  const JOB_ROW_COLUMNS = 'id, user_id, kind, status, progress, error, selection';
  const jobRow = jobRowsBy<JobRow>('job_rows_by_ids', JOB_ROW_COLUMNS);
  const jobRowWithResult = jobRowsBy<JobRow & { result: string | null }>(
    'job_rows_with_result_by_ids',
    `${JOB_ROW_COLUMNS}, result`,
  );
  /** The row when it is a job of the user and kind, else null. */
  const ofCaller = <T extends JobRow>(row: T | undefined, userId: number, kind: string): T | null =>
    row && row.user_id !== null && Number(row.user_id) === userId && row.kind === kind ? row : null;

  /** A job of the user and kind with its result as the stored JSON text (null when not the caller's). */
  async function findJobText(
    id: string,
    userId: number,
    kind: string,
  ): Promise<{ status: string; progress: number; text: string | null; error: string | null } | null> {
    const row = ofCaller(await jobRowWithResult(id), userId, kind);
    if (!row) return null;
    return { status: row.status, progress: Number(row.progress), text: row.result, error: row.error };
  }

  /**
   * Job rows recorded ended within their request (createEndedJob), written together: the rows of the
   * searches answered in one turn go in one insert. When that insert fails, each row is inserted
   * alone, so that a bad row fails only its own request. A caller is answered once its row is committed.
   */
  const endedJobInsert = batchedRead<EndedJobRow, Error | null>(async (list) => {
    const insert = (part: readonly EndedJobRow[]) =>
      preparedRows(
        db,
        endedJobsInsert(part.length),
        part.flatMap((row) => [
          row.id,
          row.userId,
          row.kind,
          row.text === null ? 'FAILURE' : 'SUCCESS',
          row.request,
          row.text,
          row.error,
        ]),
      );
    try {
      await insert(list);
      return new Map(list.map((row) => [row, null]));
    } catch (error) {
      if (list.length === 1) return new Map([[list[0]!, error as Error]]);
    }
    const outcomes = await Promise.all(
      list.map((row) =>
        insert([row]).then(
          () => null,
          (error: unknown) => error as Error,
        ),
      ),
    );
    return new Map(list.map((row, index) => [row, outcomes[index]!]));
  });

  /**
   * The rows of a query as one JSON text of arrays (the listed columns in order): tens of thousands
   * of rows are parsed at once by JSON.parse instead of field by field by the driver.
   */
  async function arrays(query: SQL, columns: readonly string[], orderBy?: string): Promise<unknown[][]> {
    const list = sql.raw(columns.map((column) => `x.${column}`).join(', '));
    const order = orderBy ? sql.raw(` order by ${orderBy}`) : sql``;
    const [row] = await rows<{ j: string | null }>(
      sql`select json_agg(json_build_array(${list})${order})::text as j from (${query}) x`,
    );
    return row?.j ? (JSON.parse(row.j) as unknown[][]) : [];
  }

  /** Sufficient statistics rows (SumsRow columns) of a query. */
  async function sumsOf(query: SQL): Promise<MetricSums[]> {
    return (await arrays(query, SUMS_COLUMNS)).map((row) => {
      const [productId, metricId, n, sum, sumSq, nTopBox, nTop2Box, nJustRight, nBottom2Box, nBottomBox] =
        row as number[];
      return {
        productId: productId!,
        metricId: metricId!,
        n: n!,
        sum: sum!,
        sumSq: sumSq!,
        nTopBox: nTopBox!,
        nTop2Box: nTop2Box!,
        nJustRight: nJustRight!,
        nBottom2Box: nBottom2Box!,
        nBottomBox: nBottomBox!,
      };
    });
  }

  return {
    async metrics(): Promise<MetricRecord[]> {
      return (await db.select().from(metrics).orderBy(metrics.id)).map((metric) => ({
        id: metric.id,
        name: metric.name,
        label: metric.label,
        metricType: metric.metricType,
        kind: metric.kind,
      }));
    },

    /** The products a search selects, with their study's details, in study then product order. */
    async products(selection: ProductSelection): Promise<ProductRecord[]> {
      const found = await arrays(
        sql`select p.id, p.study_id, p.kind, p.code, coalesce(f.name, c.name) as name,
          s.c_mi_number, s.project_name, s.client, s.category, s.product_type, s.rdf_type, s.year,
          f.code as sap_code
        from ${productSource}
        where ${productWhere(selection)}`,
        PRODUCT_COLUMNS,
        'x.year desc nulls first, x.study_id, x.id',
      );
      return found.map((row) => {
        const [
          id,
          studyId,
          kind,
          code,
          name,
          cMiNumber,
          projectName,
          client,
          category,
          productType,
          rdfType,
          sapCode,
        ] = row as [
          number,
          number,
          ProductRecord['kind'],
          string,
          string | null,
          string,
          string,
          string,
          string | null,
          string | null,
          ProductRecord['rdfType'],
          string | null,
        ];
        return {
          id,
          studyId,
          kind,
          code,
          name,
          cMiNumber,
          projectName,
          client,
          category,
          productType,
          rdfType,
          sapCode,
        };
      });
    },

    /** Which of the products exist within the scope. */
    async productsById(productIds: readonly number[], scope: SQL): Promise<Set<number>> {
      if (productIds.length === 0) return new Set();
      const found = await rows<{ id: number }>(sql`select p.id from ${products} p
        join ${studies} s on s.id = p.study_id
        where p.id = any(${intArray(productIds)}) and ${scope}`);
      return new Set(found.map((row) => Number(row.id)));
    },

    /**
     * The values of a fragrance field of every fragrance the selection holds (kind fragrance): one
     * list per fragrance (the five dominant notes for dominant_note), without empty values.
     */
    async fragranceValues(selection: ProductSelection, field: string): Promise<string[][]> {
      const columns =
        field === 'dominant_note'
          ? ['dominant_note_1', 'dominant_note_2', 'dominant_note_3', 'dominant_note_4', 'dominant_note_5']
          : [field];
      if (!columns.every((column) => FRAGRANCE_VALUE_COLUMNS.has(column)))
        throw new Error(`Unknown fragrance field ${field}`);
      const list = sql.raw(columns.map((column, index) => `f.${column} as v${index}`).join(', '));
      const found = await rows<Record<string, string | null>>(sql`select distinct on (f.id) ${list}
        from ${productSource} where ${productWhere({ ...selection, kind: 'fragrance' })}
        order by f.id`);
      return found.map((row) => {
        const values = columns.map((_, index) => row[`v${index}`]?.trim() ?? '');
        return [...new Set(values.filter((value) => value !== ''))];
      });
    },

    /**
     * The values of a breakdown field (category.field) of each product of the selection: one row per
     * product and value; a product without a value has none.
     */
    async breakdownValues(
      selection: ProductSelection,
      category: string,
      field: string,
    ): Promise<{ productId: number; value: string }[]> {
      const source = BREAKDOWN_SQL[`${category}.${field}`];
      if (!source) throw new Error(`Unknown breakdown ${category}.${field}`);
      const found = await rows<{ id: number; v: string | null }>(
        source.array
          ? sql`select p.id, u.v from ${productSource} cross join lateral unnest(${sql.raw(source.expression)}) as u(v)
              where ${productWhere(selection)}`
          : sql`select p.id, ${sql.raw(source.expression)} as v from ${productSource} where ${productWhere(selection)}`,
      );
      return found
        .filter((row) => row.v !== null && row.v.trim() !== '')
        .map((row) => ({ productId: Number(row.id), value: row.v! }));
    },

    /**
     * Statistics of each metric pooled over every product of the selection, summed in the database:
     * from the stored statistics, or from the answers of the respondents meeting the conditions (in
     * scale). The stored statistics count out-of-scale answers: callers use them only when the
     * products have none.
     */
    async pooledSums(
      selection: ProductSelection,
      metricIds: readonly number[],
      eegMetricIds: readonly number[],
      respondentConditions: RespondentConditions,
    ): Promise<Map<number, MetricSums>> {
      const pooled = new Map<number, MetricSums>();
      if (metricIds.length === 0) return pooled;
      const productSet = sql`(select p.id from ${productSource} where ${productWhere(selection)})`;
      const stats = statsConditionsOf(respondentConditions);
      const found =
        respondentConditions.length > 0 && stats !== null
          ? await rows<SumsRow>(sql`select 0 as product_id, d.metric_id, ${statsSums}
            from ${productMetricDemoStats} d
            where d.metric_id = any(${intArray(metricIds)}) and d.product_id in ${productSet}
              and ${statsInScale(eegMetricIds)}${andAll(stats)}
            group by d.metric_id`)
          : respondentConditions.length === 0
            ? await rows<SumsRow>(sql`select 0 as product_id, metric_id, sum(n)::int as n, sum(sum)::float8 as sum,
              sum(sum_sq)::float8 as sum_sq, sum(n_top_box)::int as n_top_box, sum(n_top_2_box)::int as n_top_2_box,
              sum(n_just_right)::int as n_just_right, sum(n_bottom_2_box)::int as n_bottom_2_box,
              sum(n_bottom_box)::int as n_bottom_box
            from ${productMetricStats}
            where metric_id = any(${intArray(metricIds)}) and product_id in ${productSet}
            group by metric_id`)
            : await rows<SumsRow>(sql`select 0 as product_id, metric_id, ${answerSums}
            from (select a.metric_id, a.value::float8 as v
              from ${answers} a join ${respondents} r on r.id = a.respondent_id
              where a.metric_id = any(${intArray(metricIds)})
                and a.product_id in ${productSet}
                and ${inScale(eegMetricIds)}
                and ${sql.join(respondentConditions, sql` and `)}) x
            group by metric_id`);
      for (const row of found) pooled.set(Number(row.metric_id), toSums(row));
      return pooled;
    },

    /** The precomputed statistics of the products and metrics (no respondent filter). */
    async storedSums(productIds: readonly number[], metricIds: readonly number[]): Promise<MetricSums[]> {
      if (productIds.length === 0 || metricIds.length === 0) return [];
      const found = await sumsOf(sql`select product_id, metric_id, n, sum, sum_sq, n_top_box,
          n_top_2_box, n_just_right, n_bottom_2_box, n_bottom_box
        from ${productMetricStats}
        where metric_id = any(${intArray(metricIds)}) and ${productFilter('product_id', productIds)}`);
      return onlyProducts(found, productIds);
    },

    /**
     * The demographic statistics of a metric, in scale (EEG scores always), one row per product,
     * gender and age, grouped by product (DemographicRow order), handed over in chunks of about
     * DEMOGRAPHIC_CHUNK_PRODUCTS product ids, in product order.
     */
    async demographicRows(
      metricId: number,
      eeg: boolean,
      take: (chunk: DemographicRow[]) => void,
    ): Promise<void> {
      const inScale = eeg ? sql`` : sql` and d.in_scale`;
      const [range] = await rows<{ low: number | null; high: number | null }>(
        sql`select min(d.product_id) as low, max(d.product_id) as high
          from ${productMetricDemoStats} d where d.metric_id = ${metricId}`,
      );
      if (range?.low == null || range.high == null) return;
      for (let low = Number(range.low); low <= Number(range.high); low += DEMOGRAPHIC_CHUNK_PRODUCTS) {
        take(
          (await arrays(
            sql`select d.product_id, d.gender, d.age, ${statsSums}
              from ${productMetricDemoStats} d
              where d.metric_id = ${metricId}${inScale}
                and d.product_id >= ${low} and d.product_id < ${low + DEMOGRAPHIC_CHUNK_PRODUCTS}
              group by d.product_id, d.gender, d.age`,
            ['product_id', 'gender', 'age', ...SUMS_COLUMNS.slice(2)],
            'x.product_id',
          )) as DemographicRow[],
        );
      }
    },

    /**
     * Each product's answers in scale to a metric (EEG scores all) as its respondents (ids ascending,
     * a respondent once per answer) and their harmonised values, read a range of products at a time
     * (an index-only scan of answers_metric_product_idx) and handed to `take` in product order.
     */
    async respondentLists(
      metricId: number,
      eeg: boolean,
      take: (chunk: RespondentList[]) => void,
    ): Promise<void> {
      const [range] = await rows<{ low: number | null; high: number | null }>(
        sql`select min(a.product_id) as low, max(a.product_id) as high
          from ${answers} a where a.metric_id = ${metricId}`,
      );
      if (range?.low == null || range.high == null) return;
      for (let low = Number(range.low); low <= Number(range.high); low += DEMOGRAPHIC_CHUNK_PRODUCTS) {
        take(
          (await arrays(
            sql`select a.product_id,
                array_agg(a.respondent_id order by a.respondent_id, a.value) as ids,
                array_agg(a.value::float8 order by a.respondent_id, a.value) as vals
              from ${answers} a
              where a.metric_id = ${metricId} and ${inScale(eeg ? [metricId] : [])}
                and a.product_id >= ${low} and a.product_id < ${low + DEMOGRAPHIC_CHUNK_PRODUCTS}
              group by a.product_id`,
            ['product_id', 'ids', 'vals'],
            'x.product_id',
          )) as RespondentList[],
        );
      }
    },

    /**
     * Every respondent's id, gender, age, ethnicity, social class and BUMO, read a range of ids at a
     * time (RESPONDENT_CHUNK) and handed to `take` in id order.
     */
    async respondentTraits(take: (chunk: RespondentTraitRow[]) => void): Promise<void> {
      const [range] = await rows<{ low: number | null; high: number | null }>(
        sql`select min(r.id) as low, max(r.id) as high from ${respondents} r`,
      );
      if (range?.low == null || range.high == null) return;
      for (let low = Number(range.low); low <= Number(range.high); low += RESPONDENT_CHUNK) {
        take(
          (await arrays(
            sql`select r.id, r.gender, r.age, r.ethnicity, r.social_class, r.bumo from ${respondents} r
              where r.id >= ${low} and r.id < ${low + RESPONDENT_CHUNK}`,
            ['id', 'gender', 'age', 'ethnicity', 'social_class', 'bumo'],
            'x.id',
          )) as RespondentTraitRow[],
        );
      }
    },

    /** The precomputed statistics of every product of a metric (no respondent filter). */
    async metricStoredSums(metricId: number): Promise<MetricSums[]> {
      return sumsOf(sql`select product_id, metric_id, n, sum, sum_sq, n_top_box,
          n_top_2_box, n_just_right, n_bottom_2_box, n_bottom_box
        from ${productMetricStats}
        where metric_id = ${metricId}`);
    },

    /**
     * Statistics computed from the answers of the respondents meeting the conditions (alias r),
     * leaving out answers outside the 5-point scale.
     */
    async answerSums(
      productIds: readonly number[],
      metricIds: readonly number[],
      eegMetricIds: readonly number[],
      respondentConditions: RespondentConditions,
    ): Promise<MetricSums[]> {
      if (productIds.length === 0 || metricIds.length === 0) return [];
      const stats = statsConditionsOf(respondentConditions);
      if (stats !== null) {
        const summed = await sumsOf(sql`select d.product_id, d.metric_id, ${statsSums}
          from ${productMetricDemoStats} d
          where d.metric_id = any(${intArray(metricIds)})
            and ${productFilter('d.product_id', productIds)}
            and ${statsInScale(eegMetricIds)}${andAll(stats)}
          group by d.product_id, d.metric_id`);
        return onlyProducts(summed, productIds);
      }
      const joinRespondents = respondentConditions.length > 0;
      const found = await sumsOf(sql`select product_id, metric_id, ${answerSums}
        from (select a.product_id, a.metric_id, a.value::float8 as v
          from ${answers} a
          ${joinRespondents ? sql`join ${respondents} r on r.id = a.respondent_id` : sql``}
          where a.metric_id = any(${intArray(metricIds)})
            and ${productFilter('a.product_id', productIds)}
            and ${inScale(eegMetricIds)}
            ${joinRespondents ? sql`and ${sql.join(respondentConditions, sql` and `)}` : sql``}) x
        group by product_id, metric_id`);
      return onlyProducts(found, productIds);
    },

    /**
     * Harmonised answers of products and metrics for respondents meeting the conditions, in scale;
     * keyed "productId:metricId".
     */
    async answerValues(
      productIds: readonly number[],
      metricIds: readonly number[],
      eegMetricIds: readonly number[],
      respondentConditions: RespondentConditions,
    ): Promise<Map<string, number[]>> {
      const values = new Map<string, number[]>();
      if (productIds.length === 0 || metricIds.length === 0) return values;
      const joinRespondents = respondentConditions.length > 0;
      const found = await rows<{ product_id: number; metric_id: number; v: number }>(sql`
        select a.product_id, a.metric_id, a.value::float8 as v
        from ${answers} a
        ${joinRespondents ? sql`join ${respondents} r on r.id = a.respondent_id` : sql``}
        where a.metric_id = any(${intArray(metricIds)})
          and a.product_id = any(${intArray(productIds)})
          and ${inScale(eegMetricIds)}
          ${joinRespondents ? sql`and ${sql.join(respondentConditions, sql` and `)}` : sql``}`);
      for (const row of found) {
        const key = `${row.product_id}:${row.metric_id}`;
        const list = values.get(key);
        if (list) list.push(Number(row.v));
        else values.set(key, [Number(row.v)]);
      }
      return values;
    },

    /**
     * Each respondent's sums per product and metric (in scale, respondents meeting the conditions):
     * what the respondent-clustered significance tests need (METRICS.md section 2). One grouped read
     * for the whole list; respondents belong to one study, so the cells split by study of themselves.
     */
    async respondentCells(
      productIds: readonly number[],
      metricIds: readonly number[],
      eegMetricIds: readonly number[],
      respondentConditions: RespondentConditions,
    ): Promise<Map<number, RespondentCells>> {
      const byMetric = new Map<number, RespondentCells>();
      if (productIds.length === 0 || metricIds.length === 0) return byMetric;
      const joinRespondents = respondentConditions.length > 0;
      const found = await rows<SumsRow & { respondent_id: number }>(sql`
        select product_id, metric_id, respondent_id, ${answerSums}
        from (select a.product_id, a.metric_id, a.respondent_id, a.value::float8 as v
          from ${answers} a
          ${joinRespondents ? sql`join ${respondents} r on r.id = a.respondent_id` : sql``}
          where a.metric_id = any(${intArray(metricIds)})
            and a.product_id = any(${intArray(productIds)})
            and ${inScale(eegMetricIds)}
            ${joinRespondents ? sql`and ${sql.join(respondentConditions, sql` and `)}` : sql``}) x
        group by metric_id, product_id, respondent_id`);
      const counts = new Map<number, number>();
      for (const row of found)
        counts.set(Number(row.metric_id), (counts.get(Number(row.metric_id)) ?? 0) + 1);
      for (const [metricId, count] of counts) byMetric.set(metricId, emptyRespondentCells(count));
      const filled = new Map<number, number>();
      for (const row of found) {
        const metricId = Number(row.metric_id);
        const cells = byMetric.get(metricId)!;
        const at = filled.get(metricId) ?? 0;
        filled.set(metricId, at + 1);
        cells.product[at] = Number(row.product_id);
        cells.respondent[at] = Number(row.respondent_id);
        cells.n[at] = Number(row.n);
        cells.sum[at] = Number(row.sum);
        cells.sumSq[at] = Number(row.sum_sq);
        cells.nTopBox[at] = Number(row.n_top_box);
        cells.nTop2Box[at] = Number(row.n_top_2_box);
        cells.nJustRight[at] = Number(row.n_just_right);
        cells.nBottom2Box[at] = Number(row.n_bottom_2_box);
        cells.nBottomBox[at] = Number(row.n_bottom_box);
      }
      return byMetric;
    },

    /**
     * Respondents meeting the conditions who answered the products about each metric (in scale), and
     * about any of them (key null): the respondent base beside the product base of a group comparison.
     */
    async respondentCounts(
      productIds: readonly number[],
      metricIds: readonly number[],
      eegMetricIds: readonly number[],
      respondentConditions: RespondentConditions,
    ): Promise<Map<number | null, number>> {
      const counts = new Map<number | null, number>();
      if (productIds.length === 0 || metricIds.length === 0) return counts;
      const joinRespondents = respondentConditions.length > 0;
      const found = await rows<{ metric_id: number | null; n: number }>(sql`
        select a.metric_id, count(distinct a.respondent_id)::int as n
        from ${answers} a
        ${joinRespondents ? sql`join ${respondents} r on r.id = a.respondent_id` : sql``}
        where a.metric_id = any(${intArray(metricIds)})
          and a.product_id = any(${intArray(productIds)})
          and ${inScale(eegMetricIds)}
          ${joinRespondents ? sql`and ${sql.join(respondentConditions, sql` and `)}` : sql``}
        group by grouping sets ((a.metric_id), ())`);
      for (const row of found)
        counts.set(row.metric_id === null ? null : Number(row.metric_id), Number(row.n));
      return counts;
    },

    /**
     * How many of the products have an answer (in scale) to one of the metrics from a respondent
     * meeting the conditions. Each product stops at its first such answer (an index probe) instead
     * of counting distinct products over every answer (seconds at library scale).
     */
    async productsWithAnswers(
      productIds: readonly number[],
      metricIds: readonly number[],
      respondentConditions: RespondentConditions,
    ): Promise<number> {
      if (productIds.length === 0 || metricIds.length === 0) return 0;
      const joinRespondents = respondentConditions.length > 0;
      const [found] = await rows<{ n: number }>(sql`
        select count(*)::int as n
        from (select distinct unnest(${intArray(productIds)}) as id) p
        where exists (
          select 1 from ${answers} a
          ${joinRespondents ? sql`join ${respondents} r on r.id = a.respondent_id` : sql``}
          where a.metric_id = any(${intArray(metricIds)})
            and a.product_id = p.id
            and ${inScale([])}
            ${joinRespondents ? sql`and ${sql.join(respondentConditions, sql` and `)}` : sql``})`);
      return Number(found?.n ?? 0);
    },

    /** Studies with at least one question mapped to the metric. */
    async studiesMappedTo(metricId: number): Promise<number[]> {
      const found = await rows<{ study_id: number }>(
        sql`select distinct study_id from ${questions} where metric_id = ${metricId}`,
      );
      return found.map((row) => Number(row.study_id));
    },

    /**
     * Answers of a metric outside their question's scale (harmonised value outside [1, 5]), per
     * product and question, with the results file of the question.
     */
    async outOfScale(metricId: number): Promise<OutOfScaleRow[]> {
      const found = await rows<{
        product_id: number;
        study_id: number;
        qid: string;
        filename: string;
        count: number;
      }>(sql`select x.product_id, q.study_id, q.qid, q.filename, x.count
        from (select a.product_id, a.question_id, count(*)::int as count from ${answers} a
          where a.metric_id = ${metricId} and ${sql.raw(`(a.value < ${lo(1)} or a.value > ${hi(5)})`)}
          group by a.product_id, a.question_id) x
        join ${questions} q on q.id = x.question_id`);
      return found.map((row) => ({
        productId: Number(row.product_id),
        studyId: Number(row.study_id),
        qid: row.qid,
        filename: row.filename,
        count: Number(row.count),
      }));
    },

    /** The stored result text of a finished job; null while it runs or failed, undefined when no row is left. */
    async jobResultText(id: string): Promise<string | null | undefined> {
      const [row] = await rows<{ status: string; result: string | null }>(
        sql`select status, case when status = 'SUCCESS' then result end as result from ${jobResults} where id = ${id}`,
      );
      if (!row) return undefined;
      return row.status === 'SUCCESS' ? row.result : null;
    },

    /**
     * A text that changes whenever the data under analytics changes: studies, their fragrances,
     * concepts and products (answers and their statistics are loaded with new products), and
     * questions (mappings). The tables' change counters (data_versions, raised at each commit).
     */
    async fingerprint(): Promise<string> {
      return dataFingerprint(db, ['studies', 'fragrances', 'concepts', 'products', 'questions']);
    },

    /** Options of the demographic fields: respondents in scope per value. */
    async demographicCounts(scope: SQL): Promise<Map<string, Map<string, number>>> {
      const grouped = await rows<{
        gender: string | null;
        ethnicity: string | null;
        social_class: string | null;
        bumo: string | null;
        n: number;
      }>(sql`select r.gender, r.ethnicity, r.social_class, r.bumo, count(*)::int as n
        from ${respondents} r join ${studies} s on s.id = r.study_id
        where ${scope}
        group by grouping sets ((r.gender), (r.ethnicity), (r.social_class), (r.bumo))`);
      const found = grouped.flatMap((row) =>
        (['gender', 'ethnicity', 'social_class', 'bumo'] as const)
          .filter((field) => row[field] !== null)
          .map((field) => ({ field, value: row[field]!, n: row.n })),
      );
      const counts = new Map<string, Map<string, number>>();
      for (const row of found) {
        if (!counts.has(row.field)) counts.set(row.field, new Map());
        counts.get(row.field)!.set(row.value, Number(row.n));
      }
      return counts;
    },

    async ageAndYearRange(scope: SQL): Promise<{
      minAge: number | null;
      maxAge: number | null;
      minYear: number | null;
      maxYear: number | null;
    }> {
      const [row] = await rows<{
        min_age: number | null;
        max_age: number | null;
        min_year: number | null;
        max_year: number | null;
      }>(sql`
        select (select min(r.age)::int from ${respondents} r join ${studies} s on s.id = r.study_id where ${scope}) as min_age,
          (select max(r.age)::int from ${respondents} r join ${studies} s on s.id = r.study_id where ${scope}) as max_age,
          (select min(s.year)::int from ${studies} s where ${scope}) as min_year,
          (select max(s.year)::int from ${studies} s where ${scope}) as max_year`);
      const num = (value: number | null | undefined) => (value == null ? null : Number(value));
      return {
        minAge: num(row?.min_age),
        maxAge: num(row?.max_age),
        minYear: num(row?.min_year),
        maxYear: num(row?.max_year),
      };
    },

    /** Studies per metric with questions mapped to it, among the studies of the selection. */
    async metricStudyCounts(
      compiled: CompiledFilters,
      scope: SQL,
      rdfType: 'all' | 'rdf' | 'eeg' | 'irt',
    ): Promise<Map<number, number>> {
      const found = await rows<{ metric_id: number; n: number }>(sql`
        select q.metric_id, count(distinct q.study_id)::int as n
        from ${questions} q join ${studies} s on s.id = q.study_id
        where q.metric_id is not null and ${studyWhere(compiled, scope)}
          ${rdfType === 'all' ? sql`` : sql`and s.rdf_type = ${rdfType}`}
        group by q.metric_id`);
      return new Map(found.map((row) => [Number(row.metric_id), Number(row.n)]));
    },

    // ------------------------------------------------------------------ jobs

    /**
     * Records a started job with the request it answers (JSON text, kept for its downloads); now and
     * then (JOB_CLEANUP_INTERVAL_MS) removes the expired ones.
     */
    async createJob(id: string, userId: number, kind: string, request?: string): Promise<void> {
      await db
        .insert(jobResults)
        .values({ id, userId, kind, status: 'STARTED', progress: 0, request: request ?? null });
      await recorded(kind);
    },

    /**
     * Records a job that ended within its request (a search answered in memory) in one write: SUCCESS
     * with its result's JSON text, or FAILURE with its message.
     */
    async createEndedJob(
      id: string,
      userId: number,
      kind: string,
      request: string,
      outcome: { text: string } | { error: string },
    ): Promise<void> {
      const failed = await endedJobInsert({
        id,
        userId,
        kind,
        request,
        text: 'text' in outcome ? outcome.text : null,
        error: 'error' in outcome ? outcome.error : null,
      });
      if (failed) throw failed;
      await recorded(kind);
    },

    removeFinishedJobs,

    /** Ends a job: SUCCESS with its result (a value, or its JSON text as written), or FAILURE. */
    async finishJob(
      id: string,
      outcome: { result: unknown } | { text: string } | { error: string },
    ): Promise<void> {
      const text =
        'text' in outcome ? outcome.text : 'result' in outcome ? JSON.stringify(outcome.result) : null;
      await db.execute(sql`update ${jobResults} set
          status = ${text === null ? 'FAILURE' : 'SUCCESS'},
          progress = 100,
          result = ${text},
          error = ${'error' in outcome ? outcome.error : null},
          updated_at = now()
        where id = ${id} and status <> 'REVOKED'`);
    },

    /**
     * Records how far a running job is (0-100); false when the job no longer runs (cancelled), so
     * its work stops there.
     */
    async setJobProgress(id: string, progress: number): Promise<boolean> {
      const found = await rows<{ id: string }>(
        sql`update ${jobResults} set progress = ${Math.round(progress)}, updated_at = now()
          where id = ${id} and status in ('PENDING', 'STARTED') returning id`,
      );
      return found.length > 0;
    },

    /**
     * Cancels a job of the user and kind that has not ended (REVOKED, with `message`); its state
     * after, or null when it is not the caller's.
     */
    async cancelJob(
      id: string,
      userId: number,
      kind: string,
      message: string,
    ): Promise<{ status: string; progress: number } | null> {
      await db.execute(sql`update ${jobResults} set status = 'REVOKED', error = ${message}, updated_at = now()
        where id = ${id} and user_id = ${userId} and kind = ${kind} and status in ('PENDING', 'STARTED')`);
      const [row] = await rows<{ status: string; progress: number }>(
        sql`select status, progress from ${jobResults}
          where id = ${id} and user_id = ${userId} and kind = ${kind}`,
      );
      return row ? { status: row.status, progress: Number(row.progress) } : null;
    },

    /**
     * The request a job of the user and kind answers, as the JSON text recorded with it: null when
     * the job is not the caller's, undefined when its row keeps no request (a row of an older version).
     */
    async jobRequest(id: string, userId: number, kind: string): Promise<string | null | undefined> {
      const [row] = await rows<{ request: string | null }>(
        sql`select request from ${jobResults} where id = ${id} and user_id = ${userId} and kind = ${kind}`,
      );
      if (!row) return null;
      return row.request ?? undefined;
    },

    /** A job's state without its result (which may be large), or null when it is not the caller's. */
    async jobState(
      id: string,
      userId: number,
      kind: string,
    ): Promise<{ status: string; progress: number; error: string | null } | null> {
      const row = ofCaller(await jobRow(id), userId, kind);
      if (!row) return null;
      return { status: row.status, progress: Number(row.progress), error: row.error };
    },

    /** A job of the user and kind, its result parsed (null when it is not the caller's). */
    async findJob(
      id: string,
      userId: number,
      kind: string,
    ): Promise<{ status: string; progress: number; result: unknown; error: string | null } | null> {
      const job = await findJobText(id, userId, kind);
      if (!job) return null;
      const { text, ...state } = job;
      return { ...state, result: text === null ? null : (JSON.parse(text) as unknown) };
    },

    findJobText,

    /** The selected rows of a job of the caller (none: empty), or null when it is not theirs. */
    async jobSelection(id: string, userId: number, kind: string): Promise<number[] | null> {
      const row = ofCaller(await jobRow(id), userId, kind);
      if (!row) return null;
      return (row.selection ?? []).map(Number);
    },

    /**
     * Adds rows to a job's selection, removes them, or clears it, in one statement, so that changes
     * sent at once (two quick clicks, two server processes) all count. Answers how many rows are
     * selected then, or null when the job is not the caller's.
     */
    async changeJobSelection(
      id: string,
      userId: number,
      kind: string,
      change: { add: readonly number[] } | { remove: readonly number[] } | { clear: true },
    ): Promise<number | null> {
      const current = sql`coalesce(selection, '{}'::int[])`;
      const next =
        'clear' in change
          ? sql`'{}'::int[]`
          : 'add' in change
            ? sql`array(select distinct x from unnest(${current} || ${intArray(change.add)}) as x order by x)`
            : sql`array(select x from unnest(${current}) as x where x <> all(${intArray(change.remove)}))`;
      const [row] = await rows<{ selected: number }>(
        sql`update ${jobResults} set selection = ${next}
          where id = ${id} and user_id = ${userId} and kind = ${kind}
          returning cardinality(selection) as selected`,
      );
      return row ? Number(row.selected) : null;
    },
  };
}

export type AnalyticsRepository = ReturnType<typeof createAnalyticsRepository>;

/** Respondent conditions (alias r) of the demographic filters and the results-table conditions. */
export function respondentConditions(
  demographics: {
    gender?: string[] | null;
    ethnicity?: string[] | null;
    socialClass?: string[] | null;
    bumo?: string[] | null;
    startAge?: number | null;
    endAge?: number | null;
  },
  conditions: readonly (
    | { field: 'gender' | 'ethnicity' | 'social_class' | 'bumo'; filter: { type: 'equal'; value: string } }
    | { field: 'age'; filter: { type: 'range'; from: number; to: number } }
  )[],
): RespondentConditions {
  const list: SQL[] = [];
  let stats: SQL[] | null = [];
  // Each condition also as a test, with SQL's rule that a missing value fails: gender and age ones
  // over the statistics too, the others over the respondents' traits alone.
  const tests: DemographicMatch[] = [];
  const traitTests: Record<'ethnicity' | 'social_class' | 'bumo', TraitTest[]> = {
    ethnicity: [],
    social_class: [],
    bumo: [],
  };
  const valueIn = (values: readonly string[]): TraitTest => {
    const wanted = new Set(values);
    return (value) => value !== null && wanted.has(value);
  };
  const genderIn = (values: readonly string[]) => {
    stats?.push(sql`d.gender = any(${sqlTextArray(values)})`);
    const test = valueIn(values);
    tests.push((gender) => test(gender));
  };
  const ageWithin = (from: number | null, to: number | null) => {
    if (from !== null) stats?.push(sql`d.age >= ${from}`);
    if (to !== null) stats?.push(sql`d.age <= ${to}`);
    tests.push((_, age) => age !== null && (from === null || age >= from) && (to === null || age <= to));
  };
  const columns = {
    gender: 'gender',
    ethnicity: 'ethnicity',
    socialClass: 'social_class',
    bumo: 'bumo',
  } as const;
  for (const [key, column] of Object.entries(columns) as [keyof typeof columns, string][]) {
    const values = [...new Set(demographics[key] ?? [])];
    if (values.length === 0) continue;
    list.push(sql`${sql.raw(`r.${column}`)} = any(${sqlTextArray(values)})`);
    if (column === 'gender') genderIn(values);
    else {
      stats = null;
      traitTests[column as keyof typeof traitTests].push(valueIn(values));
    }
  }
  if (demographics.startAge != null) list.push(sql`r.age >= ${demographics.startAge}`);
  if (demographics.endAge != null) list.push(sql`r.age <= ${demographics.endAge}`);
  if (demographics.startAge != null || demographics.endAge != null)
    ageWithin(demographics.startAge ?? null, demographics.endAge ?? null);
  for (const condition of conditions) {
    if (condition.field === 'age') {
      list.push(sql`r.age between ${condition.filter.from} and ${condition.filter.to}`);
      ageWithin(condition.filter.from, condition.filter.to);
    } else {
      list.push(sql`${sql.raw(`r.${condition.field}`)} = ${condition.filter.value}`);
      if (condition.field === 'gender') genderIn([condition.filter.value]);
      else {
        stats = null;
        traitTests[condition.field].push(valueIn([condition.filter.value]));
      }
    }
  }
  const genderAndAge: DemographicMatch = (gender, age) => tests.every((test) => test(gender, age));
  const traitMatch = (group: TraitTest[]): TraitTest | null =>
    group.length === 0 ? null : (value) => group.every((test) => test(value));
  const matcher: RespondentMatcher = {
    genderAndAge,
    ethnicity: traitMatch(traitTests.ethnicity),
    socialClass: traitMatch(traitTests.social_class),
    bumo: traitMatch(traitTests.bumo),
  };
  const match: DemographicMatch | null = stats === null ? null : genderAndAge;
  return Object.assign(list, { stats, match, matcher });
}
