import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import {
  NOTIFICATION_RETENTION_MS,
  type MarkAllNotificationsReadRequest,
  type MarkNotificationsReadRequest,
  type MuteRequest,
  type Notification,
  type NotificationSettings,
  type PushKindsRequest,
} from '../../domain/notifications';
import type { AuthUser } from '../auth/tokens';
import { findBet } from '../bets/bet-queries';
import type { Database } from '../db/connect';
import { notifications } from '../db/schema';
import { requireGroupAccess } from '../groups/group-access';
import { markAllRead, markRead, presentNotification } from './notification-store';
import {
  findNotificationSettings,
  presentNotificationSettings,
  updateNotificationSettings,
} from './notification-settings';

// The inbox's calls: read it, mark entries read, and the player's controls —
// which kinds reach push, and muting a group or one bet (members only, group-access.ts).

/** GET /notifications answers at most this many entries, newest activity first (the mirror holds the rest). */
const NOTIFICATION_LIST_LIMIT = 200;

export interface NotificationsServiceDeps {
  db: Database;
  now?: () => Date;
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;

export function createNotificationsService({
  db,
  now = () => new Date(),
}: NotificationsServiceDeps) {
  return {
    async listNotifications(
      caller: AuthUser,
    ): Promise<{ notifications: Notification[]; unreadCount: number }> {
      const since = new Date(now().getTime() - NOTIFICATION_RETENTION_MS);
      // An entry whose every comment was deleted (count 0) is gone from the inbox.
      const mine = and(
        eq(notifications.userId, caller.id),
        gt(notifications.updatedAt, since),
        gt(notifications.count, 0),
      );
      const rows = await db
        .select()
        .from(notifications)
        .where(mine)
        .orderBy(desc(notifications.updatedAt), desc(notifications.id))
        .limit(NOTIFICATION_LIST_LIMIT);
      const [unread] = await db
        .select({ count: sql<number>`count(*)::integer` })
        .from(notifications)
        .where(and(mine, isNull(notifications.readAt)));
      return { notifications: rows.map(presentNotification), unreadCount: unread?.count ?? 0 };
    },

    /** POST /notifications/read: the caller's entries among `ids` are read (others' ids change nothing). */
    async markRead(
      caller: AuthUser,
      input: MarkNotificationsReadRequest,
    ): Promise<{ notifications: Notification[] }> {
      const ids = input.ids.map(Number);
      const rows = await markRead(db, caller.id, ids, now());
      return { notifications: rows.map(presentNotification) };
    },

    /** POST /notifications/read-all: what the device showed (activity up to `upTo`) is read. */
    async markAllRead(
      caller: AuthUser,
      input: MarkAllNotificationsReadRequest,
    ): Promise<{ readCount: number }> {
      return { readCount: await markAllRead(db, caller.id, new Date(input.upTo), now()) };
    },

    async getSettings(caller: AuthUser): Promise<NotificationSettings> {
      return presentNotificationSettings(await findNotificationSettings(db, caller.id));
    },

    /** PUT /notification-settings/push. */
    async setPushKinds(caller: AuthUser, input: PushKindsRequest): Promise<NotificationSettings> {
      const row = await updateNotificationSettings(db, caller.id, { pushOff: input.pushOff });
      return presentNotificationSettings(row);
    },

    /** PUT /groups/{id}/mute. */
    async muteGroup(
      caller: AuthUser,
      groupId: number,
      input: MuteRequest,
    ): Promise<NotificationSettings> {
      return db.transaction(async (tx) => {
        await requireGroupAccess(tx, { userId: caller.id, groupId, permission: 'muteGroup' });
        const row = await updateNotificationSettings(tx, caller.id, {
          mute: 'group',
          id: groupId,
          muted: input.muted,
        });
        return presentNotificationSettings(row);
      });
    },

    /** PUT /bets/{id}/mute. */
    async muteBet(
      caller: AuthUser,
      betId: number,
      input: MuteRequest,
    ): Promise<NotificationSettings> {
      return db.transaction(async (tx) => {
        const bet = await findBet(tx, betId);
        await requireGroupAccess(tx, { userId: caller.id, bet, permission: 'muteBet' });
        const row = await updateNotificationSettings(tx, caller.id, {
          mute: 'bet',
          id: bet.id,
          muted: input.muted,
        });
        return presentNotificationSettings(row);
      });
    },
  };
}
