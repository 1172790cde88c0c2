CREATE TABLE "resolve_reminders" (
	"bet_id" integer PRIMARY KEY NOT NULL,
	"due_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "resolve_reminders" ADD CONSTRAINT "resolve_reminders_bet_id_bets_id_fk" FOREIGN KEY ("bet_id") REFERENCES "public"."bets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "resolve_reminders_due_idx" ON "resolve_reminders" USING btree ("due_at","bet_id");--> statement-breakpoint
-- Every active bet gets its row: due at its close, or a day after its creator's last resolve
-- reminder (domain resolveReminderDueAt; notifications' unique (user, key) index finds it).
INSERT INTO "resolve_reminders" ("bet_id", "due_at")
SELECT b."id", greatest(b."expires_at", (
  SELECT max(n."updated_at") + interval '1 day' FROM "notifications" n
  WHERE n."user_id" = b."created_by" AND n."key" = 'resolveReminder:bet:' || b."id" AND NOT n."coalesces"
))
FROM "bets" b WHERE b."state" = 'active';
