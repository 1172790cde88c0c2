-- Tipping rounds reach the devices' mirror (src/server/rounds/round-mirror.ts): rounds get the
-- change stamp of 0005 and the notify trigger of 0020; a round's matches travel with its row.
ALTER TABLE "rounds" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "rounds" ADD COLUMN "change_txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE INDEX "rounds_group_change_idx" ON "rounds" USING btree ("group_id","change_txid");--> statement-breakpoint
-- hand-written: change tracking for the local mirror (as 0005 and 0020 do).
CREATE TRIGGER "rounds_stamp_change" BEFORE INSERT OR UPDATE ON "rounds" FOR EACH ROW EXECUTE FUNCTION "hunch_stamp_change"();--> statement-breakpoint
CREATE TRIGGER "rounds_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "rounds" FOR EACH ROW EXECUTE FUNCTION "hunch_notify_change"('g', 'group_id');--> statement-breakpoint
UPDATE "rounds" SET "version" = 0;
