/**
 * The SQL of the study search: tab counts, result pages, export rows, option counts under the
 * current filters, and the bulk tag edit. Filters arrive compiled (search-filters.ts) together with
 * the caller's study scope; every query here that reads study data is limited by that scope.
 */
import type { ResultSortKey } from '@accord/contracts';
import { and, asc, count, desc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { dataFingerprint } from '../../db/data-versions.ts';
import { recordStudyEdits, type StudyEditAudit, type StudyFieldChange } from '../../lib/study-history.ts';
import { concepts, fragrances, studies, studyFiles } from '../../db/schema.ts';
import {
  FIELD_SEPARATOR,
  MISSING_VALUE,
  ROW_SEPARATOR,
  type DelimitedRows,
} from '../../lib/xlsx-writer-report.ts';
import {
  allOf,
  c,
  f,
  fileNameMatches,
  s,
  sf,
  studyWhere,
  type CompiledFilters,
  type Condition,
  type FacetGroup,
} from './search-filters.ts';

type FileType = (typeof studyFiles.$inferSelect)['fileType'];

/** Where the values of an option field live, per group; array columns are unnested. */
interface FacetSource {
  expression: SQL;
  array: boolean;
}

const column = (col: AnyPgColumn, array = false): FacetSource => ({ expression: sql`${col}`, array });

/** The option fields the search screen filters on (document 2 section 3, dropdown option lists). */
export const FACET_SOURCES: Record<FacetGroup, Record<string, FacetSource>> = {
  metadata: {
    client: column(s.client),
    product_area: column(s.productArea, true),
    category: column(s.category),
    product_type: column(s.productType),
    region: column(s.region, true),
    country: column(s.country, true),
    research_type: column(s.researchType, true),
    cmi_tool_type: column(s.cmiToolType, true),
    design_method: column(s.designMethod),
    methodology: column(s.methodology),
    panel_profile: column(s.panelProfile),
  },
  fragrance: {
    perfumer_name: column(f.perfumerName),
    region: column(f.region),
    family: column(f.family),
    subfamily: column(f.subfamily),
    specifier: column(f.specifier),
    country: column(f.country),
    methodology: column(f.methodology),
    bench_create: {
      expression: sql`case when ${f.creative} then 'creative' else 'benchmark' end`,
      array: false,
    },
  },
  concept: {
    theme: column(c.theme),
    region: column(c.region),
    country: column(c.country),
    ingredient_1: column(c.ingredient1),
    ingredient_2: column(c.ingredient2),
  },
};

/** facet (`group.field`) -> value -> count. */
export type FacetCounts = Map<string, Map<string, number>>;

export interface PageRequest {
  page: number;
  perPage: number;
  /** A column of the table's SORT_COLUMNS, then its direction. */
  sort?: { key: ResultSortKey; order: 'asc' | 'desc' };
}

/** The columns each result table sorts by, by row field (contracts RESULT_SORT_KEYS). */
export const SORT_COLUMNS = {
  summaries: {
    c_mi_number: s.cMiNumber,
    project_name: s.projectName,
    client: s.client,
    category: s.category,
    product_type: s.productType,
    pace_number: s.paceNumber,
    methodology: s.methodology,
    design_method: s.designMethod,
    lead_country: s.leadCountry,
  },
  fragrances: {
    c_mi_number: s.cMiNumber,
    project_name: s.projectName,
    client: s.client,
    category: s.category,
    product_type: s.productType,
    name: f.name,
    ref_number: f.refNumber,
    code: f.code,
    fragrance_code: f.fragranceCode,
    methodology: f.methodology,
    perfumer_name: f.perfumerName,
    family: f.family,
    subfamily: f.subfamily,
    specifier: f.specifier,
  },
  concepts: {
    c_mi_number: s.cMiNumber,
    project_name: s.projectName,
    client: s.client,
    name: c.name,
    concept_code: c.conceptCode,
  },
  files: {
    c_mi_number: s.cMiNumber,
    project_name: s.projectName,
    client: s.client,
    category: s.category,
    product_type: s.productType,
    file_name: sf.name,
  },
} satisfies Record<string, Partial<Record<ResultSortKey, AnyPgColumn>>>;
export type SortedTable = keyof typeof SORT_COLUMNS;

/** The chosen column first (case-insensitive, empty last), then the table's own order. */
function orderOf(table: SortedTable, page: PageRequest | undefined, then: SQL[]): SQL[] {
  const column = page?.sort
    ? (SORT_COLUMNS[table] as Partial<Record<ResultSortKey, AnyPgColumn>>)[page.sort.key]
    : undefined;
  if (!column || !page?.sort) return then;
  const direction = sql.raw(page.sort.order === 'desc' ? 'desc' : 'asc');
  return [sql`lower(${column}) ${direction} nulls last`, ...then];
}

const studySummaryColumns = {
  id: s.id,
  category: s.category,
  productType: s.productType,
  client: s.client,
  cMiNumber: s.cMiNumber,
  projectName: s.projectName,
  paceNumber: s.paceNumber,
  methodology: s.methodology,
  designMethod: s.designMethod,
  country: s.country,
  region: s.region,
  leadCountry: s.leadCountry,
  productArea: s.productArea,
  researchType: s.researchType,
  cmiToolType: s.cmiToolType,
  evaluation: s.evaluation,
};

const fragranceColumns = {
  id: f.id,
  studyId: f.studyId,
  category: s.category,
  productType: s.productType,
  client: s.client,
  cMiNumber: s.cMiNumber,
  projectName: s.projectName,
  name: f.name,
  refNumber: f.refNumber,
  code: f.code,
  fragranceCode: f.fragranceCode,
  methodology: f.methodology,
  perfumerName: f.perfumerName,
  region: f.region,
  country: f.country,
  family: f.family,
  subfamily: f.subfamily,
  specifier: f.specifier,
  level: f.level,
  supplementalInfo: f.supplementalInfo,
  dominantNote1: f.dominantNote1,
  dominantNote2: f.dominantNote2,
  dominantNote3: f.dominantNote3,
  dominantNote4: f.dominantNote4,
  dominantNote5: f.dominantNote5,
};

const conceptColumns = {
  id: c.id,
  name: c.name,
  conceptCode: c.conceptCode,
  region: c.region,
  country: c.country,
  studyId: c.studyId,
  cMiNumber: s.cMiNumber,
  projectName: s.projectName,
  client: s.client,
};

/**
 * The columns of each result tab's spreadsheet, by the field the tab's rows name them (the
 * presenters' fields: presentStudySummary, presentFragrance, presentConcept).
 */
export const EXPORT_COLUMNS = {
  summaries: {
    id: s.id,
    category: s.category,
    product_type: s.productType,
    client: s.client,
    c_mi_number: s.cMiNumber,
    project_name: s.projectName,
    pace_number: s.paceNumber,
    methodology: s.methodology,
    design_method: s.designMethod,
    country: s.country,
    region: s.region,
    lead_country: s.leadCountry,
    business_unit: s.productArea,
    research_type: s.researchType,
    cmi_tool_type: s.cmiToolType,
    evaluation: s.evaluation,
  },
  fragrances: {
    id: f.id,
    category: s.category,
    product_type: s.productType,
    client: s.client,
    c_mi_number: s.cMiNumber,
    project_name: s.projectName,
    name: f.name,
    ref_number: f.refNumber,
    code: f.code,
    fragrance_code: f.fragranceCode,
    methodology: f.methodology,
    perfumer_name: f.perfumerName,
    region: f.region,
    country: f.country,
    family: f.family,
    subfamily: f.subfamily,
    specifier: f.specifier,
    level: f.level,
    supplemental_info: f.supplementalInfo,
    dominant_note_1: f.dominantNote1,
    dominant_note_2: f.dominantNote2,
    dominant_note_3: f.dominantNote3,
    dominant_note_4: f.dominantNote4,
    dominant_note_5: f.dominantNote5,
  },
  concepts: {
    id: c.id,
    name: c.name,
    concept_code: c.conceptCode,
    region: c.region,
    country: c.country,
    c_mi_number: s.cMiNumber,
    project_name: s.projectName,
    client: s.client,
  },
} satisfies Record<string, Record<string, AnyPgColumn>>;
export type ExportTab = keyof typeof EXPORT_COLUMNS;

/** A tab's spreadsheet rows as the database writes them: their count and one delimited text. */
export interface ExportRows {
  count: number;
  /** The rows, each its sort keys then the asked columns' values (lists joined as "a, b"), unsorted. */
  text: DelimitedRows;
  /**
   * The same rows read again as one JSON text, in the tab's order (an array of rows, each the array
   * of the asked columns' values, lists as arrays): for a text that does not read as its rows.
   */
  json(): Promise<string>;
}

/**
 * A value as the delimited text of the exports (DelimitedRows) holds it: a text as it is, a list
 * joined as "a, b" (an empty list missing), a number as PostgreSQL writes it (the digits JSON
 * has), a missing value as MISSING_VALUE.
 */
function delimitedValue(column: AnyPgColumn): { value: SQL; numeric: boolean } {
  const missing = sql`${MISSING_VALUE}::text`;
  if (column.dataType === 'array')
    return {
      value: sql`coalesce(case when cardinality(${column}) = 0 then null else array_to_string(${column}, ', ', '') end, ${missing})`,
      numeric: false,
    };
  if (column.dataType === 'number')
    return { value: sql`coalesce(${column}::text, ${missing})`, numeric: true };
  if (column.dataType === 'string') return { value: sql`coalesce(${column}, ${missing})`, numeric: false };
  throw new Error(`An export cannot hold the ${column.dataType} column ${column.name}.`);
}

const fileColumns = {
  id: sf.id,
  studyId: sf.studyId,
  category: s.category,
  productType: s.productType,
  client: s.client,
  cMiNumber: s.cMiNumber,
  projectName: s.projectName,
  fileName: sf.name,
  fileType: sf.fileType,
};

/** Newest studies first; rows of one study stay together in id order. */
const studyOrder = [desc(s.year), desc(s.id)];

const FILE_TYPES = [
  'report',
  'questionnaire',
  'protocol',
  'RDF',
  'screener',
] as const satisfies readonly FileType[];

/** Runs a list query for one page (with the total of all pages) or, without a page, for all rows. */
async function pageOf<T>(
  list: PromiseLike<T[]> & { limit(limit: number): { offset(offset: number): PromiseLike<T[]> } },
  total: () => PromiseLike<{ total: number }[]>,
  page: PageRequest | undefined,
): Promise<{ rows: T[]; total: number }> {
  if (!page) {
    const all = await list;
    return { rows: all, total: all.length };
  }
  const [found, [counted]] = await Promise.all([
    list.limit(page.perPage).offset((page.page - 1) * page.perPage),
    total(),
  ]);
  return { rows: found, total: counted?.total ?? 0 };
}

/** A study column that the bulk edit may write: its property, SQL name, whether it is a list. */
export interface TagColumn {
  property: string;
  field: string;
  array: boolean;
  notNull: boolean;
}

/** Text and text[] columns of studies, by server field name. */
export const STUDY_TAG_COLUMNS: ReadonlyMap<string, TagColumn> = new Map(
  Object.entries(getTableColumns(studies))
    .filter(([, col]) => col.getSQLType() === 'text' || col.getSQLType() === 'text[]')
    .map(([property, col]) => [
      col.name,
      { property, field: col.name, array: col.getSQLType() === 'text[]', notNull: col.notNull },
    ]),
);

/**
 * How one table's option fields are counted: the filters on counted fields become flags (k0, k1 ...),
 * the other filters of the table (verified, years, free text) must hold.
 */
interface FacetPlan {
  group: FacetGroup;
  flags: { facet: string; name: string }[];
  required: Condition[];
  selectValues: SQL;
  selectFlags: SQL;
}

function facetPlan(group: FacetGroup, conditions: Condition[], fields: string[], prefix: string): FacetPlan {
  const counted = new Set(fields.map((field) => `${group}.${field}`));
  const flagged = conditions.filter((condition) => counted.has(condition.facet));
  const flags = flagged.map((condition, index) => ({
    facet: condition.facet,
    name: `${prefix}${index}`,
    sql: condition.sql,
  }));
  return {
    group,
    flags,
    required: conditions.filter((condition) => !counted.has(condition.facet)),
    selectValues: sql.join(
      fields.map((field) => sql`, ${FACET_SOURCES[group][field]!.expression} as ${sql.raw(`"v_${field}"`)}`),
    ),
    selectFlags: sql.join(flags.map((flag) => sql`, (${flag.sql}) as ${sql.raw(flag.name)}`)),
  };
}

/**
 * Counts of single-value fields in one pass over `source` (a subquery aliased x holding v_<field>
 * and the plan's flags): a value's count is the rows passing every flag, plus the rows failing only
 * its own field's flag.
 */
function groupedCounts(plan: FacetPlan, fields: string[], source: SQL): SQL {
  const failures =
    plan.flags.length === 0
      ? sql`0`
      : sql.join(
          plan.flags.map((flag) => sql.raw(`(not x.${flag.name})::int`)),
          sql` + `,
        );
  const valueOf = (field: string) => sql.raw(`x."v_${field}"`);
  const cases = (then: (field: string) => SQL) =>
    sql`case ${sql.join(
      fields.map((field) => sql`when grouping(${valueOf(field)}) = 0 then ${then(field)}`),
      sql` `,
    )} end`;
  const countOf = (field: string) => {
    const own = plan.flags.find((flag) => flag.facet === `${plan.group}.${field}`);
    const passing = sql`count(*) filter (where ${failures} = 0)`;
    return own ? sql`${passing} + count(*) filter (where not ${sql.raw(`x.${own.name}`)})` : passing;
  };
  return sql`select ${cases((field) => sql`${`${plan.group}.${field}`}::text`)} as facet,
      ${cases((field) => sql`${valueOf(field)}::text`)} as value,
      (${cases(countOf)})::int as n
    from ${source}
    where ${failures} <= 1
    group by grouping sets (${sql.join(
      fields.map((field) => sql`(${valueOf(field)})`),
      sql`, `,
    )})`;
}

export function createSearchRepository(db: Db) {
  async function rows<T>(query: SQL): Promise<T[]> {
    const result = (await db.execute(query)) as unknown as { rows: T[] };
    return result.rows;
  }

  return {
    /**
     * Counts of every result tab: the studies the filters select, their fragrances and concepts that
     * meet the fragrance and concept filters, and their files by type whose names match the phrase.
     */
    async tabCounts(
      compiled: CompiledFilters,
      scope: SQL,
      phrase: string | null | undefined,
    ): Promise<{ summaries: number; fragrances: number; concepts: number; files: Record<FileType, number> }> {
      const [row] = await rows<
        { summaries: number; fragrances: number; concepts: number } & Record<FileType, number>
      >(sql`
        with ms as materialized (select ${s.id} as id from ${studies} s where ${studyWhere(compiled, scope)})
        select
          (select count(*)::int from ms) as summaries,
          (select count(*)::int from ${fragrances} f join ms on ms.id = ${f.studyId} where ${allOf(compiled.fragrance)}) as fragrances,
          (select count(*)::int from ${concepts} c join ms on ms.id = ${c.studyId} where ${allOf(compiled.concept)}) as concepts,
          files.*
        from (
          select ${sql.join(
            FILE_TYPES.map(
              (type) => sql`count(*) filter (where ${sf.fileType} = ${type})::int as ${sql.raw(`"${type}"`)}`,
            ),
            sql`, `,
          )}
          from ${studyFiles} sf join ms on ms.id = ${sf.studyId}
          where ${fileNameMatches(phrase)}
        ) files`);
      if (!row) throw new Error('tab counts answered no row');
      const { summaries, fragrances: fragranceCount, concepts: conceptCount, ...files } = row;
      return { summaries, fragrances: fragranceCount, concepts: conceptCount, files };
    },

    /** A page (or, without one, all) of the studies the filters select, with their total. */
    async studySummaries(compiled: CompiledFilters, scope: SQL, page?: PageRequest) {
      const where = studyWhere(compiled, scope);
      const list = db
        .select(studySummaryColumns)
        .from(s)
        .where(where)
        .orderBy(...orderOf('summaries', page, studyOrder))
        .$dynamic();
      const total = () => db.select({ total: count() }).from(s).where(where);
      return pageOf(list, total, page);
    },

    /** A page (or all) of the fragrances meeting the fragrance filters, of studies the filters select. */
    async fragrances(compiled: CompiledFilters, scope: SQL, page?: PageRequest) {
      const where = and(studyWhere(compiled, scope, { fragrances: false }), allOf(compiled.fragrance));
      const list = db
        .select(fragranceColumns)
        .from(f)
        .innerJoin(s, eq(s.id, f.studyId))
        .where(where)
        .orderBy(...orderOf('fragrances', page, [...studyOrder, asc(f.id)]))
        .$dynamic();
      const total = () =>
        db.select({ total: count() }).from(f).innerJoin(s, eq(s.id, f.studyId)).where(where);
      return pageOf(list, total, page);
    },

    /** A page (or all) of the concepts meeting the concept filters, of studies the filters select. */
    async concepts(compiled: CompiledFilters, scope: SQL, page?: PageRequest) {
      const where = and(studyWhere(compiled, scope, { concepts: false }), allOf(compiled.concept));
      const list = db
        .select(conceptColumns)
        .from(c)
        .innerJoin(s, eq(s.id, c.studyId))
        .where(where)
        .orderBy(...orderOf('concepts', page, [...studyOrder, asc(c.id)]))
        .$dynamic();
      const total = () =>
        db.select({ total: count() }).from(c).innerJoin(s, eq(s.id, c.studyId)).where(where);
      return pageOf(list, total, page);
    },

    /**
     * All rows of a result tab for its spreadsheet, as one delimited text the database writes (see
     * DelimitedRows), with their count: the server neither parses nor builds a row, the worker thread
     * that writes the file sorts and reads the text. Concatenating plain texts costs the database a
     * third of writing JSON (which escapes each character), and leaving the order to the thread saves
     * it a sort of the wide rows that spilled to disk at 21,000 fragrances (about 190 ms of the
     * database's time per export before, 50-70 ms now, on the 3,000-study library).
     */
    async exportRows(
      tab: ExportTab,
      compiled: CompiledFilters,
      scope: SQL,
      keys: readonly string[],
    ): Promise<ExportRows> {
      const named = EXPORT_COLUMNS[tab] as Record<string, AnyPgColumn>;
      const columns = keys.map((key) => {
        const column = named[key];
        if (!column) throw new Error(`The ${tab} spreadsheet has no column ${key}.`);
        return column;
      });
      // Each row's keys: the tab's order (studyOrder, then the row's id), ascending or descending.
      const source = {
        summaries: {
          from: sql`${studies} s`,
          where: studyWhere(compiled, scope),
          keys: [s.year, s.id],
          order: ['desc', 'desc'] as const,
        },
        fragrances: {
          from: sql`${fragrances} f inner join ${studies} s on ${s.id} = ${f.studyId}`,
          where:
            and(studyWhere(compiled, scope, { fragrances: false }), allOf(compiled.fragrance)) ?? sql`true`,
          keys: [s.year, s.id, f.id],
          order: ['desc', 'desc', 'asc'] as const,
        },
        concepts: {
          from: sql`${concepts} c inner join ${studies} s on ${s.id} = ${c.studyId}`,
          where: and(studyWhere(compiled, scope, { concepts: false }), allOf(compiled.concept)) ?? sql`true`,
          keys: [s.year, s.id, c.id],
          order: ['desc', 'desc', 'asc'] as const,
        },
      }[tab];
      const values = columns.map(delimitedValue);
      const fields = [...source.keys.map((key) => sql`${key}`), ...values.map((value) => value.value)];
      const [row] = await rows<{ count: number; text: string | null }>(sql`
        select count(*)::int as count,
          string_agg(concat_ws(${FIELD_SEPARATOR}::text, ${sql.join(fields, sql`, `)}), ${ROW_SEPARATOR}::text) as text
        from ${source.from}
        where ${source.where}`);
      const order = source.keys.map((key, index) => (source.order[index] === 'desc' ? desc(key) : asc(key)));
      return {
        count: row?.count ?? 0,
        text: {
          text: row?.text ?? '',
          count: row?.count ?? 0,
          order: source.order,
          numeric: values.map((value) => value.numeric),
        },
        json: async () => {
          const [found] = await rows<{ json: string }>(sql`
            select coalesce(json_agg(json_build_array(${sql.join(columns, sql`, `)}) order by ${sql.join(order, sql`, `)}), '[]')::text as json
            from ${source.from}
            where ${source.where}`);
          return found?.json ?? '[]';
        },
      };
    },

    /** A page of the files of the given types, of studies the filters select, whose names match. */
    async files(
      compiled: CompiledFilters,
      scope: SQL,
      options: { types: FileType[]; phrase?: string | null },
      page: PageRequest,
    ) {
      const where = and(
        studyWhere(compiled, scope),
        inArray(sf.fileType, options.types),
        fileNameMatches(options.phrase),
      );
      const list = db
        .select(fileColumns)
        .from(sf)
        .innerJoin(s, eq(s.id, sf.studyId))
        .where(where)
        .orderBy(...orderOf('files', page, [...studyOrder, asc(sf.fileType), asc(sf.name), asc(sf.id)]))
        .$dynamic();
      const total = () =>
        db.select({ total: count() }).from(sf).innerJoin(s, eq(s.id, sf.studyId)).where(where);
      return pageOf(list, total, page);
    },

    /**
     * A text that changes whenever a row is added to, changed in or removed from the tables the
     * option lists are made of: their change counters (data_versions, raised at each commit).
     */
    async optionsFingerprint(): Promise<string> {
      return dataFingerprint(db, ['studies', 'fragrances', 'concepts', 'field_definitions', 'field_options']);
    },

    /** What the library holds within the scope, without filters. */
    async libraryCounts(scope: SQL): Promise<{ studies: number; fragrances: number; concepts: number }> {
      const [row] = await rows<{ studies: number; fragrances: number; concepts: number }>(sql`
        with ms as materialized (select ${s.id} as id from ${studies} s where ${scope})
        select (select count(*)::int from ms) as studies,
          (select count(*)::int from ${fragrances} f join ms on ms.id = ${f.studyId}) as fragrances,
          (select count(*)::int from ${concepts} c join ms on ms.id = ${c.studyId}) as concepts`);
      return row ?? { studies: 0, fragrances: 0, concepts: 0 };
    },

    /**
     * How many studies (metadata fields), fragrances or concepts carry each value of the requested
     * option fields, each field counted under every filter except its own. Filters on counted fields
     * become flags: a row failing two of them counts nowhere, a row failing one counts only for that
     * filter's field. Single-value fields of a table are grouped in one pass (grouping sets), list
     * fields one by one. One statement per table, run side by side on PostgreSQL's pooled
     * connections; they read the base tables directly, which costs far less than re-reading a
     * materialised copy.
     */
    async facetCounts(
      compiled: CompiledFilters,
      scope: SQL,
      fields: Record<FacetGroup, string[]>,
    ): Promise<FacetCounts> {
      const plans = {
        metadata: facetPlan('metadata', compiled.study, fields.metadata, 'k'),
        fragrance: facetPlan('fragrance', compiled.fragrance, fields.fragrance, 'g'),
        concept: facetPlan('concept', compiled.concept, fields.concept, 'h'),
      };
      // Studies having a fragrance (concept) that meets every fragrance (concept) filter, found once.
      const fragranceSet = sql`fm as materialized (select distinct ${f.studyId} as study_id from ${fragrances} f where ${allOf(compiled.fragrance)})`;
      const conceptSet = sql`cm as materialized (select distinct ${c.studyId} as study_id from ${concepts} c where ${allOf(compiled.concept)})`;
      const hasFragranceFilters = compiled.fragrance.length > 0;
      const hasConceptFilters = compiled.concept.length > 0;
      const inFragranceSet = hasFragranceFilters ? sql`${s.id} in (select study_id from fm)` : sql`true`;
      const inConceptSet = hasConceptFilters ? sql`${s.id} in (select study_id from cm)` : sql`true`;
      const withSets = (sets: SQL[], body: SQL) =>
        sets.length === 0 ? body : sql`with ${sql.join(sets, sql`, `)} ${body}`;

      const statements: SQL[] = [];
      const metadataStudies = sql`(${scope}) and ${allOf(plans.metadata.required)} and ${inFragranceSet} and ${inConceptSet}`;
      const metadataSelects: SQL[] = [];
      const scalars = fields.metadata.filter((field) => !FACET_SOURCES.metadata[field]!.array);
      if (scalars.length > 0) {
        metadataSelects.push(
          groupedCounts(
            plans.metadata,
            scalars,
            sql`(select ${s.id} as id${plans.metadata.selectValues}${plans.metadata.selectFlags} from ${studies} s where ${metadataStudies}) x`,
          ),
        );
      }
      for (const field of fields.metadata.filter((name) => FACET_SOURCES.metadata[name]!.array)) {
        const facet = `metadata.${field}`;
        metadataSelects.push(sql`select ${facet}::text as facet, u.v::text as value, count(distinct ${s.id})::int as n
          from ${studies} s cross join lateral unnest(${FACET_SOURCES.metadata[field]!.expression}) as u(v)
          where ${metadataStudies} and ${allOf(compiled.study, facet)}
          group by u.v`);
      }
      if (metadataSelects.length > 0) {
        statements.push(
          withSets(
            [...(hasFragranceFilters ? [fragranceSet] : []), ...(hasConceptFilters ? [conceptSet] : [])],
            sql.join(metadataSelects, sql` union all `),
          ),
        );
      }
      if (fields.fragrance.length > 0) {
        const source = sql`(select ${f.id} as id${plans.fragrance.selectValues}${plans.fragrance.selectFlags}
          from ${fragrances} f join ${studies} s on ${s.id} = ${f.studyId}
          where (${scope}) and ${allOf(compiled.study)} and ${inConceptSet} and ${allOf(plans.fragrance.required)}) x`;
        statements.push(
          withSets(
            hasConceptFilters ? [conceptSet] : [],
            groupedCounts(plans.fragrance, fields.fragrance, source),
          ),
        );
      }
      if (fields.concept.length > 0) {
        const source = sql`(select ${c.id} as id${plans.concept.selectValues}${plans.concept.selectFlags}
          from ${concepts} c join ${studies} s on ${s.id} = ${c.studyId}
          where (${scope}) and ${allOf(compiled.study)} and ${inFragranceSet} and ${allOf(plans.concept.required)}) x`;
        statements.push(
          withSets(
            hasFragranceFilters ? [fragranceSet] : [],
            groupedCounts(plans.concept, fields.concept, source),
          ),
        );
      }

      const found = (
        await Promise.all(
          statements.map((statement) => rows<{ facet: string; value: string | null; n: number }>(statement)),
        )
      ).flat();
      const result: FacetCounts = new Map();
      for (const row of found) {
        if (row.value === null || row.value === '' || row.n === 0) continue;
        if (!result.has(row.facet)) result.set(row.facet, new Map());
        result.get(row.facet)!.set(row.value, row.n);
      }
      return result;
    },

    /**
     * Runs the bulk tag edit in one transaction: `plan` receives the current tags of the visible
     * studies asked for (locked) and answers the new values and history rows to write, or throws
     * to leave everything unchanged.
     */
    async bulkEditTags(
      studyIds: number[],
      scope: SQL,
      columns: TagColumn[],
      plan: (current: Map<number, Record<string, string | string[] | null>>) => {
        set: Record<string, string | string[] | null>;
        changedStudyIds: number[];
        history: { studyId: number; changes: StudyFieldChange[] }[];
      },
      audit: StudyEditAudit,
    ): Promise<number> {
      return db.transaction(async (tx) => {
        const aliased = getTableColumns(s);
        const tags = Object.fromEntries(
          columns.map((col) => [col.field, aliased[col.property as keyof typeof aliased]]),
        );
        const locked = await tx
          .select({ id: s.id, ...tags })
          .from(s)
          .where(and(inArray(s.id, studyIds), scope))
          .orderBy(s.id)
          .for('update');
        const current = new Map(
          locked.map(({ id, ...values }) => [id, values as Record<string, string | string[] | null>]),
        );
        const { set, changedStudyIds, history } = plan(current);
        if (changedStudyIds.length === 0) return 0;
        const values: Record<string, unknown> = { updatedAt: audit.now };
        for (const col of columns) values[col.property] = set[col.field] ?? null;
        await tx
          .update(studies)
          .set(values as Partial<typeof studies.$inferInsert>)
          .where(inArray(studies.id, changedStudyIds));
        await recordStudyEdits(
          tx,
          audit,
          history.map((entry) => ({
            studyId: entry.studyId,
            type: 'study' as const,
            changes: entry.changes,
          })),
        );
        return changedStudyIds.length;
      });
    },
  };
}

export type SearchRepository = ReturnType<typeof createSearchRepository>;

export type StudySummaryRecord = Awaited<ReturnType<SearchRepository['studySummaries']>>['rows'][number];
export type FragranceRecord = Awaited<ReturnType<SearchRepository['fragrances']>>['rows'][number];
export type ConceptRecord = Awaited<ReturnType<SearchRepository['concepts']>>['rows'][number];
export type FileRecord = Awaited<ReturnType<SearchRepository['files']>>['rows'][number];
