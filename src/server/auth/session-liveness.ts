import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/connect';
import { prepared } from '../db/prepared';
import { apiTokens, refreshTokens, users } from '../db/schema';
import { invalidAccessToken, invalidApiToken } from '../errors';
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
// A personal API token is a session of its own, under the key "t<id>": it lives while its row
// does (revoking deletes it, and migration 0030 notifies "st<id>" then), with no expiry.

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

const liveApiToken = prepared<Array<{ id: number }>, { id: number; userId: number }>(
  'liveApiToken',
  (db) =>
    db
      .select({ id: apiTokens.id })
      .from(apiTokens)
      .where(
        and(
          eq(apiTokens.id, sql.placeholder('id')),
          eq(apiTokens.userId, sql.placeholder('userId')),
        ),
      )
      .limit(1),
);

/** The session a bearer's rights hang on: its refresh token family, or its API token ("t<id>"). */
const livenessIdOf = (user: AuthUser): string | undefined =>
  user.apiToken ? `t${user.apiToken.id}` : user.sessionFamily;

/** When the session ends by itself (ms): its refresh token's expiry; an API token never does. */
async function findLiveSession(db: Database, user: AuthUser, at: Date): Promise<number | null> {
  if (user.apiToken) {
    const [token] = await liveApiToken(db, { id: user.apiToken.id, userId: user.id });
    return token ? Infinity : null;
  }
  const [row] = await liveSession(db, {
    familyId: user.sessionFamily!,
    userId: user.id,
    at: at.toISOString(),
  });
  return row ? row.expiresAt.getTime() : null;
}

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
      const family = livenessIdOf(user);
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
      const expiresAt = await findLiveSession(db, user, at);
      if (expiresAt === null) return false;
      // A session ended while the lookup ran may have been read live: answer this request
      // (it began before the end), but remember it only when that end will be heard.
      if ((isOnlyInstance || since !== null) && endingsBefore === endings) {
        if (remembered.size >= REMEMBERED_SESSIONS)
          remembered.delete(remembered.keys().next().value!);
        remembered.set(family, { userId: user.id, expiresAt, since });
      }
      return true;
    },
    stop,
  };
}

/**
 * Locks an account's row against the writes of its sessions: every end of a session (sign-out,
 * sign-out everywhere, a password change or reset), a deletion and a refresh (which ends the
 * family when replayed) take it FOR UPDATE before they touch a refresh token, so a write holding
 * it (`requireLiveCaller`) commits before the end answers, or runs after it and is refused.
 */
export async function lockAccountForSessionEnd(tx: Executor, userId: number): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

const caller = prepared<Array<{ id: number }>, { userId: number }>('lockCaller', (db) =>
  db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .for('key share'),
);

/**
 * In a write's own transaction, before it decides anything: locks the caller's account row
 * (KEY SHARE, second in the lock order of db/README.md, after a pushed write's client row),
 * then checks that the account is not deleted and the token's session is live, or throws 401
 * invalid_access_token. The check is a statement of its own, after the lock: under READ
 * COMMITTED it sees whatever a deletion or an end of session committed while the lock waited,
 * and from then on neither can commit before this write does. So no write under a session (or
 * account) commits after its end has answered, however long the request (a push of 100 writes)
 * has been running.
 */
export async function requireLiveCaller(tx: Executor, user: AuthUser, at: Date): Promise<void> {
  const family = user.sessionFamily;
  const [locked] = await caller(tx, { userId: user.id });
  if (user.apiToken) {
    // Revoking a token and deleting the account take the account's row FOR UPDATE first.
    const [token] = locked ? await liveApiToken(tx, { id: user.apiToken.id, userId: user.id }) : [];
    if (!token) throw invalidApiToken();
    return;
  }
  if (!locked || !family) throw invalidAccessToken();
  const [live] = await tx
    .select({ one: sql<number>`1` })
    .from(refreshTokens)
    .innerJoin(users, eq(users.id, refreshTokens.userId))
    .where(
      and(
        eq(refreshTokens.familyId, family),
        eq(refreshTokens.userId, user.id),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, at),
        isNull(users.deletedAt),
      ),
    )
    .limit(1);
  if (!live) throw invalidAccessToken();
}
