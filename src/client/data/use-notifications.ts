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

/** The inbox, newest activity first (ties: the newer entry first). */
export async function readNotifications(db: HunchDb = defaultDb): Promise<NotificationRow[]> {
  const rows = (await db.notifications.orderBy('updatedAt').reverse().toArray()).filter(isShown);
  return rows.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id);
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
export function useNotifications(): NotificationRow[] | undefined {
  return useLiveQuery(() => readNotifications(), []);
}

/** 0 until known. */
export function useUnreadNotificationCount(): number {
  return useLiveQuery(() => countUnreadNotifications(), []) ?? 0;
}

export function useNotificationSettings(): NotificationSettings {
  return useLiveQuery(() => readNotificationSettings(), []) ?? DEFAULT_NOTIFICATION_SETTINGS;
}
