import { and, eq, gt, gte, inArray, isNull, lte, ne, sql } from 'drizzle-orm';
import {
  COALESCING_KINDS,
  type Notification,
  type NotificationKind,
  type NotificationPayload,
} from '../../domain/notifications';
import { ODDS_PUSH_INTERVAL_MS } from '../../domain/push';
import type { Executor } from '../db/connect';
import { rowsFromJson } from '../db/json-rows';
import { notifications, pushOddsNotices, type NotificationRow } from '../db/schema';
import { isoTime } from '../iso-time';

// The notifications feature's own tables: every write of `notifications` and
// `notification_settings` is here. An entry is written by one conditional upsert, so two
// instances (or a job re-run after a restart) writing the same entry at once agree on one row.

/** An entry to write: the recipient, what it is about and the facts of its text. */
export interface NotificationEntry {
  userId: number;
  kind: NotificationKind;
  groupId: number;
  betId: number | null;
  /** Who caused it, when someone did (a bet's creator, the member joining, a comment's author). */
  actorId?: number | null;
  /** The event an entry of a kind written once per event is about: its bet history row id, a top-up's ISO week, a season's id, a removal's group version. */
  eventKey?: string | number;
  payload: NotificationPayload;
}

/** A written entry, and whether this write is the one that pushes it (its first, or a burst's first in the window). */
export interface SavedNotification {
  row: NotificationRow;
  isPushDue: boolean;
}

/** What an entry is about: one row per (user, key) — for good for the kinds sent once, while unread for the gathering ones. */
export function notificationKey(
  entry: Pick<NotificationEntry, 'kind' | 'groupId' | 'betId' | 'eventKey'>,
): string {
  switch (entry.kind) {
    case 'betCreated':
      return `bet-created:group:${entry.groupId}`;
    case 'memberJoined':
      return `member-joined:group:${entry.groupId}`;
    case 'resultUndone':
    case 'disputeOpened':
    case 'disputeClosed':
      return `${entry.kind}:history:${entry.eventKey}`;
    case 'floorTopUp':
      return `floor-top-up:group:${entry.groupId}:${entry.eventKey}`;
    case 'seasonEnded':
      return `season-ended:season:${entry.eventKey}`;
    case 'removedFromGroup':
      return `removed:group:${entry.groupId}:${entry.eventKey}`;
    case 'webhookPaused':
      return `webhook-paused:hook:${entry.eventKey}`;
    case 'closesSoon':
    case 'resolveReminder':
    case 'betResult':
    case 'comments':
    case 'oddsChanged':
      return `${entry.kind}:bet:${entry.betId}`;
  }
}

/** The kinds written once for good, never updated: one per bet, or one per event (`eventKey`). */
const ONCE_KINDS: readonly NotificationKind[] = [
  'closesSoon',
  'resultUndone',
  'disputeOpened',
  'disputeClosed',
  'floorTopUp',
  'seasonEnded',
];

const RESOLVE_REMINDER_INTERVAL = sql.raw(`interval '1 day'`);
/**
 * Writes entries of one kind at `now`: a gathering kind adds to the recipient's unread entry
 * (count + 1, the latest facts); `closesSoon` and the per-event kinds (a result undone, a
 * dispute opened or closed, a weekly top-up, a season's end) are written once and never again; a result
 * replaces its facts (a bet resolved again), pushed once; a resolve reminder comes back, unread,
 * at most once a day. Answers the rows this call wrote (none where nothing was due).
 */
