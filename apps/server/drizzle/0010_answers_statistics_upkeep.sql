-- Answers are found by study through their questions (the primary key leads with question_id): the
-- index on study_id cost an upload about a fifth of its insert time and served only deletes.
DROP INDEX "answers_study_idx";--> statement-breakpoint
-- The demographic statistics follow the answers through the triggers of migration 0005; checking the
-- product of every row cost an upload more than storing the rows.
ALTER TABLE "product_metric_demo_stats" DROP CONSTRAINT "product_metric_demo_stats_product_id_products_id_fk";--> statement-breakpoint
-- A writer that stores the statistics of its new answers itself (a studies upload computes them while
-- the database inserts the answers) sets accord.demo_stats_by_caller for its transaction; every other
-- insert still gets them from this trigger.
CREATE OR REPLACE FUNCTION "product_metric_demo_stats_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF current_setting('accord.demo_stats_by_caller', true) = 'on' THEN
		RETURN NULL;
	END IF;
	INSERT INTO product_metric_demo_stats
      (product_id, metric_id, gender, age, in_scale, n, sum, sum_sq,
       n_top_box, n_top_2_box, n_just_right, n_bottom_2_box, n_bottom_box)
    SELECT a.product_id, a.metric_id, r.gender, r.age, a.value between 0.999999999 and 5.000000001,
      count(*)::int, sum(a.value::float8), sum(a.value::float8 * a.value::float8),
      (count(*) filter (where a.value::float8 >= 4.499999999))::int,
      (count(*) filter (where a.value::float8 >= 3.499999999))::int,
      (count(*) filter (where a.value::float8 > 2.500000001 and a.value::float8 < 3.499999999))::int,
      (count(*) filter (where a.value::float8 <= 2.500000001))::int,
      (count(*) filter (where a.value::float8 <= 1.500000001))::int
    FROM new_answers a JOIN respondents r ON r.id = a.respondent_id
    WHERE a.metric_id IS NOT NULL AND (true)
    GROUP BY a.product_id, a.metric_id, r.gender, r.age, a.value between 0.999999999 and 5.000000001;
	RETURN NULL;
END
$$;
