/**
 * The SQL of norms: the products of a norm base (the library's verified studies, whatever the
 * caller's scope: a norm is an anonymous aggregate of the whole library), the options of the base's
 * filters, and one product read within the caller's scope.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { dataFingerprint } from '../../db/data-versions.ts';
import { concepts, fragrances, products, studies } from '../../db/schema.ts';

/** The filters of a norm base (null: not narrowed). */
export interface BaseFilters {
  category: string;
  region: string | null;
  productType: string | null;
  methodology: string | null;
  yearFrom: number | null;
  yearTo: number | null;
  kind: 'fragrance' | 'concept';
}

/** The products of a base, in columns: ids, their study and client (as an index into `clients`), years. */
export interface BaseProducts {
  ids: number[];
  studyIds: number[];
  clientIndex: number[];
  years: number[];
  clients: string[];
}

/** A product read for its percentile rank. */
export interface ProductRow {
  id: number;
  kind: 'fragrance' | 'concept';
  code: string;
  name: string | null;
  category: string | null;
}

export function createNormsRepository(db: Db) {
  async function rows<T>(query: SQL): Promise<T[]> {
    const result = (await db.execute(query)) as unknown as { rows: T[] };
    return result.rows;
  }

  return {
    /** Changes whenever anything a norm is computed from changes (as the analytics caches follow). */
    fingerprint(): Promise<string> {
      return dataFingerprint(db, ['studies', 'fragrances', 'concepts', 'products', 'questions']);
    },

    /** The products of the base: verified studies of the category, narrowed by the other filters. */
    async baseProducts(base: BaseFilters): Promise<BaseProducts> {
      const parts: SQL[] = [sql`s.verified`, sql`p.kind = ${base.kind}`, sql`s.category = ${base.category}`];
      if (base.region !== null) parts.push(sql`${base.region} = any(s.region)`);
      if (base.productType !== null) parts.push(sql`s.product_type = ${base.productType}`);
      if (base.methodology !== null) parts.push(sql`s.methodology = ${base.methodology}`);
      if (base.yearFrom !== null) parts.push(sql`s.year >= ${base.yearFrom}`);
      if (base.yearTo !== null) parts.push(sql`s.year <= ${base.yearTo}`);
      // One JSON text of arrays: thousands of rows parsed at once rather than field by field.
      const [row] = await rows<{ j: string | null }>(sql`select json_agg(json_build_array(
          x.id, x.study_id, x.client, x.year) order by x.id)::text as j
        from (select p.id, p.study_id, s.client, s.year from ${products} p
          join ${studies} s on s.id = p.study_id
          where ${sql.join(parts, sql` and `)}) x`);
      const found = row?.j ? (JSON.parse(row.j) as [number, number, string, number][]) : [];
      const clients: string[] = [];
      const clientNumber = new Map<string, number>();
      const result: BaseProducts = { ids: [], studyIds: [], clientIndex: [], years: [], clients };
      for (const [id, studyId, client, year] of found) {
        let index = clientNumber.get(client);
        if (index === undefined) {
          index = clients.length;
          clients.push(client);
          clientNumber.set(client, index);
        }
        result.ids.push(id);
        result.studyIds.push(studyId);
        result.clientIndex.push(index);
        result.years.push(year);
      }
      return result;
    },

    /**
     * One product within the scope (a condition on the studies table `s`), or null: by id, or by its
     * study, kind and code (as a profile's address names it).
     */
    async product(
      which: { id: number } | { studyId: number; code: string; kind: 'fragrance' | 'concept' },
      scope: SQL,
    ): Promise<ProductRow | null> {
      const match =
        'id' in which
          ? sql`p.id = ${which.id}`
          : sql`p.study_id = ${which.studyId} and p.kind = ${which.kind} and p.code = ${which.code}`;
      const [row] = await rows<ProductRow>(sql`select p.id, p.kind, p.code,
          coalesce(f.name, c.name) as name, s.category
        from ${products} p
        join ${studies} s on s.id = p.study_id
        left join ${fragrances} f on f.id = p.fragrance_id
        left join ${concepts} c on c.id = p.concept_id
        where ${match} and ${scope}`);
      return row ? { ...row, id: Number(row.id) } : null;
    },

    /** The values the base's filters offer, from the library's verified studies with products. */
    async options(): Promise<{
      categories: string[];
      regions: string[];
      productTypes: { value: string; category: string }[];
      methodologies: string[];
      years: { min: number; max: number } | null;
    }> {
      const withProducts = sql`s.verified and exists (select 1 from ${products} p where p.study_id = s.id)`;
      const [categories, regions, productTypes, methodologies, years] = await Promise.all([
        rows<{ v: string }>(sql`select distinct s.category as v from ${studies} s
          where ${withProducts} and s.category is not null order by 1`),
        rows<{ v: string }>(sql`select distinct r.v from ${studies} s, unnest(s.region) as r(v)
          where ${withProducts} order by 1`),
        rows<{ v: string; c: string }>(sql`select distinct s.product_type as v, s.category as c
          from ${studies} s
          where ${withProducts} and s.product_type is not null and s.category is not null order by 1, 2`),
        rows<{ v: string }>(sql`select distinct s.methodology as v from ${studies} s
          where ${withProducts} and s.methodology is not null order by 1`),
        rows<{ min: number | null; max: number | null }>(sql`select min(s.year)::int as min,
          max(s.year)::int as max from ${studies} s where ${withProducts}`),
      ]);
      const range = years[0];
      return {
        categories: categories.map((row) => row.v),
        regions: regions.map((row) => row.v),
        productTypes: productTypes.map((row) => ({ value: row.v, category: row.c })),
        methodologies: methodologies.map((row) => row.v),
        years:
          range && range.min !== null && range.max !== null
            ? { min: Number(range.min), max: Number(range.max) }
            : null,
      };
    },
  };
}

export type NormsRepository = ReturnType<typeof createNormsRepository>;
