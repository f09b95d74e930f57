-- Job results are JSON text written once and read back whole: json's check of megabytes of text on
-- every write is not worth its cost. Where the server offers lz4, the text is compressed with it (a
-- fast compression that writes about a fifth of the bytes, so the write and its log take half the
-- time); elsewhere (a server built without lz4, the embedded database) it stays uncompressed.
ALTER TABLE "job_results" ALTER COLUMN "result" SET DATA TYPE text;--> statement-breakpoint
DO $$
BEGIN
	IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)) THEN
		ALTER TABLE "job_results" ALTER COLUMN "result" SET STORAGE EXTENDED;
		ALTER TABLE "job_results" ALTER COLUMN "result" SET COMPRESSION lz4;
	ELSE
		ALTER TABLE "job_results" ALTER COLUMN "result" SET STORAGE EXTERNAL;
	END IF;
END
$$;
