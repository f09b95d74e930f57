ALTER TABLE "file_processes" ADD COLUMN "task_id" text;--> statement-breakpoint
ALTER TABLE "file_processes" ADD COLUMN "message" text;