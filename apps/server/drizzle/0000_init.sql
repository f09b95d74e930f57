CREATE TABLE "answers" (
	"study_id" integer NOT NULL,
	"respondent_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"metric_id" smallint,
	"raw_value" real NOT NULL,
	"value" real NOT NULL,
	CONSTRAINT "answers_question_id_product_id_respondent_id_pk" PRIMARY KEY("question_id","product_id","respondent_id")
);
--> statement-breakpoint
CREATE TABLE "concepts" (
	"id" serial PRIMARY KEY NOT NULL,
	"study_id" integer NOT NULL,
	"name" text NOT NULL,
	"concept_code" text NOT NULL,
	"region" text,
	"country" text,
	"theme" text,
	"ingredient_1" text,
	"ingredient_2" text
);
--> statement-breakpoint
CREATE TABLE "field_definitions" (
	"id" serial PRIMARY KEY NOT NULL,
	"field" text NOT NULL,
	"field_group" text NOT NULL,
	"label" text NOT NULL,
	"type" text NOT NULL,
	"multivalue" boolean DEFAULT false NOT NULL,
	"editable" boolean DEFAULT true NOT NULL,
	"tag_group" text,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "field_options" (
	"id" serial PRIMARY KEY NOT NULL,
	"field_id" integer NOT NULL,
	"value" text NOT NULL,
	"label" text NOT NULL,
	"parent_value" text,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "file_processes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"client" text NOT NULL,
	"study_type" text NOT NULL,
	"region" text NOT NULL,
	"year" integer NOT NULL,
	"cmi" text,
	"filename" text NOT NULL,
	"storage_key" text NOT NULL,
	"status" text DEFAULT 'UPLOADED' NOT NULL,
	"has_uploaded_new_file" boolean DEFAULT false NOT NULL,
	"file_tree" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"study_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fragrances" (
	"id" serial PRIMARY KEY NOT NULL,
	"study_id" integer NOT NULL,
	"name" text NOT NULL,
	"ref_number" text,
	"code" text,
	"fragrance_code" text NOT NULL,
	"methodology" text,
	"perfumer_name" text,
	"region" text,
	"country" text,
	"family" text,
	"subfamily" text,
	"specifier" text,
	"level" double precision,
	"supplemental_info" text,
	"dominant_note_1" text,
	"dominant_note_2" text,
	"dominant_note_3" text,
	"dominant_note_4" text,
	"dominant_note_5" text,
	"creative" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_results" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer,
	"kind" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"result" jsonb,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "metrics" (
	"id" smallint PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"label" text NOT NULL,
	"metric_type" text NOT NULL,
	"kind" text NOT NULL,
	"chart_order" integer DEFAULT 1 NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	CONSTRAINT "metrics_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "password_resets" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_metric_stats" (
	"product_id" integer NOT NULL,
	"metric_id" smallint NOT NULL,
	"n" integer NOT NULL,
	"sum" double precision NOT NULL,
	"sum_sq" double precision NOT NULL,
	"n_top_box" integer NOT NULL,
	"n_top_2_box" integer NOT NULL,
	"n_just_right" integer NOT NULL,
	"n_bottom_2_box" integer NOT NULL,
	"n_bottom_box" integer NOT NULL,
	CONSTRAINT "product_metric_stats_product_id_metric_id_pk" PRIMARY KEY("product_id","metric_id")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" serial PRIMARY KEY NOT NULL,
	"study_id" integer NOT NULL,
	"kind" text NOT NULL,
	"code" text NOT NULL,
	"fragrance_id" integer,
	"concept_id" integer
);
--> statement-breakpoint
CREATE TABLE "questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"study_id" integer NOT NULL,
	"filename" text NOT NULL,
	"path" text NOT NULL,
	"results_file_id" integer,
	"qid" text NOT NULL,
	"text" text NOT NULL,
	"question_type" text NOT NULL,
	"scale_min" double precision,
	"scale_max" double precision,
	"labels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"constant_value" text,
	"metric_id" smallint,
	"suggested_metric_id" smallint,
	"metric_validated" boolean DEFAULT false NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "respondents" (
	"id" serial PRIMARY KEY NOT NULL,
	"study_id" integer NOT NULL,
	"respondent_code" text NOT NULL,
	"gender" text,
	"age" smallint,
	"ethnicity" text,
	"social_class" text,
	"country" text,
	"bumo" text
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" integer PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "roles_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "saved_searches" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"slug" text NOT NULL,
	"search_type" text NOT NULL,
	"metadata_query" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"access_token_hash" text NOT NULL,
	"access_expires_at" timestamp with time zone NOT NULL,
	"refresh_token_hash" text,
	"refresh_expires_at" timestamp with time zone,
	"remember" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "site_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "statistics_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"folder_name" text NOT NULL,
	"user_id" integer,
	"study_id" integer,
	"study_name" text,
	"form" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "statistics_runs_folder_name_unique" UNIQUE("folder_name")
);
--> statement-breakpoint
CREATE TABLE "studies" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_name" text NOT NULL,
	"client" text NOT NULL,
	"c_mi_number" text NOT NULL,
	"pace_number" text,
	"product_area" text[] DEFAULT '{}'::text[] NOT NULL,
	"division" text,
	"category" text,
	"product_type" text,
	"region" text[] DEFAULT '{}'::text[] NOT NULL,
	"lead_country" text,
	"country" text[] DEFAULT '{}'::text[] NOT NULL,
	"methodology" text,
	"panel_profile" text,
	"design_method" text,
	"research_type" text[] DEFAULT '{}'::text[] NOT NULL,
	"cmi_tool_type" text[] DEFAULT '{}'::text[] NOT NULL,
	"evaluation" text[] DEFAULT '{}'::text[] NOT NULL,
	"gender" text[] DEFAULT '{}'::text[] NOT NULL,
	"age" text,
	"social_class" text[] DEFAULT '{}'::text[] NOT NULL,
	"study_sample_size" integer,
	"number_of_products" integer,
	"base" text,
	"objective_and_action_standards" text,
	"year" integer NOT NULL,
	"rdf_type" text DEFAULT 'rdf' NOT NULL,
	"is_genisys" boolean DEFAULT false NOT NULL,
	"verified" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "study_edit_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"study_id" integer NOT NULL,
	"user_id" integer,
	"user_email" text NOT NULL,
	"type" text NOT NULL,
	"change_date" timestamp with time zone DEFAULT now() NOT NULL,
	"changes" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "study_file_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"file_id" integer NOT NULL,
	"name" text NOT NULL,
	"storage_key" text NOT NULL,
	"size" integer NOT NULL,
	"status" text DEFAULT 'success' NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"uploaded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "study_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"study_id" integer NOT NULL,
	"file_type" text NOT NULL,
	"folder" text NOT NULL,
	"name" text NOT NULL,
	"extension" text NOT NULL,
	"current_version_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"firstname" text DEFAULT '' NOT NULL,
	"lastname" text DEFAULT '' NOT NULL,
	"password_hash" text NOT NULL,
	"role_id" integer NOT NULL,
	"status" text DEFAULT 'enabled' NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"clients" text[] DEFAULT '{}'::text[] NOT NULL,
	"password_reset_flag" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen" timestamp with time zone,
	"last_login_at" timestamp with time zone,
	"password_changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "concepts" ADD CONSTRAINT "concepts_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "field_options" ADD CONSTRAINT "field_options_field_id_field_definitions_id_fk" FOREIGN KEY ("field_id") REFERENCES "public"."field_definitions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_processes" ADD CONSTRAINT "file_processes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fragrances" ADD CONSTRAINT "fragrances_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_results" ADD CONSTRAINT "job_results_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_metric_stats" ADD CONSTRAINT "product_metric_stats_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_metric_stats" ADD CONSTRAINT "product_metric_stats_metric_id_metrics_id_fk" FOREIGN KEY ("metric_id") REFERENCES "public"."metrics"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_fragrance_id_fragrances_id_fk" FOREIGN KEY ("fragrance_id") REFERENCES "public"."fragrances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_concept_id_concepts_id_fk" FOREIGN KEY ("concept_id") REFERENCES "public"."concepts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_results_file_id_study_files_id_fk" FOREIGN KEY ("results_file_id") REFERENCES "public"."study_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_metric_id_metrics_id_fk" FOREIGN KEY ("metric_id") REFERENCES "public"."metrics"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_suggested_metric_id_metrics_id_fk" FOREIGN KEY ("suggested_metric_id") REFERENCES "public"."metrics"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "respondents" ADD CONSTRAINT "respondents_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statistics_runs" ADD CONSTRAINT "statistics_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statistics_runs" ADD CONSTRAINT "statistics_runs_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_edit_history" ADD CONSTRAINT "study_edit_history_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_edit_history" ADD CONSTRAINT "study_edit_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_file_versions" ADD CONSTRAINT "study_file_versions_file_id_study_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."study_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_file_versions" ADD CONSTRAINT "study_file_versions_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_files" ADD CONSTRAINT "study_files_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "answers_metric_product_idx" ON "answers" USING btree ("metric_id","product_id","respondent_id","value");--> statement-breakpoint
CREATE INDEX "answers_study_idx" ON "answers" USING btree ("study_id");--> statement-breakpoint
CREATE INDEX "concepts_study_idx" ON "concepts" USING btree ("study_id");--> statement-breakpoint
CREATE UNIQUE INDEX "concepts_code_key" ON "concepts" USING btree ("study_id","concept_code");--> statement-breakpoint
CREATE UNIQUE INDEX "field_options_value_key" ON "field_options" USING btree ("field_id","value");--> statement-breakpoint
CREATE INDEX "file_processes_created_idx" ON "file_processes" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "fragrances_study_idx" ON "fragrances" USING btree ("study_id");--> statement-breakpoint
CREATE INDEX "fragrances_family_idx" ON "fragrances" USING btree ("family");--> statement-breakpoint
CREATE UNIQUE INDEX "fragrances_code_key" ON "fragrances" USING btree ("study_id","fragrance_code");--> statement-breakpoint
CREATE INDEX "job_results_user_idx" ON "job_results" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "product_metric_stats_metric_idx" ON "product_metric_stats" USING btree ("metric_id");--> statement-breakpoint
CREATE UNIQUE INDEX "products_code_key" ON "products" USING btree ("study_id","kind","code");--> statement-breakpoint
CREATE INDEX "questions_study_idx" ON "questions" USING btree ("study_id");--> statement-breakpoint
CREATE INDEX "questions_metric_idx" ON "questions" USING btree ("metric_id");--> statement-breakpoint
CREATE UNIQUE INDEX "questions_qid_key" ON "questions" USING btree ("study_id","filename","qid");--> statement-breakpoint
CREATE INDEX "respondents_study_idx" ON "respondents" USING btree ("study_id");--> statement-breakpoint
CREATE INDEX "respondents_demo_idx" ON "respondents" USING btree ("gender","age");--> statement-breakpoint
CREATE INDEX "saved_searches_user_idx" ON "saved_searches" USING btree ("user_id","search_type");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_access_token_key" ON "sessions" USING btree ("access_token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_refresh_token_key" ON "sessions" USING btree ("refresh_token_hash");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "studies_c_mi_number_key" ON "studies" USING btree ("c_mi_number");--> statement-breakpoint
CREATE INDEX "studies_client_idx" ON "studies" USING btree ("client");--> statement-breakpoint
CREATE INDEX "studies_year_idx" ON "studies" USING btree ("year");--> statement-breakpoint
CREATE INDEX "studies_category_idx" ON "studies" USING btree ("category");--> statement-breakpoint
CREATE INDEX "study_edit_history_study_idx" ON "study_edit_history" USING btree ("study_id","change_date");--> statement-breakpoint
CREATE INDEX "study_file_versions_file_idx" ON "study_file_versions" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "study_files_study_idx" ON "study_files" USING btree ("study_id");--> statement-breakpoint
CREATE INDEX "study_files_type_idx" ON "study_files" USING btree ("file_type");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree (lower("email"));