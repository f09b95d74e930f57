-- Answers in double precision (METRICS.md section 4, storage): single precision turned a harmonised
-- 7-point answer (1 + 4 * 5/6) into 4.3333335 and a mean of 37/9 into 4.111111106872559. Raw answers
-- are whole numbers on their scales (exact in single precision), so each harmonised value is computed
-- again from its raw value and its question's scale, where it is that value rounded before (EEG
-- scores are kept as they are: they have no scale). The sums of both statistics tables follow.
ALTER TABLE "answers" ALTER COLUMN "raw_value" SET DATA TYPE double precision;--> statement-breakpoint
ALTER TABLE "answers" ALTER COLUMN "value" SET DATA TYPE double precision;--> statement-breakpoint
SET LOCAL work_mem = '256MB';--> statement-breakpoint
-- The demographic statistics are rebuilt whole below, not adjusted answer by answer by the trigger.
ALTER TABLE "answers" DISABLE TRIGGER "answers_demo_stats_update";--> statement-breakpoint
UPDATE "answers" a SET "value" = h.v
  FROM (
    SELECT a2.question_id, a2.product_id, a2.respondent_id,
      CASE
        WHEN x.v BETWEEN 0.999999999 AND 1 THEN 1::float8
        WHEN x.v BETWEEN 5 AND 5.000000001 THEN 5::float8
        ELSE x.v
      END AS v
    FROM "answers" a2
    JOIN "questions" q ON q.id = a2.question_id
    CROSS JOIN LATERAL (
      SELECT 1 + 4 * (a2.raw_value - q.scale_min) / (q.scale_max - q.scale_min) AS v
    ) x
    WHERE q.question_type <> 'eeg' AND q.scale_min IS NOT NULL AND q.scale_max > q.scale_min
  ) h
  WHERE a.question_id = h.question_id AND a.product_id = h.product_id AND a.respondent_id = h.respondent_id
    AND a.value <> h.v AND abs(a.value - h.v) < 0.00001;--> statement-breakpoint
ALTER TABLE "answers" ENABLE TRIGGER "answers_demo_stats_update";--> statement-breakpoint
UPDATE "product_metric_stats" s SET "sum" = f.sum, "sum_sq" = f.sum_sq
  FROM (
    SELECT product_id, metric_id, sum(value) AS sum, sum(value * value) AS sum_sq
    FROM "answers" WHERE metric_id IS NOT NULL
    GROUP BY product_id, metric_id
  ) f
  WHERE s.product_id = f.product_id AND s.metric_id = f.metric_id;--> statement-breakpoint
DELETE FROM "product_metric_demo_stats";--> statement-breakpoint
INSERT INTO product_metric_demo_stats
      (product_id, metric_id, gender, age, in_scale, n, sum, sum_sq,
       n_top_box, n_top_2_box, n_just_right, n_bottom_2_box, n_bottom_box)
    SELECT a.product_id, a.metric_id, r.gender, r.age, a.value between 0.999999999 and 5.000000001,
      count(*)::int, sum(a.value), sum(a.value * a.value),
      (count(*) filter (where a.value >= 4.499999999))::int,
      (count(*) filter (where a.value >= 3.499999999))::int,
      (count(*) filter (where a.value > 2.500000001 and a.value < 3.499999999))::int,
      (count(*) filter (where a.value <= 2.500000001))::int,
      (count(*) filter (where a.value <= 1.500000001))::int
    FROM answers a JOIN respondents r ON r.id = a.respondent_id
    WHERE a.metric_id IS NOT NULL
    GROUP BY a.product_id, a.metric_id, r.gender, r.age, a.value between 0.999999999 and 5.000000001;--> statement-breakpoint
ANALYZE "answers";--> statement-breakpoint
ANALYZE "product_metric_demo_stats";
