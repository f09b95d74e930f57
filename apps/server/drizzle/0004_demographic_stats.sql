-- Sufficient statistics per product, metric, respondent gender and age (and in or out of the 5-point
-- scale), so a gender and age filter sums these rows instead of joining millions of answers to their
-- respondents. Filled from the existing answers (the statement of src/db/demographic-stats.ts) before
-- its indexes are built.
CREATE TABLE "product_metric_demo_stats" (
	"product_id" integer NOT NULL,
	"metric_id" smallint NOT NULL,
	"gender" text,
	"age" smallint,
	"in_scale" boolean NOT NULL,
	"n" integer NOT NULL,
	"sum" double precision NOT NULL,
	"sum_sq" double precision NOT NULL,
	"n_top_box" integer NOT NULL,
	"n_top_2_box" integer NOT NULL,
	"n_just_right" integer NOT NULL,
	"n_bottom_2_box" integer NOT NULL,
	"n_bottom_box" integer NOT NULL
);
--> statement-breakpoint
SET LOCAL work_mem = '256MB';--> statement-breakpoint
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
    WHERE a.metric_id IS NOT NULL AND (true)
    GROUP BY a.product_id, a.metric_id, r.gender, r.age, a.value between 0.999999999 and 5.000000001;--> statement-breakpoint
ALTER TABLE "product_metric_demo_stats" ADD CONSTRAINT "product_metric_demo_stats_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "product_metric_demo_stats_product_idx" ON "product_metric_demo_stats" USING btree ("product_id","metric_id");--> statement-breakpoint
CREATE INDEX "product_metric_demo_stats_metric_idx" ON "product_metric_demo_stats" USING btree ("metric_id","gender","age","product_id","in_scale","n","sum","sum_sq","n_top_box","n_top_2_box","n_just_right","n_bottom_2_box","n_bottom_box");--> statement-breakpoint
ANALYZE "product_metric_demo_stats";