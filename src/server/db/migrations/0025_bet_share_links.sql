-- A bet's public link (src/server/db/share-schema.ts): one live token per bet, kept until turned off.
CREATE TABLE "bet_share_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"bet_id" integer NOT NULL,
	"shared_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by" integer
);
--> statement-breakpoint
ALTER TABLE "bet_share_links" ADD CONSTRAINT "bet_share_links_bet_id_bets_id_fk" FOREIGN KEY ("bet_id") REFERENCES "public"."bets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bet_share_links" ADD CONSTRAINT "bet_share_links_shared_by_users_id_fk" FOREIGN KEY ("shared_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bet_share_links" ADD CONSTRAINT "bet_share_links_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bet_share_links_token_idx" ON "bet_share_links" USING btree ("token");--> statement-breakpoint
CREATE UNIQUE INDEX "bet_share_links_live_idx" ON "bet_share_links" USING btree ("bet_id") WHERE "bet_share_links"."revoked_at" is null;