CREATE INDEX "fragrances_name_prefix_idx" ON "fragrances" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "fragrances_perfumer_prefix_idx" ON "fragrances" USING btree (lower("perfumer_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "fragrances_code_prefix_idx" ON "fragrances" USING btree (lower("code") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "studies_c_mi_number_prefix_idx" ON "studies" USING btree (lower("c_mi_number") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "studies_pace_number_prefix_idx" ON "studies" USING btree (lower("pace_number") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "studies_project_name_prefix_idx" ON "studies" USING btree (lower("project_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "studies_region_gin_idx" ON "studies" USING gin ("region");--> statement-breakpoint
CREATE INDEX "studies_country_gin_idx" ON "studies" USING gin ("country");