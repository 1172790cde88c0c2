import { z } from './zod';
import { idSchema } from './ids';

// The in-app inbox and its controls. Every notification Hunch sends is a row of
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
      return null;
    default:
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

/** The facts a notification's text is made of, as they were when it was sent. */
export const notificationPayloadSchema = z.object({
  groupName: z.string(),
  betTitle: z.string().optional(),
  /** Who acted: the bet's creator, the member who joined, the comment's author. */
  actorName: z.string().optional(),
  /** A comment's first words. */
  excerpt: z.string().optional(),
  /** closesSoon: when betting closes. */
  expiresAt: z.string().optional(),
  /** betResult: how the bet ended ('undone': its resolution was taken back since). */
  outcome: z.enum(['resolved', 'cancelled', 'expired', 'undone']).optional(),
  /** betResult (resolved): the answer as the bet shows it; oddsChanged: the recipient's own pick. */
  answer: z.string().optional(),
  /** oddsChanged: what each point on the recipient's pick pays now (pool ÷ points on it). */
  multiplier: z.number().optional(),
  /** oddsChanged: the points in the pool now. */
  pool: z.number().int().optional(),
  /** betResult: everything paid back (stake included), and the stake. */
  winnings: z.number().int().optional(),
  wagerAmount: z.number().int().optional(),
  /** memberJoined: how many players the group has now; seasonEnded: how many were ranked. */
  memberCount: z.number().int().optional(),
  /** disputeOpened: what the disputer says is wrong. */
  reason: z.string().optional(),
  /** disputeClosed: the admin re-resolved the bet, or let the result stand. */
  review: z.enum(['reResolved', 'dismissed']).optional(),
  /**
   * floorTopUp: the points added, and the available points after. seasonEnded: the recipient's
   * points won or lost in the season, and, when the season reset points, what everyone starts at.
   */
  points: z.number().int().optional(),
  availablePoints: z.number().int().optional(),
  /** seasonEnded: the season, the recipient's final rank (ties share one) and who came first. */
  seasonName: z.string().optional(),
  rank: z.number().int().optional(),
  winnerName: z.string().optional(),
  /** seasonEnded: who `winnerName` names (the recipient aside), so a deleted account leaves it. */
  winnerIds: z.array(z.number().int()).optional(),
});
export type NotificationPayload = z.infer<typeof notificationPayloadSchema>;

export const notificationSchema = z.object({
  id: z.number().int(),
  kind: z.enum(NOTIFICATION_KINDS),
  groupId: z.number().int(),
  /** The bet it is about (the latest, for gathered new bets); null for a group matter (joins, top-ups, seasons). */
  betId: z.number().int().nullable(),
  /** How many events this entry gathers (1 for the kinds sent once). */
  count: z.number().int(),
  payload: notificationPayloadSchema,
  createdAt: z.string(),
  /** Its last activity: the inbox is ordered by it, newest first. */
  updatedAt: z.string(),
  readAt: z.string().nullable(),
  version: z.number().int(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** Which kinds reach push, and what is muted; one per player, in the mirror. */
export const notificationSettingsSchema = z.object({
  /** The push kinds the player turned off (all on by default). */
  pushOff: z.array(z.enum(PUSH_KINDS)),
  mutedGroupIds: z.array(z.number().int()),
  mutedBetIds: z.array(z.number().int()),
  version: z.number().int(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

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
export const markNotificationsReadRequestSchema = z.strictObject({
  ids: z
    .array(idSchema(NOTIFICATION_MESSAGES.notificationRequired), {
      error: NOTIFICATION_MESSAGES.idsRequired,
    })
    .min(1, NOTIFICATION_MESSAGES.idsRequired)
    .max(500, NOTIFICATION_MESSAGES.idsRequired),
});
export type MarkNotificationsReadRequest = z.input<typeof markNotificationsReadRequestSchema>;

/** POST /notifications/read-all: every entry whose last activity is at or before `upTo` (what the device showed) is read. */
export const markAllNotificationsReadRequestSchema = z.strictObject({
  upTo: z.iso.datetime({ offset: true, error: NOTIFICATION_MESSAGES.upToRequired }),
});
export type MarkAllNotificationsReadRequest = z.input<typeof markAllNotificationsReadRequestSchema>;

/** PUT /notification-settings/push. */
export const pushKindsRequestSchema = z.strictObject({
  pushOff: z
    .array(z.enum(PUSH_KINDS, { error: NOTIFICATION_MESSAGES.pushOffInvalid }), {
      error: NOTIFICATION_MESSAGES.pushOffInvalid,
    })
    .max(PUSH_KINDS.length, NOTIFICATION_MESSAGES.pushOffInvalid),
});
export type PushKindsRequest = z.input<typeof pushKindsRequestSchema>;

/** PUT /groups/{groupId}/mute and /bets/{betId}/mute. */
export const muteRequestSchema = z.strictObject({
  muted: z.boolean({ error: NOTIFICATION_MESSAGES.mutedRequired }),
});
export type MuteRequest = z.input<typeof muteRequestSchema>;

/** The answer of GET /notifications: the caller's inbox, newest activity first. */
export const notificationListSchema = z.object({
  notifications: z.array(notificationSchema),
  unreadCount: z.number().int(),
});
