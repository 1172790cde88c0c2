ALTER TABLE "bets" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "bets" ADD COLUMN "change_txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "change_txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "change_txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "wagers" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "wagers" ADD COLUMN "change_txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE INDEX "bets_group_change_idx" ON "bets" USING btree ("group_id","change_txid");--> statement-breakpoint
CREATE INDEX "memberships_group_change_idx" ON "memberships" USING btree ("group_id","change_txid");--> statement-breakpoint
CREATE INDEX "wagers_user_change_idx" ON "wagers" USING btree ("user_id","change_txid");--> statement-breakpoint
-- Change tracking for the local mirror (src/server/mirror): every insert and update of the
-- mirrored tables takes the next version and records its transaction.
CREATE SEQUENCE "hunch_change_seq";--> statement-breakpoint
CREATE FUNCTION "hunch_stamp_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.version := nextval('hunch_change_seq');
  NEW.change_txid := pg_current_xact_id();
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "groups_stamp_change" BEFORE INSERT OR UPDATE ON "groups" FOR EACH ROW EXECUTE FUNCTION "hunch_stamp_change"();--> statement-breakpoint
CREATE TRIGGER "memberships_stamp_change" BEFORE INSERT OR UPDATE ON "memberships" FOR EACH ROW EXECUTE FUNCTION "hunch_stamp_change"();--> statement-breakpoint
CREATE TRIGGER "bets_stamp_change" BEFORE INSERT OR UPDATE ON "bets" FOR EACH ROW EXECUTE FUNCTION "hunch_stamp_change"();--> statement-breakpoint
CREATE TRIGGER "wagers_stamp_change" BEFORE INSERT OR UPDATE ON "wagers" FOR EACH ROW EXECUTE FUNCTION "hunch_stamp_change"();--> statement-breakpoint
UPDATE "groups" SET "version" = 0;--> statement-breakpoint
UPDATE "memberships" SET "version" = 0;--> statement-breakpoint
UPDATE "bets" SET "version" = 0;--> statement-breakpoint
UPDATE "wagers" SET "version" = 0;--> statement-breakpoint
-- A member's name is part of their membership rows in the mirror: a rename changes them.
CREATE FUNCTION "hunch_stamp_renamed_member"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "memberships" SET "version" = 0 WHERE "user_id" = NEW.id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "users_stamp_renamed_member" AFTER UPDATE OF "display_name" ON "users" FOR EACH ROW
  WHEN (OLD.display_name IS DISTINCT FROM NEW.display_name) EXECUTE FUNCTION "hunch_stamp_renamed_member"();
