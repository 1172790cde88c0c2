CREATE TABLE "season_standings" (
	"season_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"rank" integer NOT NULL,
	"points" integer NOT NULL,
	"user_name" text NOT NULL,
	"total_points" integer NOT NULL,
	CONSTRAINT "season_standings_season_id_user_id_pk" PRIMARY KEY("season_id","user_id"),
	CONSTRAINT "season_standings_rank_check" CHECK ("season_standings"."rank" >= 1)
);
--> statement-breakpoint
CREATE TABLE "seasons" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"name" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"reset_points" boolean DEFAULT false NOT NULL,
	"created_by" integer,
	"state" text DEFAULT 'active' NOT NULL,
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"change_txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	CONSTRAINT "seasons_name_check" CHECK (char_length("seasons"."name") between 1 and 40),
	CONSTRAINT "seasons_state_check" CHECK ("seasons"."state" in ('active', 'ended')),
	CONSTRAINT "seasons_ended_check" CHECK (("seasons"."state" = 'ended') = ("seasons"."ended_at" is not null)),
	CONSTRAINT "seasons_span_check" CHECK ("seasons"."starts_at" < "seasons"."ends_at")
);
--> statement-breakpoint
ALTER TABLE "ledger" DROP CONSTRAINT "ledger_kind_check";--> statement-breakpoint
ALTER TABLE "season_standings" ADD CONSTRAINT "season_standings_season_id_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."seasons"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "season_standings" ADD CONSTRAINT "season_standings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seasons" ADD CONSTRAINT "seasons_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seasons" ADD CONSTRAINT "seasons_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "seasons_one_active_per_group" ON "seasons" USING btree ("group_id") WHERE "seasons"."state" = 'active';--> statement-breakpoint
CREATE INDEX "seasons_active_ends_idx" ON "seasons" USING btree ("ends_at") WHERE "seasons"."state" = 'active';--> statement-breakpoint
CREATE INDEX "seasons_group_change_idx" ON "seasons" USING btree ("group_id","change_txid");--> statement-breakpoint
ALTER TABLE "ledger" ADD CONSTRAINT "ledger_kind_check" CHECK ("ledger"."kind" in ('join_grant', 'wager_placed', 'wager_changed', 'payout', 'refund', 'payout_reversed', 'refund_reversed', 'floor_top_up', 'season_reset'));--> statement-breakpoint
-- hand-written: change tracking for the local mirror (as 0005 does): seasons are mirrored, their standings ride with them.
CREATE TRIGGER "seasons_stamp_change" BEFORE INSERT OR UPDATE ON "seasons" FOR EACH ROW EXECUTE FUNCTION "hunch_stamp_change"();
