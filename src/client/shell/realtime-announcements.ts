import { removedYouText } from '../../domain/groups';
import type { Notices } from '../data/notices';
import type { RealtimeAnnouncement, RealtimeSync } from '../data/realtime-sync';

// What the player is told when someone else's change concerns them (data/realtime-sync.ts
// decides who is concerned): an info toast, which the toast host's live region reads out.

/** docs/groups-and-bets.md §8's refund toast. */
export function refundMessage(totalRefunded: number, participants: number): string {
  return `${totalRefunded} points refunded to ${participants} participant(s)`;
}

/** What a participant hears when a result they had a stake in changed. */
export const RESULT_CHANGED_TEXT = {
  undone: (title: string) =>
    `The result of “${title}” was undone. Your points are back as they were.`,
  reResolved: (title: string) => `The result of “${title}” was corrected by an admin.`,
  disputed: (title: string) => `Someone thinks the result of “${title}” is wrong. Take a look.`,
};

/** What a player hears when an admin removed them from a group ("Ana removed you from Los Galácticos"), as their inbox says. */
export const REMOVED_FROM_GROUP_TEXT = removedYouText;

export function announcementText(announcement: RealtimeAnnouncement): string {
  switch (announcement.kind) {
    case 'refund':
      return refundMessage(announcement.totalRefunded, announcement.participants);
    case 'resultUndone':
      return RESULT_CHANGED_TEXT.undone(announcement.title);
    case 'resultCorrected':
      return RESULT_CHANGED_TEXT.reResolved(announcement.title);
    case 'resultDisputed':
      return RESULT_CHANGED_TEXT.disputed(announcement.title);
    case 'removedFromGroup':
      return REMOVED_FROM_GROUP_TEXT(announcement.removedBy, announcement.groupName);
  }
}

/** Shows each announcement of `realtime` as an info toast; returns the unsubscribe. */
export function showRealtimeAnnouncements(
  realtime: Pick<RealtimeSync, 'onAnnouncement'>,
  toasts: Pick<Notices, 'info'>,
): () => void {
  return realtime.onAnnouncement((announcement) => toasts.info(announcementText(announcement)));
}
