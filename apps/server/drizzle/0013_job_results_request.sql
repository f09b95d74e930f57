-- An analytics job keeps the request it answers (JSON text), so its downloads state the search's filters
-- in words and a download naming a significance job can check it covers the same search.
ALTER TABLE "job_results" ADD COLUMN "request" text;