-- The answers' metric index carries the question too, so the trace's statistics per product and
-- question (trace.repository.ts) are read from the index alone, as the metric search's are: without
-- it each of the trace's answers was fetched from the table (a bitmap heap scan planned above the
-- JIT threshold). question_id takes the four bytes the index entry already spent aligning value, so
-- the index grows by about 6% (333 to 353 MB on 8.6 M answers; about 3.5 GB at 85.9 M answers), and
-- its order on (metric, product, respondent) is unchanged for the readers that rely on it. The build
-- reads every answer once: 11 s on 8.6 M answers on 2 busy cores, so about two minutes at 85.9 M,
-- during which the answers can be read but not written.
SET LOCAL maintenance_work_mem = '256MB';--> statement-breakpoint
DROP INDEX "answers_metric_product_idx";--> statement-breakpoint
CREATE INDEX "answers_metric_product_idx" ON "answers" USING btree ("metric_id","product_id","respondent_id","question_id","value");
