import { z } from './zod';
import {
  BET_HISTORY_KINDS,
  DISPUTE_LIMITS,
  DISPUTE_STATES,
  FAIR_MESSAGES,
} from '../fair-resolution';

// The wire shapes of revealed picks, disputes and a bet's history (rules and types:
// fair-resolution.ts).

/** One member's pick, shown to every member once betting has closed. */
export const revealedPickSchema = z.object({
  userId: z.number().int(),
  userName: z.string(),
  prediction: z.string(),
  points: z.number().int(),
});

/** The open (or last reviewed) dispute of a bet's current resolution. */
export const betDisputeSchema = z.object({
  state: z.enum(DISPUTE_STATES),
  userId: z.number().int(),
  reason: z.string(),
  at: z.string(),
});

export const disputeRequestSchema = z.strictObject({
  reason: z
    .string({ error: FAIR_MESSAGES.reasonRequired })
    .trim()
    .min(1, FAIR_MESSAGES.reasonRequired)
    .max(DISPUTE_LIMITS.reasonMax, FAIR_MESSAGES.reasonMax),
});

export const picksResponseSchema = z.object({
  betId: z.number().int(),
  picks: z.array(revealedPickSchema),
});

/** One line of a bet's history: what happened, by whom (null: by itself, the expiry job), when. */
export const betHistoryEntrySchema = z.object({
  id: z.number().int(),
  betId: z.number().int(),
  groupId: z.number().int(),
  kind: z.enum(BET_HISTORY_KINDS),
  actorId: z.number().int().nullable(),
  /** The actor's display name now. */
  actorName: z.string().nullable(),
  /** The answer named by a resolution or re-resolution. */
  correctAnswer: z.string().nullable(),
  /** A dispute's reason. */
  reason: z.string().nullable(),
  createdAt: z.string(),
});
export const versionedBetHistoryEntrySchema = betHistoryEntrySchema.extend({
  version: z.number().int(),
});
