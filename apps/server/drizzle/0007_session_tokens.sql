CREATE TABLE "session_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "session_tokens" ADD CONSTRAINT "session_tokens_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_tokens_session_idx" ON "session_tokens" USING btree ("session_id");--> statement-breakpoint
-- Live sessions keep their current access token.
INSERT INTO "session_tokens" ("token_hash", "session_id", "expires_at")
SELECT "access_token_hash", "id", "access_expires_at" FROM "sessions"
WHERE "ended_at" IS NULL AND "access_expires_at" > now();
