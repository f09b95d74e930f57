-- The answers' metric index carries the question too, so the trace's statistics per product and
-- question (trace.repository.ts) are read from the index alone, as the metric search's are. Without
-- it each of the trace's answers was fetched from the table: a bitmap heap scan the planner costs
-- above the JIT threshold, 40-50 ms for 200 products at 3,000 studies of which about 30 ms is JIT,
-- against about 10 ms for the same rows read from the index alone. question_id fills the gap that
-- aligned value, so an entry keeps its 32 bytes; measured on 8.6 M answers the index takes 353 MB
-- instead of 333 MB (+6%, so about 3.5 GB at 85.9 M answers). Its order on (metric, product,
-- respondent) is unchanged for the readers that rely on it. The build sorts every answer once: 11 s
-- for 8.6 M answers on 2 busy cores, so about two minutes at 85.9 M, during which the answers can be
-- read but not written. The new index is built beside the old one and takes its name afterwards: dropping
-- the old one first would lock the answers against reads too (and leave the searches without an
-- index) for the whole build.
SET LOCAL maintenance_work_mem = '256MB';--> statement-breakpoint
CREATE INDEX "answers_metric_product_question_idx" ON "answers" USING btree ("metric_id","product_id","respondent_id","question_id","value");--> statement-breakpoint
DROP INDEX "answers_metric_product_idx";--> statement-breakpoint
ALTER INDEX "answers_metric_product_question_idx" RENAME TO "answers_metric_product_idx";