export async function saveNotifications(
  tx: Executor,
  kind: NotificationKind,
  entries: readonly Omit<NotificationEntry, 'kind'>[],
  now: Date,
): Promise<SavedNotification[]> {
  if (entries.length === 0) return [];
  const coalesces = COALESCING_KINDS.includes(kind);
  const values = entries.map(({ eventKey, ...entry }) => ({
    ...entry,
    kind,
    key: notificationKey({ ...entry, eventKey, kind }),
    coalesces,
    createdAt: now,
    updatedAt: now,
    pushedAt: now,
  }));
  const target = [notifications.userId, notifications.key];
  const insert = tx.insert(notifications).select(rowsFromJson(notifications, values));
  let rows: NotificationRow[];
  if (coalesces) {
    rows = await insert
      .onConflictDoUpdate({
        target,
        targetWhere: sql`${notifications.coalesces} and ${notifications.readAt} is null`,
        set: {
          count: sql`${notifications.count} + 1`,
          betId: sql`excluded.bet_id`,
          actorId: sql`excluded.actor_id`,
          payload: sql`excluded.payload`,
          updatedAt: sql`excluded.updated_at`,
          // Each addition is pushed under the entry's tag: the device replaces its notice with
          // the gathered one ("3 new bets in Friday Quiz") rather than stacking a new one.
          pushedAt: sql`excluded.updated_at`,
        },
      })
      .returning();
  } else if (ONCE_KINDS.includes(kind)) {
    rows = await insert
      .onConflictDoNothing({ target, where: sql`not ${notifications.coalesces}` })
      .returning();
  } else if (kind === 'resolveReminder') {
    rows = await insert
      .onConflictDoUpdate({
        target,
        targetWhere: sql`not ${notifications.coalesces}`,
        set: {
          count: sql`${notifications.count} + 1`,
          payload: sql`excluded.payload`,
          updatedAt: sql`excluded.updated_at`,
          readAt: null,
        },
        setWhere: sql`${notifications.updatedAt} <= excluded.updated_at - ${RESOLVE_REMINDER_INTERVAL}`,
      })
      .returning();
  } else {
    rows = await insert
      .onConflictDoUpdate({
        target,
        targetWhere: sql`not ${notifications.coalesces}`,
        set: {
          payload: sql`excluded.payload`,
          updatedAt: sql`excluded.updated_at`,
          readAt: null,
          // A result whose resolution was undone is pushed again when the bet is resolved anew.
          pushedAt: sql`case when ${notifications.payload}->>'outcome' = 'undone' then excluded.pushed_at else ${notifications.pushedAt} end`,
        },
      })
      .returning();
  }
  return rows.map((row) => ({
    row,
    isPushDue: row.pushedAt !== null && row.pushedAt.getTime() === row.updatedAt.getTime(),
  }));
}

export function presentNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    kind: row.kind,
    groupId: row.groupId,
    betId: row.betId,
    count: row.count,
    payload: row.payload,
    createdAt: isoTime(row.createdAt),
    updatedAt: isoTime(row.updatedAt),
    readAt: row.readAt ? isoTime(row.readAt) : null,
    version: row.version,
  };
}

/** The caller's entries `ids` that were unread are read now; answers those it changed. */
export async function markRead(
  tx: Executor,
  userId: number,
  ids: readonly number[],
  now: Date,
): Promise<NotificationRow[]> {
  return tx
    .update(notifications)
    .set({ readAt: now })
    .where(
      and(
        eq(notifications.userId, userId),
        inArray(notifications.id, [...ids]),
        isNull(notifications.readAt),
      ),
    )
    .returning();
}

/** A bet that is resolved, cancelled or expired calls for no action: its unread resolve reminders are read now. */
export async function readResolveReminders(
  tx: Executor,
  betId: number,
  now: Date,
): Promise<NotificationRow[]> {
  return tx
    .update(notifications)
    .set({ readAt: now })
    .where(
      and(
        eq(notifications.kind, 'resolveReminder'),
        eq(notifications.betId, betId),
        isNull(notifications.readAt),
      ),
    )
    .returning();
}

/**
 * A bet's resolution was undone: its results no longer claim what was won. Each becomes an
 * "undone" result, read (the undo's own entry says what happened); resolving the bet again
 * writes the new result over it, unread and pushed.
 */
export async function supersedeResults(
  tx: Executor,
  betId: number,
  now: Date,
): Promise<NotificationRow[]> {
  return tx
    .update(notifications)
    .set({
      payload: sql`(${notifications.payload} - 'answer' - 'winnings') || '{"outcome":"undone"}'::jsonb`,
      updatedAt: now,
      readAt: sql`coalesce(${notifications.readAt}, ${now.toISOString()}::timestamptz)`,
    })
    .where(and(eq(notifications.kind, 'betResult'), eq(notifications.betId, betId)))
    .returning();
}

