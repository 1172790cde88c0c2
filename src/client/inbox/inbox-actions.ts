import type { PushKind } from '../../domain/notifications';
import { signedOutError } from '../data/api-client';
import { localData as defaultLocalData, type LocalData } from '../data/local-data';
import {
  muteBetMutator,
  muteGroupMutator,
  markAllNotificationsReadMutator,
  markNotificationsReadMutator,
  setPushKindsMutator,
} from '../data/notification-mutators';
import { sessionStore } from '../data/session';
import type { SessionStore } from '../data/session-store';
import { toast as defaultToasts, type ToastStore } from '../shell/toast-store';

// The inbox's writes the screens call: each runs a named mutator through the outbox
// (data/notification-mutators.ts): the change shows at once and is sent now or when the network
// returns. Reading is quiet offline (the bell already says it); offline, the outbox says a choice
// will be saved, and the confirmation of a mute waits for the server. No screen waits on them (a
// toggle, a read mark): a refusal is the outbox's toast (local.send), never a rejection.

export interface InboxActionsDeps {
  session?: Pick<SessionStore, 'user'>;
  local?: Pick<LocalData, 'send'>;
  toasts?: Pick<ToastStore, 'success'>;
}

export function createInboxActions({
  session = sessionStore,
  local = defaultLocalData,
  toasts = defaultToasts,
}: InboxActionsDeps = {}) {
  const requireUser = () => {
    if (!session.user) throw signedOutError();
  };
  return {
    async markRead(ids: number[]): Promise<void> {
      requireUser();
      if (ids.length === 0) return;
      await local.send(markNotificationsReadMutator, { ids });
    },
    /** Everything the inbox showed: entries active at or before `upTo`. */
    async markAllRead(upTo: string): Promise<void> {
      requireUser();
      await local.send(markAllNotificationsReadMutator, { upTo });
    },
    async setPushKinds(pushOff: PushKind[]): Promise<void> {
      requireUser();
      await local.send(setPushKindsMutator, { pushOff });
    },
    async muteGroup(groupId: number, muted: boolean): Promise<void> {
      requireUser();
      const result = await local.send(muteGroupMutator, { id: groupId, muted });
      if (result?.status === 'sent')
        toasts.success(muted ? MUTE_TEXT.groupMuted : MUTE_TEXT.groupUnmuted);
    },
    async muteBet(betId: number, muted: boolean): Promise<void> {
      requireUser();
      const result = await local.send(muteBetMutator, { id: betId, muted });
      if (result?.status === 'sent')
        toasts.success(muted ? MUTE_TEXT.betMuted : MUTE_TEXT.betUnmuted);
    },
  };
}

export const MUTE_TEXT = {
  groupMuted: "Group muted. You won't hear about it, except your results.",
  groupUnmuted: "Group unmuted. You'll hear about it again.",
  betMuted: "Bet muted. You won't hear about it, except your result.",
  betUnmuted: "Bet unmuted. You'll hear about it again.",
};

export const inboxActions = createInboxActions();
