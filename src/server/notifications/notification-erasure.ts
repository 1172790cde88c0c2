import { and, desc, eq, gt, inArray, isNull, lt, lte, ne, sql } from 'drizzle-orm';
import { DELETED_PLAYER_NAME } from '../../domain/account-data';
import { namesPhrase } from '../../domain/seasons';
import type { Executor } from '../db/connect';
import { memberships, notifications, notificationSettings, users } from '../db/schema';

// What a deleted account leaves in the inboxes (src/server/auth/account-data.service.ts): its
// own inbox and settings go, and the entries it caused in others' no longer name or quote it.

/**
 * A deleted account (src/server/auth/account-data.service.ts): its own inbox and choices go,
 * and the entries it caused in others' inboxes no longer name it or quote it.
 */
export async function forgetNotificationsOf(tx: Executor, userId: number): Promise<void> {
  await tx.delete(notifications).where(eq(notifications.userId, userId));
  await tx.delete(notificationSettings).where(eq(notificationSettings.userId, userId));
  await uncountJoin(tx, userId);
  await unnameActor(tx, userId);
  await unnameWinner(tx, userId);
}

/**
 * A deleted account left its groups, so no friend should read that it joined: a "joined" entry
 * it was the latest of counts one less (one of it alone, count 0, is read and left out of every
 * inbox) and names the latest other player who joined in its time, if one is still a member; the
 * group's player count drops with it. Restamped by the update, so every mirror pulls it.
 */
async function uncountJoin(tx: Executor, userId: number): Promise<void> {
  const rows = await tx
    .select()
    .from(notifications)
    .where(
      and(
        eq(notifications.kind, 'memberJoined'),
        eq(notifications.actorId, userId),
        gt(notifications.count, 0),
      ),
    );
  for (const row of rows) {
    // The entry gathers the joins since the recipient's previous entry of the group.
    const [previous] = await tx
      .select({ at: sql<Date | null>`max(${notifications.updatedAt})` })
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, row.userId),
          eq(notifications.key, row.key),
          lt(notifications.id, row.id),
        ),
      );
    const since = previous?.at ? new Date(previous.at) : null;
    const [latest] =
      row.count > 1
        ? await tx
            .select({ id: users.id, name: users.displayName })
            .from(memberships)
            .innerJoin(users, eq(users.id, memberships.userId))
            .where(
              and(
                eq(memberships.groupId, row.groupId),
                isNull(memberships.leftAt),
                ne(memberships.userId, row.userId),
                ne(memberships.userId, userId),
                since ? gt(memberships.joinedAt, since) : undefined,
                lte(memberships.joinedAt, row.updatedAt),
              ),
            )
            .orderBy(desc(memberships.joinedAt))
            .limit(1)
        : [];
    const { actorName: _gone, ...payload } = row.payload;
    await tx
      .update(notifications)
      .set({
        count: row.count - 1,
        readAt: row.count <= 1 ? (row.readAt ?? new Date()) : row.readAt,
        actorId: latest?.id ?? null,
        payload: {
          ...payload,
          ...(latest ? { actorName: latest.name } : {}),
          ...(payload.memberCount === undefined ? {} : { memberCount: payload.memberCount - 1 }),
        },
      })
      .where(eq(notifications.id, row.id));
  }
}

/**
 * Season ends that name the account among who came first: their `winnerName` is said again
 * from the winners' names now (the deleted one's already "Deleted player"; restamped).
 */
async function unnameWinner(tx: Executor, userId: number): Promise<void> {
  const rows = await tx
    .select({ id: notifications.id, payload: notifications.payload })
    .from(notifications)
    .where(
      and(
        eq(notifications.kind, 'seasonEnded'),
        sql`${notifications.payload} -> 'winnerIds' @> ${JSON.stringify([userId])}::jsonb`,
      ),
    );
  if (rows.length === 0) return;
  const ids = [...new Set(rows.flatMap((row) => row.payload.winnerIds ?? []))];
  const names = new Map(
    (
      await tx
        .select({ id: users.id, name: users.displayName })
        .from(users)
        .where(inArray(users.id, ids))
    ).map((user) => [user.id, user.name]),
  );
  for (const row of rows) {
    const winners = (row.payload.winnerIds ?? []).map((id) => names.get(id) ?? DELETED_PLAYER_NAME);
    await tx
      .update(notifications)
      .set({ payload: { ...row.payload, winnerName: namesPhrase(winners) } })
      .where(eq(notifications.id, row.id));
  }
}

/** Entries a deleted account caused: its name becomes "Deleted player", its words go (restamped, so every mirror pulls it). */
export async function unnameActor(tx: Executor, userId: number): Promise<void> {
  await tx
    .update(notifications)
    .set({
      payload: sql`(${notifications.payload} - 'excerpt') || jsonb_build_object('actorName', ${DELETED_PLAYER_NAME}::text)`,
      actorId: null,
    })
    .where(eq(notifications.actorId, userId));
}

/** Which of these accounts are deleted, or gone (the recorder checks after writing, so no entry keeps their name). */
export async function deletedAccountsAmong(
  tx: Executor,
  userIds: readonly number[],
): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const live = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, [...userIds]), isNull(users.deletedAt)));
  const liveIds = new Set(live.map((row) => row.id));
  return new Set(userIds.filter((id) => !liveIds.has(id)));
}
