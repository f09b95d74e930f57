-- Job results are written once and read back whole: json keeps the text as written (no conversion to
-- jsonb's binary form) and EXTERNAL storage skips compression; a metric search answer of megabytes is
-- then written several times faster.
ALTER TABLE "job_results" ALTER COLUMN "result" SET DATA TYPE json USING "result"::json;--> statement-breakpoint
ALTER TABLE "job_results" ALTER COLUMN "result" SET STORAGE EXTERNAL;
