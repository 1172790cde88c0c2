CREATE TABLE "bet_comments" (
	"id" serial PRIMARY KEY NOT NULL,
	"bet_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"deleted_by" integer,
	"version" bigint DEFAULT 0 NOT NULL,
	"change_txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	CONSTRAINT "bet_comments_text_check" CHECK (char_length("bet_comments"."text") <= 500)
);
--> statement-breakpoint
ALTER TABLE "bet_comments" ADD CONSTRAINT "bet_comments_bet_id_bets_id_fk" FOREIGN KEY ("bet_id") REFERENCES "public"."bets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bet_comments" ADD CONSTRAINT "bet_comments_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bet_comments" ADD CONSTRAINT "bet_comments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bet_comments" ADD CONSTRAINT "bet_comments_deleted_by_users_id_fk" FOREIGN KEY ("deleted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bet_comments_bet_idx" ON "bet_comments" USING btree ("bet_id","created_at");--> statement-breakpoint
CREATE INDEX "bet_comments_group_change_idx" ON "bet_comments" USING btree ("group_id","change_txid");--> statement-breakpoint
-- Change tracking for the local mirror, as migration 0005 does for the other mirrored tables.
CREATE TRIGGER "bet_comments_stamp_change" BEFORE INSERT OR UPDATE ON "bet_comments" FOR EACH ROW EXECUTE FUNCTION "hunch_stamp_change"();--> statement-breakpoint
-- A comment shows its author's name: a rename changes their comments too, as it does their memberships.
CREATE OR REPLACE FUNCTION "hunch_stamp_renamed_member"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "memberships" SET "version" = 0 WHERE "user_id" = NEW.id;
  UPDATE "bet_comments" SET "version" = 0 WHERE "user_id" = NEW.id;
  RETURN NULL;
END
$$;
