ALTER TABLE "bets" ADD COLUMN "members_at_resolution" integer;--> statement-breakpoint
-- Bets resolved before: today's member count is the best known.
UPDATE "bets" SET "members_at_resolution" = (
  SELECT count(*) FROM "memberships" m WHERE m."group_id" = "bets"."group_id" AND m."left_at" IS NULL
) WHERE "state" = 'resolved';