/**
 * A comment was deleted: the unread comments entry it was counted in counts one less (each
 * recipient's, not its author's). The entry it was counted in is the one unread since the
 * comment was posted, unless an older entry was read after it was posted (it went there). At zero
 * the entry is read and left out of every inbox; quoting the deleted comment, it quotes no more.
 */
export async function uncountComment(
  tx: Executor,
  comment: { betId: number; userId: number; createdAt: Date },
  now: Date,
): Promise<NotificationRow[]> {
  const posted = comment.createdAt.toISOString();
  return tx
    .update(notifications)
    .set({
      count: sql`${notifications.count} - 1`,
      readAt: sql`case when ${notifications.count} <= 1 then ${now.toISOString()}::timestamptz else null end`,
      payload: sql`case when ${notifications.actorId} = ${comment.userId} then ${notifications.payload} - 'excerpt' else ${notifications.payload} end`,
    })
    .where(
      and(
        eq(notifications.kind, 'comments'),
        eq(
          notifications.key,
          notificationKey({ kind: 'comments', groupId: 0, betId: comment.betId }),
        ),
        isNull(notifications.readAt),
        gt(notifications.count, 0),
        ne(notifications.userId, comment.userId),
        gte(notifications.updatedAt, comment.createdAt),
        sql`not exists (select 1 from ${notifications} as earlier where earlier.user_id = ${notifications.userId} and earlier.key = ${notifications.key} and earlier.id < ${notifications.id} and earlier.read_at > ${posted}::timestamptz)`,
      ),
    )
    .returning();
}

/** Every unread entry of the caller whose last activity is at or before `upTo` is read now. */
export async function markAllRead(
  tx: Executor,
  userId: number,
  upTo: Date,
  now: Date,
): Promise<number> {
  const rows = await tx
    .update(notifications)
    .set({ readAt: now })
    .where(
      and(
        eq(notifications.userId, userId),
        isNull(notifications.readAt),
        lte(notifications.updatedAt, upTo),
      ),
    )
    .returning({ id: notifications.id });
  return rows.length;
}

/** The player's own inbox, newest activity first (the account export). */
export async function readNotificationsOf(
  tx: Executor,
  userId: number,
): Promise<NotificationRow[]> {
  return tx
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(sql`${notifications.updatedAt} desc`, sql`${notifications.id} desc`);
}

/**
 * Claims the "odds moved" entry of each (user, bet) pair whose user was not told of that bet
 * in the last 10 minutes, and returns those pairs. One conditional upsert: concurrent wagers,
 * on one instance or several, never both win the same person's claim.
 */
export async function claimOddsNotices(
  tx: Executor,
  pairs: ReadonlyArray<{ userId: number; betId: number }>,
  at: Date,
): Promise<Array<{ userId: number; betId: number }>> {
  if (pairs.length === 0) return [];
  return tx
    .insert(pushOddsNotices)
    .select(
      rowsFromJson(
        pushOddsNotices,
        pairs.map(({ userId, betId }) => ({ userId, betId, lastSentAt: at })),
      ),
    )
    .onConflictDoUpdate({
      target: [pushOddsNotices.userId, pushOddsNotices.betId],
      set: { lastSentAt: sql`excluded.last_sent_at` },
      setWhere: lte(pushOddsNotices.lastSentAt, new Date(at.getTime() - ODDS_PUSH_INTERVAL_MS)),
    })
    .returning({ userId: pushOddsNotices.userId, betId: pushOddsNotices.betId });
}

/** Entries whose last activity is older than the retention go (the job's last step). */
export async function pruneNotifications(tx: Executor, before: Date): Promise<number> {
  const rows = await tx
    .delete(notifications)
    .where(lte(notifications.updatedAt, before))
    .returning({ id: notifications.id });
  return rows.length;
}
