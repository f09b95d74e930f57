-- CICS question search: pg_trgm provides the trigram operator class of the near-spelling index.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "questions_text_fts_idx" ON "questions" USING gin (to_tsvector('english', "text"));--> statement-breakpoint
CREATE INDEX "questions_text_trgm_idx" ON "questions" USING gin ("text" gin_trgm_ops);