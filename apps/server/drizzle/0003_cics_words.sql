-- CICS question search: the distinct words of the question texts, as the text search parser reads them,
-- with their English lexemes. Whether a search word is in the library, and which library words a
-- misspelt word is near to (trigram index), are answered from this small table instead of the question
-- rows. Kept current by statement triggers on questions; a word stays when its questions go.
CREATE TABLE "cics_words" (
	"word" text PRIMARY KEY NOT NULL,
	"lexemes" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', "word")) STORED
);--> statement-breakpoint
CREATE INDEX "cics_words_word_trgm_idx" ON "cics_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "cics_words_lexemes_idx" ON "cics_words" USING gin ("lexemes");--> statement-breakpoint
CREATE FUNCTION "cics_words_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO cics_words (word)
	SELECT DISTINCT lower(p.token)
	FROM (SELECT DISTINCT text FROM new_questions) t, ts_parse('default', t.text) p
	WHERE p.tokid <> 12 AND p.token ~ '[[:alnum:]]'
	ON CONFLICT DO NOTHING;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "questions_cics_words_insert" AFTER INSERT ON "questions"
	REFERENCING NEW TABLE AS new_questions FOR EACH STATEMENT EXECUTE FUNCTION cics_words_add();--> statement-breakpoint
CREATE TRIGGER "questions_cics_words_update" AFTER UPDATE ON "questions"
	REFERENCING NEW TABLE AS new_questions FOR EACH STATEMENT EXECUTE FUNCTION cics_words_add();--> statement-breakpoint
INSERT INTO cics_words (word)
SELECT DISTINCT lower(p.token)
FROM (SELECT DISTINCT text FROM questions) t, ts_parse('default', t.text) p
WHERE p.tokid <> 12 AND p.token ~ '[[:alnum:]]'
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Planner statistics of the stored search_vector of 0002, so searches pick the full-text index and hash joins.
ANALYZE "questions";
