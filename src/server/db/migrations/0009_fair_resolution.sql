CREATE TABLE "bet_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"bet_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	"kind" text NOT NULL,
	"actor_id" integer,
	"correct_answer" text,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"change_txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	CONSTRAINT "bet_history_kind_check" CHECK ("bet_history"."kind" in ('created', 'resolved', 'undone', 'disputed', 're_resolved', 'dismissed', 'cancelled', 'expired'))
);
--> statement-breakpoint
ALTER TABLE "ledger" DROP CONSTRAINT "ledger_kind_check";--> statement-breakpoint
ALTER TABLE "bets" ADD COLUMN "picks_revealed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bets" ADD COLUMN "dispute_state" text;--> statement-breakpoint
ALTER TABLE "bets" ADD COLUMN "disputed_by" integer;--> statement-breakpoint
ALTER TABLE "bets" ADD COLUMN "dispute_reason" text;--> statement-breakpoint
ALTER TABLE "bets" ADD COLUMN "disputed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bet_history" ADD CONSTRAINT "bet_history_bet_id_bets_id_fk" FOREIGN KEY ("bet_id") REFERENCES "public"."bets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bet_history" ADD CONSTRAINT "bet_history_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bet_history" ADD CONSTRAINT "bet_history_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bet_history_bet_idx" ON "bet_history" USING btree ("bet_id","id");--> statement-breakpoint
CREATE INDEX "bet_history_group_change_idx" ON "bet_history" USING btree ("group_id","change_txid");--> statement-breakpoint
ALTER TABLE "bets" ADD CONSTRAINT "bets_disputed_by_users_id_fk" FOREIGN KEY ("disputed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bets" ADD CONSTRAINT "bets_dispute_state_check" CHECK ("bets"."dispute_state" is null or "bets"."dispute_state" in ('open', 'closed'));--> statement-breakpoint
ALTER TABLE "ledger" ADD CONSTRAINT "ledger_kind_check" CHECK ("ledger"."kind" in ('join_grant', 'wager_placed', 'wager_changed', 'payout', 'refund', 'payout_reversed', 'refund_reversed'));--> statement-breakpoint
-- hand-written: change tracking for bet_history (as 0005 does for the mirrored tables), the history of existing bets, picks of bets already closed
CREATE TRIGGER "bet_history_stamp_change" BEFORE INSERT OR UPDATE ON "bet_history" FOR EACH ROW EXECUTE FUNCTION "hunch_stamp_change"();--> statement-breakpoint
INSERT INTO "bet_history" ("bet_id", "group_id", "kind", "actor_id", "created_at") SELECT "id", "group_id", 'created', "created_by", "created_at" FROM "bets";--> statement-breakpoint
INSERT INTO "bet_history" ("bet_id", "group_id", "kind", "actor_id", "correct_answer", "created_at") SELECT "id", "group_id", 'resolved', "resolved_by", "correct_answer", coalesce("resolved_at", "updated_at") FROM "bets" WHERE "state" = 'resolved';--> statement-breakpoint
INSERT INTO "bet_history" ("bet_id", "group_id", "kind", "actor_id", "created_at") SELECT "id", "group_id", "state", CASE WHEN "state" = 'cancelled' THEN "created_by" END, "updated_at" FROM "bets" WHERE "state" IN ('cancelled', 'expired');--> statement-breakpoint
UPDATE "bets" SET "picks_revealed_at" = now() WHERE "expires_at" <= now() OR "state" <> 'active';
