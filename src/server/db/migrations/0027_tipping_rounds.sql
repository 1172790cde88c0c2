-- Tipping rounds (src/server/db/rounds-schema.ts): rounds and their matches, each match a
-- score_tip bet whose tips are 0-point wagers (docs/rules.md "Tipping rounds").
CREATE TABLE "round_matches" (
	"id" serial PRIMARY KEY NOT NULL,
	"round_id" integer NOT NULL,
	"bet_id" integer NOT NULL,
	"position" integer NOT NULL,
	"home" text NOT NULL,
	"away" text NOT NULL,
	"kickoff" timestamp with time zone NOT NULL,
	"provider_match_id" integer,
	"result_checked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "rounds" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_by" integer,
	"scoring_exact" integer NOT NULL,
	"scoring_difference" integer NOT NULL,
	"scoring_tendency" integer NOT NULL,
	"close_minutes" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rounds_name_check" CHECK (char_length("rounds"."name") between 1 and 60),
	CONSTRAINT "rounds_scoring_check" CHECK ("rounds"."scoring_exact" >= "rounds"."scoring_difference" and "rounds"."scoring_difference" >= "rounds"."scoring_tendency" and "rounds"."scoring_tendency" >= 0 and "rounds"."scoring_exact" <= 100),
	CONSTRAINT "rounds_close_minutes_check" CHECK ("rounds"."close_minutes" between 0 and 1440)
);
--> statement-breakpoint
ALTER TABLE "bets" DROP CONSTRAINT "bets_type_check";--> statement-breakpoint
ALTER TABLE "wagers" DROP CONSTRAINT "wagers_points_check";--> statement-breakpoint
ALTER TABLE "round_matches" ADD CONSTRAINT "round_matches_round_id_rounds_id_fk" FOREIGN KEY ("round_id") REFERENCES "public"."rounds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "round_matches" ADD CONSTRAINT "round_matches_bet_id_bets_id_fk" FOREIGN KEY ("bet_id") REFERENCES "public"."bets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rounds" ADD CONSTRAINT "rounds_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rounds" ADD CONSTRAINT "rounds_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "round_matches_bet_idx" ON "round_matches" USING btree ("bet_id");--> statement-breakpoint
CREATE UNIQUE INDEX "round_matches_round_position_idx" ON "round_matches" USING btree ("round_id","position");--> statement-breakpoint
CREATE INDEX "round_matches_kickoff_idx" ON "round_matches" USING btree ("kickoff");--> statement-breakpoint
CREATE INDEX "rounds_group_idx" ON "rounds" USING btree ("group_id","id");--> statement-breakpoint
ALTER TABLE "bets" ADD CONSTRAINT "bets_type_check" CHECK ("bets"."bet_type" in ('yes_no', 'multiple_choice', 'numeric', 'over_under', 'score_tip'));--> statement-breakpoint
ALTER TABLE "wagers" ADD CONSTRAINT "wagers_points_check" CHECK ("wagers"."points" >= 0);