import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/connect';
import { prepared } from '../db/prepared';
import { refreshTokens } from '../db/schema';
import type { EventBus } from '../events';
import {
  sessionKey,
  type ChangePosition,
  type ChangeWatermarks,
} from '../mirror/change-watermarks';
import type { AuthUser } from './tokens';

// Whether an access token's session still lives. A token is signed for 15 minutes, but its
// session (its refresh token family, claim `fam`) can end before that: sign-out, sign-out
// everywhere, a password change or reset, a replayed refresh token, a deleted account. Every
// signed-in request asks here, so the end of a session ends every right of its tokens at once.
//
// The database says: one prepared lookup on the family's index. The instance then remembers
// the session as live until its refresh token expires or the instance hears it may have ended:
// - the only instance (PGlite without Redis: see `isOnlyInstance`) hears every end on its bus,
//   where `sessionsRevoked` is published after the commit that ended it, and forgets at once;
// - any instance hears every end from PostgreSQL (migration 0022 notifies "s<family>" in the
//   transaction that revokes or deletes a session's tokens; change-watermarks.ts counts them).
//   A request first waits for a fence (every commit before it arrived is then heard; requests
//   arriving together share one), then trusts the memory if nothing was heard of its session
//   since the lookup. Not listening, or any doubt, asks the database.

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
   * data). Then the bus vouches for the live sessions remembered; otherwise the change
   * notifications do, or, without them, every request asks the database.
   */
  isOnlyInstance: boolean;
  /** PostgreSQL's change notifications, which say when a session may have ended. */
  watermarks?: Pick<ChangeWatermarks, 'fence' | 'position' | 'isUnchangedSince'>;
  /** The clock that expires sessions with their refresh tokens; tests move it. */
  now?: () => Date;
}

export interface SessionLiveness {
  /**
   * Whether `user`'s token belongs to a session that is live now; a token naming no session
   * never is. `arrivedAt` is when the request arrived (`performance.now()`): the answer covers
   * every session ended before it.
   */
  isLive(user: AuthUser, arrivedAt?: number): Promise<boolean>;
  /** Stops listening to the bus. */
  stop(): void;
}

export function createSessionLiveness({
  db,
  events,
  isOnlyInstance,
  watermarks,
  now = () => new Date(),
}: SessionLivenessDeps): SessionLiveness {
  /**
   * Sessions found live: family → its user, when its refresh token expires (ms) and, when the
   * change notifications vouch for it, where they were when the lookup began.
   */
  const remembered = new Map<
    string,
    { userId: number; expiresAt: number; since: ChangePosition | null }
  >();
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
    async isLive(user, arrivedAt = performance.now()) {
      const family = user.sessionFamily;
      if (!family) return false;
      const at = now();
      const known = remembered.get(family);
      if (known && known.userId === user.id && known.expiresAt > at.getTime()) {
        if (known.since === null) return true;
        const key = sessionKey(family);
        if (
          watermarks!.isUnchangedSince(known.since, key) &&
          (await watermarks!.fence(arrivedAt)) &&
          watermarks!.isUnchangedSince(known.since, key)
        )
          return true;
        remembered.delete(family);
      }
      const endingsBefore = endings;
      // Read before the lookup: an end the lookup misses is notified after it.
      const since = isOnlyInstance ? null : (watermarks?.position() ?? null);
      const [row] = await liveSession(db, {
        familyId: family,
        userId: user.id,
        at: at.toISOString(),
      });
      if (!row) return false;
      // A session ended while the lookup ran may have been read live: answer this request
      // (it began before the end), but remember it only when that end will be heard.
      if ((isOnlyInstance || since !== null) && endingsBefore === endings) {
        if (remembered.size >= REMEMBERED_SESSIONS)
          remembered.delete(remembered.keys().next().value!);
        remembered.set(family, { userId: user.id, expiresAt: row.expiresAt.getTime(), since });
      }
      return true;
    },
    stop,
  };
}
