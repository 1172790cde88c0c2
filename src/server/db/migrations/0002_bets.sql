CREATE TABLE "bets" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"bet_type" text NOT NULL,
	"bet_type_config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"base_wager_amount" integer NOT NULL,
	"state" text DEFAULT 'active' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"correct_answer" text,
	"resolved_at" timestamp with time zone,
	"resolved_by" integer,
	"created_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bets_state_check" CHECK ("bets"."state" in ('draft', 'active', 'expired', 'resolved', 'cancelled')),
	CONSTRAINT "bets_type_check" CHECK ("bets"."bet_type" in ('yes_no', 'multiple_choice', 'numeric', 'over_under')),
	CONSTRAINT "bets_base_wager_check" CHECK ("bets"."base_wager_amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "wagers" (
	"id" serial PRIMARY KEY NOT NULL,
	"bet_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"prediction" text NOT NULL,
	"points" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wagers_points_check" CHECK ("wagers"."points" > 0)
);
--> statement-breakpoint
ALTER TABLE "bets" ADD CONSTRAINT "bets_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bets" ADD CONSTRAINT "bets_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bets" ADD CONSTRAINT "bets_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wagers" ADD CONSTRAINT "wagers_bet_id_bets_id_fk" FOREIGN KEY ("bet_id") REFERENCES "public"."bets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wagers" ADD CONSTRAINT "wagers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bets_group_state_expires_idx" ON "bets" USING btree ("group_id","state","expires_at");--> statement-breakpoint
CREATE INDEX "bets_created_by_idx" ON "bets" USING btree ("created_by");--> statement-breakpoint
CREATE UNIQUE INDEX "wagers_bet_user_unique" ON "wagers" USING btree ("bet_id","user_id");--> statement-breakpoint
CREATE INDEX "wagers_user_idx" ON "wagers" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "ledger" ADD CONSTRAINT "ledger_bet_id_bets_id_fk" FOREIGN KEY ("bet_id") REFERENCES "public"."bets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger" ADD CONSTRAINT "ledger_wager_id_wagers_id_fk" FOREIGN KEY ("wager_id") REFERENCES "public"."wagers"("id") ON DELETE no action ON UPDATE no action;