-- A reset link works only while the account's email is the address it was mailed to. Links
-- mailed before this was kept cannot say where they went: those still unused end (they last an
-- hour; the player asks for a new one), and every row names the account's email of today.
ALTER TABLE "password_resets" ADD COLUMN "sent_to" text;--> statement-breakpoint
UPDATE "password_resets" SET "sent_to" = coalesce("users"."email", ''),
  "used_at" = coalesce("password_resets"."used_at", now())
FROM "users" WHERE "users"."id" = "password_resets"."user_id";--> statement-breakpoint
ALTER TABLE "password_resets" ALTER COLUMN "sent_to" SET NOT NULL;
