/**
 * The SQL of the drivers of liking: per attribute or strength metric, study and product of a base,
 * the answers paired with the same respondent's liking answer for the same product, summarised: the
 * Pearson correlation and count, and the strength groups' sizes and mean liking; per metric and study,
 * the distinct respondents. A respondent's answers to several questions of one metric for one product
 * are averaged first; answers outside the 5-point scale are left out.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { answers, studies } from '../../db/schema.ts';
import { intArray } from '../analytics/analytics.repository.ts';

/** One metric of one product (productId set) or of one study (productId null: respondents only). */
export interface PairedSummary {
  metricId: number;
  studyId: number;
  productId: number | null;
  /** Pearson r of liking with the metric (null when undefined: a constant answer). */
  r: number | null;
  /** Pairs (products) or distinct respondents (studies). */
  n: number;
  /** Strength groups: answers 1-2 (too weak), 3 (just right), 4-5 (too strong) and their mean liking. */
  weak: number;
  weakLiking: number | null;
  right: number;
  rightLiking: number | null;
  strong: number;
  strongLiking: number | null;
}

/** A study behind the figures. */
export interface StudyRow {
  id: number;
  projectName: string;
  client: string;
}

const EPS = 1e-9;

export function createDriversRepository(db: Db) {
  async function rows<T>(query: SQL): Promise<T[]> {
    const result = (await db.execute(query)) as unknown as { rows: T[] };
    return result.rows;
  }

  return {
    async pairedSummaries(
      productIds: readonly number[],
      likingId: number,
      metricIds: readonly number[],
    ): Promise<PairedSummary[]> {
      if (productIds.length === 0 || metricIds.length === 0) return [];
      const found = await rows<Record<string, number | string | null>>(sql`with a as (
          select a.study_id, a.product_id, a.respondent_id, a.metric_id, avg(a.value) as v
          from ${answers} a
          where a.product_id = any(${intArray(productIds)})
            and a.metric_id = any(${intArray([likingId, ...metricIds])})
            and a.value between ${1 - EPS} and ${5 + EPS}
          group by 1, 2, 3, 4),
        l as (select product_id, respondent_id, v from a where metric_id = ${likingId}),
        j as (select x.study_id, x.product_id, x.respondent_id, x.metric_id, x.v as x, l.v as y
          from a x join l on l.product_id = x.product_id and l.respondent_id = x.respondent_id
          where x.metric_id <> ${likingId})
        select metric_id, study_id, product_id,
          case when product_id is null then count(distinct respondent_id) else count(*) end::int as n,
          corr(y, x) as r,
          count(*) filter (where x <= ${2.5 + EPS})::int as weak,
          avg(y) filter (where x <= ${2.5 + EPS}) as weak_liking,
          count(*) filter (where x > ${2.5 + EPS} and x < ${3.5 - EPS})::int as right_n,
          avg(y) filter (where x > ${2.5 + EPS} and x < ${3.5 - EPS}) as right_liking,
          count(*) filter (where x >= ${3.5 - EPS})::int as strong,
          avg(y) filter (where x >= ${3.5 - EPS}) as strong_liking
        from j
        group by grouping sets ((metric_id, study_id, product_id), (metric_id, study_id))
        order by metric_id, study_id, product_id nulls first`);
      const number = (value: number | string | null | undefined) =>
        value === null || value === undefined ? null : Number(value);
      return found.map((row) => ({
        metricId: Number(row.metric_id),
        studyId: Number(row.study_id),
        productId: number(row.product_id),
        r: number(row.r),
        n: Number(row.n),
        weak: Number(row.weak),
        weakLiking: number(row.weak_liking),
        right: Number(row.right_n),
        rightLiking: number(row.right_liking),
        strong: Number(row.strong),
        strongLiking: number(row.strong_liking),
      }));
    },

    async studies(ids: readonly number[]): Promise<StudyRow[]> {
      if (ids.length === 0) return [];
      return (
        await rows<{ id: number; project_name: string; client: string }>(sql`select s.id, s.project_name,
          s.client from ${studies} s where s.id = any(${intArray(ids)}) order by s.id`)
      ).map((row) => ({ id: Number(row.id), projectName: row.project_name, client: row.client }));
    },
  };
}

export type DriversRepository = ReturnType<typeof createDriversRepository>;
