import { z } from './zod';
import { WEBHOOK_EVENTS, type WebhookEventType } from '../webhooks';

// What each webhook event's body says (docs/integrations.md has an example of each). Fair play:
// while betting is open a bet is named with its totals only (pool, wager count), never who
// picked what or how much anyone set aside; picks appear once betting closed. A group is its
// id, name and link: never its invite code. bet.resolved names the answer and the winners only
// for a hook with "Post results" on.

const group = z.object({ id: z.number().int(), name: z.string(), url: z.string() });

const bet = z.object({
  id: z.number().int(),
  title: z.string(),
  type: z.string(),
  /** The answers to pick from (yes/no and multiple choice), else null. */
  options: z.array(z.string()).nullable(),
  expiresAt: z.string(),
  url: z.string(),
  /** All points set aside on it so far, and by how many wagers. */
  pool: z.number().int(),
  wagerCount: z.number().int(),
});

const pick = z.object({ name: z.string(), pick: z.string(), points: z.number().int() });

export const WEBHOOK_EVENT_DATA = {
  'bet.created': z.object({ group, bet, createdBy: z.string() }),
  'bet.closing_soon': z.object({ group, bet }),
  'bet.closed': z.object({ group, bet, picks: z.array(pick) }),
  'bet.resolved': z.object({
    group,
    bet,
    /** Null unless the hook's "Post results" is on: no spoilers. */
    result: z
      .object({
        answer: z.string(),
        /** What each winner took home beyond their stake. */
        winners: z.array(z.object({ name: z.string(), won: z.number().int() })),
        picks: z.array(pick),
      })
      .nullable(),
  }),
  'bet.cancelled': z.object({
    group,
    bet,
    /** Cancelled by its creator or an admin, or expired unresolved; every wager came back. */
    reason: z.enum(['cancelled', 'expired']),
  }),
  'member.joined': z.object({
    group,
    member: z.object({ name: z.string() }),
    memberCount: z.number().int(),
  }),
  'leaderboard.weekly': z.object({
    group,
    week: z.object({ from: z.string(), to: z.string() }),
    table: z.array(
      z.object({
        rank: z.number().int(),
        name: z.string(),
        points: z.number().int(),
        played: z.number().int(),
      }),
    ),
  }),
} satisfies Record<WebhookEventType, z.ZodType>;

export type WebhookEventData = {
  [T in WebhookEventType]: z.infer<(typeof WEBHOOK_EVENT_DATA)[T]>;
};
export type WebhookGroup = z.infer<typeof group>;
export type WebhookBet = z.infer<typeof bet>;
export type WebhookPick = z.infer<typeof pick>;

/** The Standard Webhooks body: `timestamp` is when the event happened. */
export type WebhookEvent<T extends WebhookEventType = WebhookEventType> = {
  [K in T]: { type: K; timestamp: string; data: WebhookEventData[K] };
}[T];

/** The body of one event type, as a schema (tests check what arrives against it). */
export function webhookEventSchema<T extends WebhookEventType>(type: T) {
  return z.object({ type: z.literal(type), timestamp: z.string(), data: WEBHOOK_EVENT_DATA[type] });
}

export { WEBHOOK_EVENTS };
