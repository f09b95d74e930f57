/**
 * Field definitions with their options, and how many studies (fragrances, concepts, respondents)
 * carry each value, counted over the studies the user may see.
 */
import { asc, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { fieldDefinitions, fieldOptions } from '../../db/schema.ts';

export type FieldGroup = 'metadata' | 'fragrance' | 'concept' | 'demographics';

/** Where the values of a field live. Array columns are unnested; bench_create reads creative. */
const SOURCES: Record<
  FieldGroup,
  { table: string; alias: string; arrays: Set<string>; columns: Set<string> }
> = {
  metadata: {
    table: 'studies',
    alias: 'studies',
    arrays: new Set([
      'product_area',
      'region',
      'country',
      'research_type',
      'cmi_tool_type',
      'evaluation',
      'gender',
      'social_class',
    ]),
    columns: new Set([
      'client',
      'product_area',
      'division',
      'category',
      'product_type',
      'region',
      'lead_country',
      'country',
      'methodology',
      'panel_profile',
      'design_method',
      'research_type',
      'cmi_tool_type',
      'evaluation',
      'gender',
      'social_class',
      'age',
      'base',
    ]),
  },
  fragrance: {
    table: 'fragrances',
    alias: 'f',
    arrays: new Set(),
    columns: new Set([
      'perfumer_name',
      'region',
      'family',
      'subfamily',
      'specifier',
      'country',
      'methodology',
      'bench_create',
    ]),
  },
  concept: {
    table: 'concepts',
    alias: 'c',
    arrays: new Set(),
    columns: new Set(['theme', 'region', 'country', 'ingredient_1', 'ingredient_2']),
  },
  demographics: {
    table: 'respondents',
    alias: 'r',
    arrays: new Set(),
    columns: new Set(['gender', 'ethnicity', 'social_class']),
  },
};

export interface FieldRow {
  id: number;
  field: string;
  fieldGroup: FieldGroup;
  label: string;
  type: string;
  multivalue: boolean;
  editable: boolean;
  tagGroup: string | null;
  options: { value: string; label: string; parent: string | null }[];
}

export function createFieldsRepository(db: Db) {
  async function rows<T>(query: SQL): Promise<T[]> {
    const result = (await db.execute(query)) as unknown as { rows: T[] };
    return result.rows;
  }

  return {
    async definitions(): Promise<FieldRow[]> {
      const defs = await db
        .select()
        .from(fieldDefinitions)
        .orderBy(asc(fieldDefinitions.sortOrder), asc(fieldDefinitions.id));
      const options = await db
        .select()
        .from(fieldOptions)
        .orderBy(asc(fieldOptions.sortOrder), asc(fieldOptions.value));
      return defs.map((def) => ({
        id: def.id,
        field: def.field,
        fieldGroup: def.fieldGroup,
        label: def.label,
        type: def.type,
        multivalue: def.multivalue,
        editable: def.editable,
        tagGroup: def.tagGroup,
        options: options
          .filter((option) => option.fieldId === def.id)
          .map((option) => ({ value: option.value, label: option.label, parent: option.parentValue })),
      }));
    },

    /**
     * Counts of each value of the given fields of one group, in one query, over the visible studies.
     * Answers field -> value -> count.
     */
    async counts(group: FieldGroup, fields: string[], scope: SQL): Promise<Map<string, Map<string, number>>> {
      const source = SOURCES[group];
      const known = fields.filter((field) => source.columns.has(field));
      const result = new Map<string, Map<string, number>>();
      if (known.length === 0) return result;
      const join =
        group === 'metadata' ? sql`` : sql.raw(` join studies on studies.id = ${source.alias}.study_id`);
      const parts = known.map((field) => {
        const column =
          field === 'bench_create'
            ? `case when f.creative then 'creative' else 'benchmark' end`
            : `${source.alias}.${field}`;
        const valueExpr = source.arrays.has(field) ? `unnest(${column})` : column;
        // Counts are numbers of studies (document 3 section 3.1), whatever table holds the value.
        return sql`select ${field}::text as field, v::text as value, count(distinct studies.id)::int as n
          from ${sql.raw(group === 'metadata' ? 'studies' : `${source.table} ${source.alias}`)}${join}
          cross join lateral (select ${sql.raw(valueExpr)} as v) x
          where ${scope} and v is not null and v::text <> ''
          group by v`;
      });
      const all = await rows<{ field: string; value: string; n: number }>(sql.join(parts, sql` union all `));
      for (const row of all) {
        if (!result.has(row.field)) result.set(row.field, new Map());
        result.get(row.field)!.set(row.value, row.n);
      }
      return result;
    },

    /** Changes whenever a study is added, removed or edited: the key of cached counts. */
    async dataVersion(): Promise<string> {
      const [row] = await rows<{ n: number; updated: string | null }>(
        sql`select count(*)::int as n, max(updated_at)::text as updated from studies`,
      );
      return `${row?.n ?? 0}:${row?.updated ?? ''}`;
    },

    async years(scope: SQL): Promise<{ min: number | null; max: number | null }> {
      const [row] = await rows<{ min: number | null; max: number | null }>(
        sql`select min(year)::int as min, max(year)::int as max from studies where ${scope}`,
      );
      return row ?? { min: null, max: null };
    },
  };
}

export type FieldsRepository = ReturnType<typeof createFieldsRepository>;
