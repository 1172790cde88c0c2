-- A group's stake tiers (src/domain/stakes.ts) and repeating bets' series (src/server/db/repeat-schema.ts):
-- one bet per series and slot, by a unique index.
CREATE TABLE "bet_repeats" (
	"bet_id" integer PRIMARY KEY NOT NULL,
	"every" text NOT NULL,
	"until" timestamp with time zone,
	"time_zone" text NOT NULL,
	"last_slot" integer DEFAULT 0 NOT NULL,
	"next_due_at" timestamp with time zone,
	CONSTRAINT "bet_repeats_every_check" CHECK ("bet_repeats"."every" in ('day', 'week', 'month'))
);
--> statement-breakpoint
ALTER TABLE "bets" ADD COLUMN "repeat_of" integer;--> statement-breakpoint
ALTER TABLE "bets" ADD COLUMN "repeat_slot" integer;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "stake_tiers" integer[] DEFAULT '{1,2,3}' NOT NULL;--> statement-breakpoint
ALTER TABLE "bet_repeats" ADD CONSTRAINT "bet_repeats_bet_id_bets_id_fk" FOREIGN KEY ("bet_id") REFERENCES "public"."bets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bet_repeats_due_idx" ON "bet_repeats" USING btree ("next_due_at") WHERE "bet_repeats"."next_due_at" is not null;--> statement-breakpoint
ALTER TABLE "bets" ADD CONSTRAINT "bets_repeat_of_bets_id_fk" FOREIGN KEY ("repeat_of") REFERENCES "public"."bets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bets_repeat_slot_unique" ON "bets" USING btree ("repeat_of","repeat_slot") WHERE "bets"."repeat_of" is not null;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_stake_tiers_check" CHECK ("groups"."stake_tiers" in ('{1,2,3}', '{5,10,15}', '{10,20,30}'));