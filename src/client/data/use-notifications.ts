import { useLiveQuery } from 'dexie-react-hooks';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  NOTIFICATION_KINDS,
  type NotificationSettings,
} from '../../domain/notifications';
import { db as defaultDb, type HunchDb, type NotificationRow } from './db';
import { SETTINGS_ROW_ID } from './synced-tables';

// The inbox as the views read it, from the mirror (readable offline): the entries newest
// activity first, the unread count for the bell, and the player's notification settings.

/**
 * Whether the inbox shows an entry: not one whose every comment was deleted (count 0), nor one
 * of a kind this version of the app does not know yet (a newer server's; it shows once the app
 * updates).
 */
function isShown(row: NotificationRow): boolean {
  return row.count > 0 && (NOTIFICATION_KINDS as readonly string[]).includes(row.kind);
}

/** The inbox as the page shows it: its entries, and whether they name their group. */
export interface Inbox {
  /** Newest activity first (ties: the newer entry first); each names its group as it is called now. */
  entries: NotificationRow[];
  /** False while the player is in one group only: every entry is of that group, so none says so. */
  namesGroups: boolean;
}

/**
 * The inbox, newest activity first. An entry keeps its group's name as it was when it was
 * written; a group renamed since is named as it is now (the mirror's), one the player left as
 * it was.
 */
export async function readInbox(db: HunchDb = defaultDb): Promise<Inbox> {
  const [rows, groups] = await Promise.all([
    db.notifications.orderBy('updatedAt').reverse().toArray(),
    db.groups.toArray(),
  ]);
  const names = new Map(groups.map((group) => [group.id, group.name]));
  const entries = rows
    .filter(isShown)
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id)
    .map((row) => {
      const name = names.get(row.groupId);
      return name === undefined || name === row.payload.groupName
        ? row
        : { ...row, payload: { ...row.payload, groupName: name } };
    });
  return { entries, namesGroups: groups.length > 1 };
}

export async function countUnreadNotifications(db: HunchDb = defaultDb): Promise<number> {
  return db.notifications.filter((row) => row.readAt === null && isShown(row)).count();
}

export async function readNotificationSettings(
  db: HunchDb = defaultDb,
): Promise<NotificationSettings> {
  return (await db.notificationSettings.get(SETTINGS_ROW_ID)) ?? DEFAULT_NOTIFICATION_SETTINGS;
}

/** Undefined while Dexie is read. */
export function useInbox(): Inbox | undefined {
  return useLiveQuery(() => readInbox(), []);
}

/** 0 until known. */
export function useUnreadNotificationCount(): number {
  return useLiveQuery(() => countUnreadNotifications(), []) ?? 0;
}

export function useNotificationSettings(): NotificationSettings {
  return useLiveQuery(() => readNotificationSettings(), []) ?? DEFAULT_NOTIFICATION_SETTINGS;
}
