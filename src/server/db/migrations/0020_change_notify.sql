-- Each instance answers a pull with nothing new from memory (src/server/mirror/change-watermarks.ts):
-- every write the pull's change check looks at also says, in its own transaction, whose it is
-- ("g<group id>", "u<user id>"). NOTIFY is delivered at commit, in commit order, and never for a
-- transaction rolled back. The arguments are pairs: a key's letter, then the column naming it.
CREATE FUNCTION "hunch_notify_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  row_json jsonb := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
  keys text := '';
  i integer := 0;
BEGIN
  WHILE i < TG_NARGS LOOP
    keys := keys || ' ' || TG_ARGV[i] || (row_json ->> TG_ARGV[i + 1]);
    i := i + 2;
  END LOOP;
  PERFORM pg_notify('hunch_changes', ltrim(keys));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "groups_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "groups" FOR EACH ROW EXECUTE FUNCTION "hunch_notify_change"('g', 'id');--> statement-breakpoint
CREATE TRIGGER "memberships_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "memberships" FOR EACH ROW EXECUTE FUNCTION "hunch_notify_change"('g', 'group_id', 'u', 'user_id');--> statement-breakpoint
CREATE TRIGGER "bets_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "bets" FOR EACH ROW EXECUTE FUNCTION "hunch_notify_change"('g', 'group_id');--> statement-breakpoint
CREATE TRIGGER "wagers_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "wagers" FOR EACH ROW EXECUTE FUNCTION "hunch_notify_change"('u', 'user_id');--> statement-breakpoint
CREATE TRIGGER "bet_comments_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "bet_comments" FOR EACH ROW EXECUTE FUNCTION "hunch_notify_change"('g', 'group_id');--> statement-breakpoint
CREATE TRIGGER "seasons_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "seasons" FOR EACH ROW EXECUTE FUNCTION "hunch_notify_change"('g', 'group_id');--> statement-breakpoint
CREATE TRIGGER "notifications_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "notifications" FOR EACH ROW EXECUTE FUNCTION "hunch_notify_change"('u', 'user_id');--> statement-breakpoint
CREATE TRIGGER "notification_settings_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "notification_settings" FOR EACH ROW EXECUTE FUNCTION "hunch_notify_change"('u', 'user_id');--> statement-breakpoint
CREATE TRIGGER "client_mutations_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "client_mutations" FOR EACH ROW EXECUTE FUNCTION "hunch_notify_change"('u', 'user_id');--> statement-breakpoint
CREATE TRIGGER "client_mutation_outcomes_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "client_mutation_outcomes" FOR EACH ROW EXECUTE FUNCTION "hunch_notify_change"('u', 'user_id');
