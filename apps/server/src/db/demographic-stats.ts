/**
 * The one definition of product_metric_demo_stats' content: sufficient statistics of the answers per
 * product, metric, respondent gender and age, split by in or out of the 5-point scale (the same box
 * rules and tolerance as the analytics queries, METRICS.md section 1). Migration 0004 filled the table
 * with this statement and the triggers of migration 0005 (generated from it) keep it in step with
 * every insert, update and delete of answers: seed loads, mapping edits, deleted studies.
 */
import { BOX_TOLERANCE } from '@accord/stats';

const lo = (threshold: number) => threshold - BOX_TOLERANCE;
const hi = (threshold: number) => threshold + BOX_TOLERANCE;

/**
 * INSERT of the statistics of the answers meeting `where` (SQL over answers a, respondents r; only
 * trusted integers may be interpolated into it). `source` is the answers table, or in the triggers
 * of migration 0005 the transition table of the new answers.
 */
export function insertDemographicStatsSql(where: string, source = 'answers'): string {
  return `INSERT INTO product_metric_demo_stats
      (product_id, metric_id, gender, age, in_scale, n, sum, sum_sq,
       n_top_box, n_top_2_box, n_just_right, n_bottom_2_box, n_bottom_box)
    SELECT a.product_id, a.metric_id, r.gender, r.age, a.value between ${lo(1)} and ${hi(5)},
      count(*)::int, sum(a.value::float8), sum(a.value::float8 * a.value::float8),
      (count(*) filter (where a.value::float8 >= ${lo(4.5)}))::int,
      (count(*) filter (where a.value::float8 >= ${lo(3.5)}))::int,
      (count(*) filter (where a.value::float8 > ${hi(2.5)} and a.value::float8 < ${lo(3.5)}))::int,
      (count(*) filter (where a.value::float8 <= ${hi(2.5)}))::int,
      (count(*) filter (where a.value::float8 <= ${hi(1.5)}))::int
    FROM ${source} a JOIN respondents r ON r.id = a.respondent_id
    WHERE a.metric_id IS NOT NULL AND (${where})
    GROUP BY a.product_id, a.metric_id, r.gender, r.age, a.value between ${lo(1)} and ${hi(5)}`;
}
