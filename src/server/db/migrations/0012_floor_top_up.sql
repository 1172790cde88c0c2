CREATE TABLE "floor_top_ups" (
	"group_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"week" text NOT NULL,
	"points" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "floor_top_ups_group_id_user_id_week_pk" PRIMARY KEY("group_id","user_id","week"),
	CONSTRAINT "floor_top_ups_points_check" CHECK ("floor_top_ups"."points" > 0)
);
--> statement-breakpoint
ALTER TABLE "ledger" DROP CONSTRAINT "ledger_kind_check";--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "floor_top_up" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "floor_top_ups" ADD CONSTRAINT "floor_top_ups_membership_fk" FOREIGN KEY ("group_id","user_id") REFERENCES "public"."memberships"("group_id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger" ADD CONSTRAINT "ledger_kind_check" CHECK ("ledger"."kind" in ('join_grant', 'wager_placed', 'wager_changed', 'payout', 'refund', 'payout_reversed', 'refund_reversed', 'floor_top_up'));