/**
 * The SQL of the study planner: for the products of a base and one metric, the Pearson correlation of
 * a respondent's answers to every pair of products of each complete-block study (every respondent who
 * answered the metric in the study answered it for every product of the study that has answers).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { answers } from '../../db/schema.ts';
import { intArray } from '../analytics/analytics.repository.ts';

/** One pair of products of a complete-block study: their correlation over the respondents of both. */
export interface PairCorrelation {
  studyId: number;
  r: number | null;
  n: number;
}

export function createPlannerRepository(db: Db) {
  return {
    /**
     * The pairs of products of the complete-block studies among `productIds` on `metricId`. A
     * respondent's answers to several questions of the metric for one product are averaged first;
     * answers outside the 5-point scale are left out unless `continuous` (EEG scores).
     */
    async pairCorrelations(
      productIds: readonly number[],
      metricId: number,
      continuous: boolean,
    ): Promise<PairCorrelation[]> {
      if (productIds.length === 0) return [];
      const inScale = continuous ? sql`true` : sql`a.value between 1 and 5`;
      const result = (await db.execute(sql`with a as (
          select a.study_id, a.product_id, a.respondent_id, avg(a.value) as v
          from ${answers} a
          where a.metric_id = ${metricId} and a.product_id = any(${intArray(productIds)})
            and ${inScale}
          group by 1, 2, 3),
        per_study as (select study_id, count(distinct product_id) as k from a group by 1
          having count(distinct product_id) >= 2),
        per_respondent as (select study_id, respondent_id, count(*) as c from a group by 1, 2),
        complete as (select p.study_id from per_study p where not exists (
          select 1 from per_respondent r where r.study_id = p.study_id and r.c <> p.k))
        select x.study_id, corr(x.v, y.v) as r, count(*)::int as n
        from a x join a y on y.study_id = x.study_id and y.respondent_id = x.respondent_id
          and y.product_id > x.product_id
        where x.study_id in (select study_id from complete)
        group by x.study_id, x.product_id, y.product_id
        order by x.study_id, x.product_id, y.product_id`)) as unknown as {
        rows: { study_id: number; r: number | null; n: number }[];
      };
      return result.rows.map((row) => ({
        studyId: Number(row.study_id),
        r: row.r === null ? null : Number(row.r),
        n: Number(row.n),
      }));
    },
  };
}

export type PlannerRepository = ReturnType<typeof createPlannerRepository>;
