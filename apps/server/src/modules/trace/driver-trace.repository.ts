/**
 * The SQL of a driver's trace: the answers a pooled correlation is made of. For the products of a base,
 * each respondent's liking answer paired with the same respondent's answer to the attribute for the
 * same product, under the drivers' rules (answers inside the 5-point scale; a respondent's answers to
 * several questions of one metric for one product averaged first), with the study, product and
 * respondent they belong to.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { answers, products, respondents, studies } from '../../db/schema.ts';
import { intArray } from '../analytics/analytics.repository.ts';

/** One respondent's paired answers for one product. */
export interface PairedAnswer {
  studyId: number;
  productId: number;
  respondentId: number;
  liking: number;
  attribute: number;
}

/** A paired answer with the names the csv shows. */
export interface LabelledPair extends PairedAnswer {
  cMiNumber: string;
  productCode: string;
  respondentCode: string;
}

/** A study of the trace with what labels it. */
export interface TracedStudy {
  id: number;
  cMiNumber: string;
  projectName: string;
  client: string;
}

/** A product of the trace with its code. */
export interface TracedProduct {
  id: number;
  studyId: number;
  code: string;
}

/** The same tolerance as the drivers' summaries (drivers.repository.ts). */
const EPS = 1e-9;

export function createDriverTraceRepository(db: Db) {
  async function rows<T>(query: SQL): Promise<T[]> {
    return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  }

  /** The pairs of the products, as SQL over the tables (columns as PairedAnswer). */
  // Read from the answers' (metric, product, respondent, question, value) index alone: the study is the
  // product's.
  const pairsOf = (productIds: readonly number[], likingId: number, attributeId: number) => sql`with a as (
      select a.product_id, a.respondent_id, a.metric_id, avg(a.value)::float8 as v
      from ${answers} a
      where a.product_id = any(${intArray(productIds)})
        and a.metric_id in (${likingId}, ${attributeId})
        and a.value between ${1 - EPS} and ${5 + EPS}
      group by 1, 2, 3)
    select p.study_id, x.product_id, x.respondent_id, l.v as liking, x.v as attribute
    from a x join a l on l.product_id = x.product_id and l.respondent_id = x.respondent_id
      and l.metric_id = ${likingId}
    join ${products} p on p.id = x.product_id
    where x.metric_id = ${attributeId}`;

  return {
    async pairs(
      productIds: readonly number[],
      likingId: number,
      attributeId: number,
    ): Promise<PairedAnswer[]> {
      if (productIds.length === 0) return [];
      const found = await rows<Record<string, number | string>>(
        sql`${pairsOf(productIds, likingId, attributeId)} order by 1, 2, 3`,
      );
      return found.map((row) => ({
        studyId: Number(row.study_id),
        productId: Number(row.product_id),
        respondentId: Number(row.respondent_id),
        liking: Number(row.liking),
        attribute: Number(row.attribute),
      }));
    },

    /** The pairs with their study's CMI #, product code and respondent code, for the download. */
    async labelledPairs(
      productIds: readonly number[],
      likingId: number,
      attributeId: number,
    ): Promise<LabelledPair[]> {
      if (productIds.length === 0) return [];
      const found = await rows<Record<string, number | string>>(sql`select x.*, s.c_mi_number, p.code,
          r.respondent_code
        from (${pairsOf(productIds, likingId, attributeId)}) x
        join ${studies} s on s.id = x.study_id
        join ${products} p on p.id = x.product_id
        join ${respondents} r on r.id = x.respondent_id
        order by x.study_id, x.product_id, r.respondent_code`);
      return found.map((row) => ({
        studyId: Number(row.study_id),
        productId: Number(row.product_id),
        respondentId: Number(row.respondent_id),
        liking: Number(row.liking),
        attribute: Number(row.attribute),
        cMiNumber: String(row.c_mi_number),
        productCode: String(row.code),
        respondentCode: String(row.respondent_code),
      }));
    },

    async studies(ids: readonly number[]): Promise<TracedStudy[]> {
      if (ids.length === 0) return [];
      const found = await rows<{ id: number; c_mi_number: string; project_name: string; client: string }>(
        sql`select s.id, s.c_mi_number, s.project_name, s.client from ${studies} s
          where s.id = any(${intArray(ids)}) order by s.id`,
      );
      return found.map((row) => ({
        id: Number(row.id),
        cMiNumber: row.c_mi_number,
        projectName: row.project_name,
        client: row.client,
      }));
    },

    async products(ids: readonly number[]): Promise<TracedProduct[]> {
      if (ids.length === 0) return [];
      const found = await rows<{ id: number; study_id: number; code: string }>(
        sql`select p.id, p.study_id, p.code from ${products} p where p.id = any(${intArray(ids)})
          order by p.study_id, p.id`,
      );
      return found.map((row) => ({ id: Number(row.id), studyId: Number(row.study_id), code: row.code }));
    },
  };
}

export type DriverTraceRepository = ReturnType<typeof createDriverTraceRepository>;
