// The in-app inbox and its controls (the wire schemas: schemas/notifications.ts). Every notification Hunch sends is a row of
// the recipient's inbox first; a push is only a copy of it, sent when the player's choices
// allow. The texts are built from the row's kind, count and payload in notification-texts.ts,
// so the inbox, the push and every device say the same words.

export const NOTIFICATION_KINDS = [
  'betCreated',
  'closesSoon',
  'resolveReminder',
  'betResult',
  'memberJoined',
  'comments',
  'resultUndone',
  'disputeOpened',
  'disputeClosed',
  'floorTopUp',
  'oddsChanged',
  'seasonEnded',
  'removedFromGroup',
  'webhookPaused',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The kinds one row gathers while unread ("3 new bets in Friday Quiz"); the others are one row per bet, sent once. */
export const COALESCING_KINDS: readonly NotificationKind[] = [
  'betCreated',
  'memberJoined',
  'comments',
  'oddsChanged',
];

/**
 * What a player may let through to push (the profile's switches); reminders cover the resolve
 * reminder too, results cover what happens to a result afterwards (undone, disputed, reviewed)
 * and a season's final standings.
 * Comments and weekly top-ups stay in the inbox: a top-up needs nothing from the player.
 */
export const PUSH_KINDS = [
  'betCreated',
  'closesSoon',
  'betResult',
  'memberJoined',
  'oddsChanged',
] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

/** The push switch that governs a kind, or null for a kind that never pushes. */
export function pushKindOf(kind: NotificationKind): PushKind | null {
  switch (kind) {
    case 'resolveReminder':
      return 'closesSoon';
    case 'resultUndone':
    case 'disputeOpened':
    case 'disputeClosed':
    case 'seasonEnded':
      return 'betResult';
    case 'comments':
    case 'floorTopUp':
    case 'removedFromGroup':
    case 'webhookPaused':
      return null;
    case 'betCreated':
    case 'closesSoon':
    case 'betResult':
    case 'memberJoined':
    case 'oddsChanged':
      return kind;
  }
}

/**
 * A bet made with less than the configured lead to go (2 h by default) is reminded in the last
 * half of its open time: a 90-minute bet 45 minutes before it closes. A longer one keeps the lead.
 * So every bet, however short, gets its "closes soon" before it closes.
 */
export const CLOSES_SOON_SHARE = 0.5;

/** How long before `expiresAt` a bet opened at `createdAt` has its "closes soon" reminder due. */
export function closesSoonLeadMs(createdAt: Date, expiresAt: Date, maxLeadMs: number): number {
  const openMs = Math.max(0, expiresAt.getTime() - createdAt.getTime());
  return openMs >= maxLeadMs ? maxLeadMs : openMs * CLOSES_SOON_SHARE;
}

/** An inbox entry is kept this long after its last activity. */
export const NOTIFICATION_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** The creator of a closed bet still waiting for its result is reminded at most this often. */
export const RESOLVE_REMINDER_INTERVAL_MS = 24 * 60 * 60 * 1000;

/**
 * When the creator of a bet is next due its resolve reminder: an active bet's at its close, or
 * a day after the last one (`lastRemindedAt`, when known), whichever is later; null for a bet
 * that is resolved, cancelled or expired (nothing to remind). Without `lastRemindedAt` the time
 * is never later than the true one (a bet whose resolution was undone may have been reminded
 * within the day): the reminders job then moves it on without a reminder.
 */
export function resolveReminderDueAt(
  bet: { state: string; expiresAt: Date },
  lastRemindedAt: Date | null = null,
): Date | null {
  if (bet.state !== 'active') return null;
  const close = bet.expiresAt.getTime();
  return new Date(
    lastRemindedAt === null
      ? close
      : Math.max(close, lastRemindedAt.getTime() + RESOLVE_REMINDER_INTERVAL_MS),
  );
}

/** The facts a notification's text is made of, as they were when it was sent. */
export type NotificationPayload = {
  groupName: string;
  betTitle?: string | undefined;
  /** Who acted: the bet's creator, the member who joined, the comment's author. */
  actorName?: string | undefined;
  /** A comment's first words. */
  excerpt?: string | undefined;
  /** closesSoon: when betting closes. */
  expiresAt?: string | undefined;
  /** betResult: how the bet ended ('undone': its resolution was taken back since). */
  outcome?: 'resolved' | 'cancelled' | 'expired' | 'undone' | undefined;
  /** betResult (resolved): the answer as the bet shows it; oddsChanged: the recipient's own pick. */
  answer?: string | undefined;
  /** oddsChanged: what each point on the recipient's pick pays now (pool ÷ points on it). */
  multiplier?: number | undefined;
  /** oddsChanged: the points in the pool now. */
  pool?: number | undefined;
  /** betResult: everything paid back (stake included), and the stake. */
  winnings?: number | undefined;
  wagerAmount?: number | undefined;
  /** memberJoined: how many players the group has now; seasonEnded: how many were ranked. */
  memberCount?: number | undefined;
  /** disputeOpened: what the disputer says is wrong. */
  reason?: string | undefined;
  /** disputeClosed: the admin re-resolved the bet, or let the result stand. */
  review?: 'reResolved' | 'dismissed' | undefined;
  /**
   * floorTopUp: the points added, and the available points after. seasonEnded: the recipient's
   * points won or lost in the season, and, when the season reset points, what everyone starts at.
   */
  points?: number | undefined;
  availablePoints?: number | undefined;
  /** seasonEnded: the season, the recipient's final rank (ties share one) and who came first. */
  seasonName?: string | undefined;
  rank?: number | undefined;
  winnerName?: string | undefined;
  /** seasonEnded: who `winnerName` names (the recipient aside), so a deleted account leaves it. */
  winnerIds?: number[] | undefined;
};

export type Notification = {
  id: number;
  kind: NotificationKind;
  groupId: number;
  /** The bet it is about (the latest, for gathered new bets); null for a group matter (joins, top-ups, seasons). */
  betId: number | null;
  /** How many events this entry gathers (1 for the kinds sent once). */
  count: number;
  payload: NotificationPayload;
  createdAt: string;
  /** Its last activity: the inbox is ordered by it, newest first. */
  updatedAt: string;
  readAt: string | null;
  version: number;
};

/** Which kinds reach push, and what is muted; one per player, in the mirror. */
export type NotificationSettings = {
  /** The push kinds the player turned off (all on by default). */
  pushOff: PushKind[];
  mutedGroupIds: number[];
  mutedBetIds: number[];
  version: number;
};

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  pushOff: [],
  mutedGroupIds: [],
  mutedBetIds: [],
  version: 0,
};

export const NOTIFICATION_MESSAGES = {
  idsRequired: 'ids must list 1 to 500 notification ids',
  upToRequired: 'upTo must be a date and time',
  mutedRequired: 'muted must be true or false',
  pushOffInvalid: `pushOff may only list ${PUSH_KINDS.join(', ')}`,
  notificationRequired: 'Notification is required',
} as const;

/** POST /notifications/read: these entries are read. */
export type MarkNotificationsReadRequest = { ids: Array<string | number> };

/** POST /notifications/read-all: every entry whose last activity is at or before `upTo` is read. */
export type MarkAllNotificationsReadRequest = { upTo: string };

/** PUT /notification-settings/push. */
export type PushKindsRequest = { pushOff: PushKind[] };

/** PUT /groups/{groupId}/mute and /bets/{betId}/mute. */
export type MuteRequest = { muted: boolean };
