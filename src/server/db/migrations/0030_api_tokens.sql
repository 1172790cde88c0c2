-- Personal API tokens (src/server/auth/api-tokens.ts), kept as SHA-256 only. Revoking one deletes
-- its row, which says so in its own transaction ("st<id>", on 0020's channel): every instance then
-- asks again before it lets the token in (src/server/auth/session-liveness.ts), as 0022 does for sessions.
CREATE TABLE "api_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"scopes" text[] NOT NULL,
	"token_hash" text NOT NULL,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_tokens_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "api_tokens_scopes_check" CHECK (cardinality("api_tokens"."scopes") > 0 and "api_tokens"."scopes" <@ array['read', 'play'])
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_tokens_user_idx" ON "api_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE TRIGGER "api_tokens_notify_delete" AFTER DELETE ON "api_tokens" FOR EACH ROW EXECUTE FUNCTION "hunch_notify_change"('st', 'id');