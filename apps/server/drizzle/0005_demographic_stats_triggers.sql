-- Keeps product_metric_demo_stats in step with the answers, whatever changes them: new answers add
-- their statistics (a seed load, an upload); an update (a mapping change moving answers to another
-- metric, a corrected value) or a delete recomputes the statistics of every product and metric it
-- touched from the answers left. Statement triggers with transition tables: one pass per statement.
-- New answers need their respondents stored first (the seed loads respondents before answers).
CREATE FUNCTION "product_metric_demo_stats_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
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
$$;--> statement-breakpoint
CREATE FUNCTION "product_metric_demo_stats_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	WITH touched AS (SELECT product_id, metric_id FROM old_answers WHERE metric_id IS NOT NULL UNION SELECT product_id, metric_id FROM new_answers WHERE metric_id IS NOT NULL),
	gone AS (
		DELETE FROM product_metric_demo_stats d USING touched t
		WHERE d.product_id = t.product_id AND d.metric_id = t.metric_id
	)
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
    FROM answers a JOIN respondents r ON r.id = a.respondent_id
    WHERE a.metric_id IS NOT NULL AND ((a.metric_id, a.product_id) IN (SELECT metric_id, product_id FROM touched))
    GROUP BY a.product_id, a.metric_id, r.gender, r.age, a.value between 0.999999999 and 5.000000001;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "product_metric_demo_stats_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	WITH touched AS (SELECT product_id, metric_id FROM old_answers WHERE metric_id IS NOT NULL),
	gone AS (
		DELETE FROM product_metric_demo_stats d USING touched t
		WHERE d.product_id = t.product_id AND d.metric_id = t.metric_id
	)
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
    FROM answers a JOIN respondents r ON r.id = a.respondent_id
    WHERE a.metric_id IS NOT NULL AND ((a.metric_id, a.product_id) IN (SELECT metric_id, product_id FROM touched))
    GROUP BY a.product_id, a.metric_id, r.gender, r.age, a.value between 0.999999999 and 5.000000001;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "answers_demo_stats_insert" AFTER INSERT ON "answers"
	REFERENCING NEW TABLE AS new_answers FOR EACH STATEMENT EXECUTE FUNCTION "product_metric_demo_stats_add"();--> statement-breakpoint
CREATE TRIGGER "answers_demo_stats_update" AFTER UPDATE ON "answers"
	REFERENCING OLD TABLE AS old_answers NEW TABLE AS new_answers FOR EACH STATEMENT EXECUTE FUNCTION "product_metric_demo_stats_update"();--> statement-breakpoint
CREATE TRIGGER "answers_demo_stats_delete" AFTER DELETE ON "answers"
	REFERENCING OLD TABLE AS old_answers FOR EACH STATEMENT EXECUTE FUNCTION "product_metric_demo_stats_delete"();
