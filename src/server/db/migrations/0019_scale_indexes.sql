CREATE INDEX "bets_active_expires_idx" ON "bets" USING btree ("expires_at","id") WHERE "bets"."state" = 'active';--> statement-breakpoint
CREATE INDEX "bets_hidden_picks_expires_idx" ON "bets" USING btree ("expires_at","id") WHERE "bets"."state" = 'active' and "bets"."picks_revealed_at" is null;--> statement-breakpoint
CREATE INDEX "memberships_available_idx" ON "memberships" USING btree ("available_points") WHERE "memberships"."left_at" is null;--> statement-breakpoint
CREATE INDEX "notifications_bet_idx" ON "notifications" USING btree ("bet_id");