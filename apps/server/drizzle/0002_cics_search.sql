-- CICS question search: pg_trgm provides the trigram operator class of the near-spelling index.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "questions" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', "text")) STORED;--> statement-breakpoint
CREATE INDEX "questions_search_vector_idx" ON "questions" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "questions_text_trgm_idx" ON "questions" USING gin ("text" gin_trgm_ops);