import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/connect';
import { prepared } from '../db/prepared';
import { refreshTokens } from '../db/schema';
import type { EventBus } from '../events';
import type { AuthUser } from './tokens';

// Whether an access token's session still lives. A token is signed for 15 minutes, but its
// session (its refresh token family, claim `fam`) can end before that: sign-out, sign-out
// everywhere, a password change or reset, a replayed refresh token, a deleted account. Every
// signed-in request asks here, so the end of a session ends every right of its tokens at once.
//
// The database says: one prepared lookup on the family's index. An instance that hears of
// every session that ends (see `isOnlyInstance`) also remembers the sessions it found live,
// and forgets a user's at once when `sessionsRevoked` is published after the commit that ended
// them; the lookup then answers again. Only then: another instance would end sessions
// without this one hearing of it in time.

const liveSession = prepared<
  Array<{ expiresAt: Date }>,
  { familyId: string; userId: number; at: string }
>('liveSession', (db) =>
  db
    .select({ expiresAt: refreshTokens.expiresAt })
    .from(refreshTokens)
    .where(
      and(
        eq(refreshTokens.familyId, sql.placeholder('familyId')),
        eq(refreshTokens.userId, sql.placeholder('userId')),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, sql.placeholder('at')),
      ),
    )
    .limit(1),
);

/** How many live sessions an instance remembers (oldest first out). */
const REMEMBERED_SESSIONS = 10_000;

export interface SessionLivenessDeps {
  db: Database;
  events: EventBus;
  /**
   * Whether no other instance can end a session this one must know of: true only on PGlite
   * (one process holds its folder) without REDIS_URL (which means other instances share the
   * data). Then live sessions are remembered; otherwise every request asks the database.
   */
  isOnlyInstance: boolean;
  /** The clock that expires sessions with their refresh tokens; tests move it. */
  now?: () => Date;
}

export interface SessionLiveness {
  /** Whether `user`'s token belongs to a session that is live now; a token naming no session never is. */
  isLive(user: AuthUser): Promise<boolean>;
  /** Stops listening to the bus. */
  stop(): void;
}

export function createSessionLiveness({
  db,
  events,
  isOnlyInstance,
  now = () => new Date(),
}: SessionLivenessDeps): SessionLiveness {
  /** Sessions found live: family → its user and when its refresh token expires (ms). */
  const remembered = new Map<string, { userId: number; expiresAt: number }>();
  /** Counts the sessionsRevoked heard: a lookup started before one may have read a session just ended. */
  let endings = 0;

  const stop = events.subscribe((published) => {
    if (published.event !== 'sessionsRevoked') return;
    endings += 1;
    const { userId } = published.payload;
    for (const [family, session] of remembered)
      if (session.userId === userId) remembered.delete(family);
  });

  return {
    async isLive(user) {
      const family = user.sessionFamily;
      if (!family) return false;
      const at = now();
      const known = remembered.get(family);
      if (known && known.userId === user.id && known.expiresAt > at.getTime()) return true;
      const endingsBefore = endings;
      const [row] = await liveSession(db, {
        familyId: family,
        userId: user.id,
        at: at.toISOString(),
      });
      if (!row) return false;
      // A session ended while the lookup ran may have been read live: answer this request
      // (it began before the end), but do not remember it.
      if (isOnlyInstance && endingsBefore === endings) {
        if (remembered.size >= REMEMBERED_SESSIONS)
          remembered.delete(remembered.keys().next().value!);
        remembered.set(family, { userId: user.id, expiresAt: row.expiresAt.getTime() });
      }
      return true;
    },
    stop,
  };
}
