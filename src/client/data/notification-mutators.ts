import { API_BASE } from '../../domain/constants';
import { DEFAULT_NOTIFICATION_SETTINGS, type PushKind } from '../../domain/notifications';
import type { NotificationRow } from './db';
import { SETTINGS_ROW_ID } from './synced-tables';
import { withoutMark, type Mutator, type MutatorContext } from './mutators';

// The inbox's writes as named mutators (data/mutators.ts, docs/architecture.md §8): reading
// entries, and the player's notification choices. Each shows at once in the mirror and goes out
// through the outbox, offline too; apply() runs again after every pull while the write waits.

export interface ReadNotificationsArgs {
  /** These entries; or, with `upTo`, every entry whose last activity is at or before it (what was shown). */
  ids?: number[];
  upTo?: string;
}

/** Entries read at once (the bell's count drops); a refusal brings them back unread. */
export const readNotificationsMutator: Mutator<ReadNotificationsArgs> = {
  name: 'readNotifications',
  texts: {
    queued: "You're offline. Read notifications will sync when you're back.",
    refused: "Notifications weren't marked as read. Please try again.",
    label: 'Read notifications',
  },
  // Reading is quiet offline: the bell's count has dropped already.
  isQuietWhenQueued: true,
  request: ({ ids, upTo }) =>
    upTo !== undefined
      ? { method: 'POST', path: `${API_BASE}/notifications/read-all`, body: { upTo } }
      : { method: 'POST', path: `${API_BASE}/notifications/read`, body: { ids } },
  async apply({ ids, upTo }, context) {
    const rows: NotificationRow[] =
      upTo !== undefined
        ? await context.db.notifications.where('updatedAt').belowOrEqual(upTo).toArray()
        : (await context.db.notifications.bulkGet(ids ?? [])).filter(
            (row): row is NotificationRow => row !== undefined,
          );
    for (const row of rows)
      if (row.readAt === null)
        await context.put('notifications', { ...withoutMark(row), readAt: context.now });
  },
};

async function settingsOf(context: MutatorContext) {
  const stored = await context.db.notificationSettings.get(SETTINGS_ROW_ID);
  return stored ? withoutMark(stored) : { ...DEFAULT_NOTIFICATION_SETTINGS, id: SETTINGS_ROW_ID };
}

export interface SetPushKindsArgs {
  pushOff: PushKind[];
}

/** Which kinds reach push (profile, notification settings). */
export const setPushKindsMutator: Mutator<SetPushKindsArgs> = {
  name: 'setPushKinds',
  texts: {
    queued: "You're offline. Your choice will be saved when you're back.",
    refused: "Your notification choices weren't saved. Please try again.",
    label: 'Notification choices',
  },
  request: ({ pushOff }) => ({
    method: 'PUT',
    path: `${API_BASE}/notification-settings/push`,
    body: { pushOff },
  }),
  async apply({ pushOff }, context) {
    await context.put('notificationSettings', { ...(await settingsOf(context)), pushOff });
  },
};

export interface MuteArgs {
  /** The group or the bet (a temporary id while it is on its way). */
  id: number;
  muted: boolean;
}

const toggled = (ids: readonly number[], id: number, muted: boolean) =>
  muted ? [...ids.filter((other) => other !== id), id] : ids.filter((other) => other !== id);

export const muteGroupMutator: Mutator<MuteArgs> = {
  name: 'muteGroup',
  texts: {
    queued: "You're offline. Your choice will be saved when you're back.",
    refused: "The group wasn't muted. Please try again.",
    label: 'Muted group',
  },
  request: ({ id, muted }) => ({
    method: 'PUT',
    path: `${API_BASE}/groups/${id}/mute`,
    body: { muted },
  }),
  async apply({ id, muted }, context) {
    const settings = await settingsOf(context);
    await context.put('notificationSettings', {
      ...settings,
      mutedGroupIds: toggled(settings.mutedGroupIds, context.idFor(id), muted),
    });
  },
};

export const muteBetMutator: Mutator<MuteArgs> = {
  name: 'muteBet',
  texts: {
    queued: "You're offline. Your choice will be saved when you're back.",
    refused: "The bet wasn't muted. Please try again.",
    label: 'Muted bet',
    refusedAs: (bet) => `Your mute choice for ${bet} wasn't saved`,
  },
  betIdOf: ({ id }) => id,
  request: ({ id, muted }) => ({
    method: 'PUT',
    path: `${API_BASE}/bets/${id}/mute`,
    body: { muted },
  }),
  async apply({ id, muted }, context) {
    const settings = await settingsOf(context);
    await context.put('notificationSettings', {
      ...settings,
      mutedBetIds: toggled(settings.mutedBetIds, context.idFor(id), muted),
    });
  },
};

export const NOTIFICATION_MUTATORS = [
  readNotificationsMutator,
  setPushKindsMutator,
  muteGroupMutator,
  muteBetMutator,
] as const;
