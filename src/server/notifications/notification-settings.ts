import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  type NotificationSettings,
  type PushKind,
} from '../../domain/notifications';
import type { Executor } from '../db/connect';
import { notificationSettings, type NotificationSettingsRow } from '../db/schema';

// A player's notification settings (`notification_settings`, one row per player who changed
// one): read, written, and the one mute rule every audience is filtered by.

export function presentNotificationSettings(
  row: NotificationSettingsRow | undefined,
): NotificationSettings {
  if (!row) return DEFAULT_NOTIFICATION_SETTINGS;
  return {
    pushOff: row.pushOff as PushKind[],
    mutedGroupIds: row.mutedGroupIds,
    mutedBetIds: row.mutedBetIds,
    version: row.version,
  };
}

export async function findNotificationSettings(
  tx: Executor,
  userId: number,
): Promise<NotificationSettingsRow | undefined> {
  return (await findNotificationSettingsOf(tx, [userId])).get(userId);
}

/** The settings rows of `userIds` that have one (a player who never changed a setting has none). */
export async function findNotificationSettingsOf(
  tx: Executor,
  userIds: readonly number[],
): Promise<Map<number, NotificationSettingsRow>> {
  if (userIds.length === 0) return new Map();
  const rows = await tx
    .select()
    .from(notificationSettings)
    .where(inArray(notificationSettings.userId, [...userIds]));
  return new Map(rows.map((row) => [row.userId, row]));
}

/** Writes one change of the caller's settings (the row is made on the first). */
export async function updateNotificationSettings(
  tx: Executor,
  userId: number,
  change: { pushOff: readonly PushKind[] } | { mute: 'group' | 'bet'; id: number; muted: boolean },
): Promise<NotificationSettingsRow> {
  let set: Partial<Record<'pushOff' | 'mutedGroupIds' | 'mutedBetIds', SQL>>;
  if ('pushOff' in change) {
    const kinds = [...new Set(change.pushOff)].sort();
    set = { pushOff: sql`${`{${kinds.join(',')}}`}::text[]` };
  } else {
    const column =
      change.mute === 'group'
        ? notificationSettings.mutedGroupIds
        : notificationSettings.mutedBetIds;
    const value = change.muted
      ? sql`array_append(array_remove(${column}, ${change.id}::integer), ${change.id}::integer)`
      : sql`array_remove(${column}, ${change.id}::integer)`;
    set = change.mute === 'group' ? { mutedGroupIds: value } : { mutedBetIds: value };
  }
  await tx.insert(notificationSettings).values({ userId }).onConflictDoNothing();
  const [row] = await tx
    .update(notificationSettings)
    .set(set)
    .where(eq(notificationSettings.userId, userId))
    .returning();
  return row!;
}

/** A `notification_settings` row that mutes the group or the bet (the one mute rule, for every audience). */
export function mutesGroupOrBet(
  groupId: number | SQL | AnyPgColumn,
  betId: number | SQL | AnyPgColumn | null,
): SQL {
  const bet =
    betId === null ? sql`` : sql` or ${betId}::integer = any(${notificationSettings.mutedBetIds})`;
  return sql`(${groupId}::integer = any(${notificationSettings.mutedGroupIds})${bet})`;
}

/** Of `userIds`, those who did not mute the group or the bet. */
export async function withoutMuted(
  tx: Executor,
  userIds: readonly number[],
  groupId: number,
  betId: number | null,
): Promise<number[]> {
  if (userIds.length === 0) return [];
  const rows = await tx
    .select({ userId: notificationSettings.userId })
    .from(notificationSettings)
    .where(
      and(inArray(notificationSettings.userId, [...userIds]), mutesGroupOrBet(groupId, betId)),
    );
  const muted = new Set(rows.map((row) => row.userId));
  return userIds.filter((id) => !muted.has(id));
}
