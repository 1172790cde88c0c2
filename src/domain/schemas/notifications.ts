import { z } from './zod';
import { NOTIFICATION_KINDS, NOTIFICATION_MESSAGES, PUSH_KINDS } from '../notifications';
import { idSchema } from './ids';

// The inbox on the wire (types and rules: notifications.ts).

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

/** Which kinds reach push, and what is muted; one per player, in the mirror. */
export const notificationSettingsSchema = z.object({
  /** The push kinds the player turned off (all on by default). */
  pushOff: z.array(z.enum(PUSH_KINDS)),
  mutedGroupIds: z.array(z.number().int()),
  mutedBetIds: z.array(z.number().int()),
  version: z.number().int(),
});

/** POST /notifications/read: these entries are read. */
export const markNotificationsReadRequestSchema = z.strictObject({
  ids: z
    .array(idSchema(NOTIFICATION_MESSAGES.notificationRequired), {
      error: NOTIFICATION_MESSAGES.idsRequired,
    })
    .min(1, NOTIFICATION_MESSAGES.idsRequired)
    .max(500, NOTIFICATION_MESSAGES.idsRequired),
});

/** POST /notifications/read-all: every entry whose last activity is at or before `upTo` (what the device showed) is read. */
export const markAllNotificationsReadRequestSchema = z.strictObject({
  upTo: z.iso.datetime({ offset: true, error: NOTIFICATION_MESSAGES.upToRequired }),
});

/** PUT /notification-settings/push. */
export const pushKindsRequestSchema = z.strictObject({
  pushOff: z
    .array(z.enum(PUSH_KINDS, { error: NOTIFICATION_MESSAGES.pushOffInvalid }), {
      error: NOTIFICATION_MESSAGES.pushOffInvalid,
    })
    .max(PUSH_KINDS.length, NOTIFICATION_MESSAGES.pushOffInvalid),
});

/** PUT /groups/{groupId}/mute and /bets/{betId}/mute. */
export const muteRequestSchema = z.strictObject({
  muted: z.boolean({ error: NOTIFICATION_MESSAGES.mutedRequired }),
});

/** The answer of GET /notifications: the caller's inbox, newest activity first. */
export const notificationListSchema = z.object({
  notifications: z.array(notificationSchema),
  unreadCount: z.number().int(),
});
