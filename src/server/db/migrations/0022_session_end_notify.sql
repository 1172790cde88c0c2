-- Each instance remembers the sessions it found live (src/server/auth/session-liveness.ts) and
-- asks the database again once one may have ended: every end of a session says so, in its own
-- transaction, on the same channel as 0020's changes ("s<family id>"). A session ends when its
-- refresh tokens are revoked (sign-out, sign-out everywhere, a password change or reset, a
-- replayed token; a refresh revokes the token it replaces) or deleted (a deleted account).
CREATE TRIGGER "refresh_tokens_notify_revoke" AFTER UPDATE OF "revoked_at" ON "refresh_tokens" FOR EACH ROW WHEN (OLD."revoked_at" IS NULL AND NEW."revoked_at" IS NOT NULL) EXECUTE FUNCTION "hunch_notify_change"('s', 'family_id');--> statement-breakpoint
CREATE TRIGGER "refresh_tokens_notify_delete" AFTER DELETE ON "refresh_tokens" FOR EACH ROW EXECUTE FUNCTION "hunch_notify_change"('s', 'family_id');
