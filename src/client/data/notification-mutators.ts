import { DEFAULT_NOTIFICATION_SETTINGS, type PushKind } from '../../domain/notifications';
import type { NotificationRow } from './db';
import { SETTINGS_ROW_ID } from './synced-tables';
import { withoutMark, type Mutator, type MutatorContext } from './mutators';

// The inbox's writes as named mutators (data/mutators.ts, docs/architecture.md §8): reading
// entries, and the player's notification choices. Each shows at once in the mirror and goes out
// through the outbox, offline too; apply() runs again after every pull while the write waits.

export interface ReadNotificationsArgs {
  /** These entries. */
  ids: number[];
}

export interface ReadAllNotificationsArgs {
  /** Every entry whose last activity is at or before it (what was shown). */
  upTo: string;
}

const readTexts = {
  queued: "You're offline. Read notifications will sync when you're back.",
  refused: "Notifications weren't marked as read. Please try again.",
  label: 'Read notifications',
};

async function markRead(rows: readonly (NotificationRow | undefined)[], context: MutatorContext) {
  for (const row of rows)
    if (row && row.readAt === null)
      await context.put('notifications', { ...withoutMark(row), readAt: context.now });
}

/** Entries read at once (the bell's count drops); a refusal brings them back unread. */
export const markNotificationsReadMutator: Mutator<ReadNotificationsArgs> = {
  name: 'markNotificationsRead',
  texts: readTexts,
  // Reading is quiet offline: the bell's count has dropped already.
  isQuietWhenQueued: true,
  push: ({ ids }) => ({ body: { ids } }),
  async apply({ ids }, context) {
    await markRead(await context.db.notifications.bulkGet(ids ?? []), context);
  },
};

/** Every entry shown read at once ("Mark all read"). */
export const markAllNotificationsReadMutator: Mutator<ReadAllNotificationsArgs> = {
  name: 'markAllNotificationsRead',
  texts: readTexts,
  isQuietWhenQueued: true,
  push: ({ upTo }) => ({ body: { upTo } }),
  async apply({ upTo }, context) {
    await markRead(
      await context.db.notifications.where('updatedAt').belowOrEqual(upTo).toArray(),
      context,
    );
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
  push: ({ pushOff }) => ({ body: { pushOff } }),
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
  push: ({ id, muted }) => ({ params: { id }, body: { muted } }),
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
  push: ({ id, muted }) => ({ params: { id }, body: { muted } }),
  async apply({ id, muted }, context) {
    const settings = await settingsOf(context);
    await context.put('notificationSettings', {
      ...settings,
      mutedBetIds: toggled(settings.mutedBetIds, context.idFor(id), muted),
    });
  },
};

export const NOTIFICATION_MUTATORS = [
  markNotificationsReadMutator,
  markAllNotificationsReadMutator,
  setPushKindsMutator,
  muteGroupMutator,
  muteBetMutator,
] as const;
