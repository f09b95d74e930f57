CREATE TABLE "data_versions" (
	"table_name" text PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);--> statement-breakpoint
-- Raises a table's counter once per writing transaction, at its commit: the triggers are deferred
-- row triggers, so a transaction holds the counter's row lock only while it commits (writers never
-- wait on each other mid-way, and cannot deadlock on it), and a transaction-local flag makes every
-- row after the first cost one setting read. TRUNCATE has statement triggers of its own.
CREATE FUNCTION "data_versions_raise"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF current_setting('accord.raised_' || TG_TABLE_NAME, true) IS DISTINCT FROM 'yes' THEN
		PERFORM set_config('accord.raised_' || TG_TABLE_NAME, 'yes', true);
		UPDATE data_versions SET version = version + 1 WHERE table_name = TG_TABLE_NAME;
	END IF;
	RETURN NULL;
END
$$;--> statement-breakpoint
INSERT INTO "data_versions" ("table_name", "version") VALUES ('studies', 1), ('fragrances', 1), ('concepts', 1), ('products', 1), ('questions', 1), ('field_definitions', 1), ('field_options', 1);--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "studies_data_version" AFTER INSERT OR UPDATE OR DELETE ON "studies" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "data_versions_raise"();--> statement-breakpoint
CREATE TRIGGER "studies_data_version_truncate" AFTER TRUNCATE ON "studies" FOR EACH STATEMENT EXECUTE FUNCTION "data_versions_raise"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "fragrances_data_version" AFTER INSERT OR UPDATE OR DELETE ON "fragrances" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "data_versions_raise"();--> statement-breakpoint
CREATE TRIGGER "fragrances_data_version_truncate" AFTER TRUNCATE ON "fragrances" FOR EACH STATEMENT EXECUTE FUNCTION "data_versions_raise"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "concepts_data_version" AFTER INSERT OR UPDATE OR DELETE ON "concepts" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "data_versions_raise"();--> statement-breakpoint
CREATE TRIGGER "concepts_data_version_truncate" AFTER TRUNCATE ON "concepts" FOR EACH STATEMENT EXECUTE FUNCTION "data_versions_raise"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "products_data_version" AFTER INSERT OR UPDATE OR DELETE ON "products" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "data_versions_raise"();--> statement-breakpoint
CREATE TRIGGER "products_data_version_truncate" AFTER TRUNCATE ON "products" FOR EACH STATEMENT EXECUTE FUNCTION "data_versions_raise"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "questions_data_version" AFTER INSERT OR UPDATE OR DELETE ON "questions" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "data_versions_raise"();--> statement-breakpoint
CREATE TRIGGER "questions_data_version_truncate" AFTER TRUNCATE ON "questions" FOR EACH STATEMENT EXECUTE FUNCTION "data_versions_raise"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "field_definitions_data_version" AFTER INSERT OR UPDATE OR DELETE ON "field_definitions" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "data_versions_raise"();--> statement-breakpoint
CREATE TRIGGER "field_definitions_data_version_truncate" AFTER TRUNCATE ON "field_definitions" FOR EACH STATEMENT EXECUTE FUNCTION "data_versions_raise"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "field_options_data_version" AFTER INSERT OR UPDATE OR DELETE ON "field_options" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "data_versions_raise"();--> statement-breakpoint
CREATE TRIGGER "field_options_data_version_truncate" AFTER TRUNCATE ON "field_options" FOR EACH STATEMENT EXECUTE FUNCTION "data_versions_raise"();
