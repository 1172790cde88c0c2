import { and, desc, eq, gt, sql, type SQL } from 'drizzle-orm';
import {
  NOTIFICATION_RETENTION_MS,
  type Notification,
  type NotificationSettings,
} from '../../domain/notifications';
import { changedSince } from '../db/changes';
import type { Executor } from '../db/connect';
import { notifications, notificationSettings } from '../db/schema';
import type { MirrorScope } from '../groups/group-mirror';
import { presentNotification } from './notification-store';
import { presentNotificationSettings } from './notification-settings';

// The inbox's part of a mirror pull (src/server/mirror): the caller's own entries and settings,
// whatever their groups. A pull from nothing gets the entries of the last 30 days (the newest
// MIRROR_NOTIFICATION_LIMIT) and the settings; a pull with a cursor, what changed since its
// snapshot. Pruned entries need no tombstone: every device drops entries past 30 days itself.

/** A first sync carries at most this many entries, newest activity first. */
const MIRROR_NOTIFICATION_LIMIT = 200;

/** Whether the user's (`userId`, an integer value) entries or settings changed since the snapshot. */
export function notificationChangesExistSql(userId: SQL, snapshot: SQL): SQL {
  return sql`(exists (select 1 from ${notifications} where ${notifications.userId} = ${userId} and ${changedSince(notifications.changeTxid, snapshot)})
    or exists (select 1 from ${notificationSettings} where ${notificationSettings.userId} = ${userId} and ${changedSince(notificationSettings.changeTxid, snapshot)}))`;
}

export async function readNotificationMirror(
  tx: Executor,
  scope: Pick<MirrorScope, 'viewerId' | 'snapshot' | 'isReset' | 'now'>,
): Promise<{ notifications: Notification[]; notificationSettings: NotificationSettings | null }> {
  const mine = eq(notifications.userId, scope.viewerId);
  const rows = scope.isReset
    ? await tx
        .select()
        .from(notifications)
        .where(
          and(
            mine,
            gt(notifications.updatedAt, new Date(scope.now.getTime() - NOTIFICATION_RETENTION_MS)),
          ),
        )
        .orderBy(desc(notifications.updatedAt), desc(notifications.id))
        .limit(MIRROR_NOTIFICATION_LIMIT)
    : await tx
        .select()
        .from(notifications)
        .where(and(mine, changedSince(notifications.changeTxid, scope.snapshot)));
  const [settings] = await tx
    .select()
    .from(notificationSettings)
    .where(
      and(
        eq(notificationSettings.userId, scope.viewerId),
        scope.isReset ? undefined : changedSince(notificationSettings.changeTxid, scope.snapshot),
      ),
    )
    .limit(1);
  return {
    notifications: rows.map(presentNotification),
    // No row: the defaults, which a device assumes without one (a reset cleared its copy).
    notificationSettings: settings ? presentNotificationSettings(settings) : null,
  };
}
