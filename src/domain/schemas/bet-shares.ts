import { z } from './zod';
import { PUBLIC_BET_STATES, SHARE_TOKEN_PATTERN } from '../bet-shares';

// A bet's public link on the wire (src/domain/bet-shares.ts): what a member's Share answers, and
// the read-only page an outsider opens.

/** The bet's live public link; null once turned off (or never made). */
export const betShareLinkSchema = z.object({
  token: z.string(),
  /** Who made it (null once their account is gone), and their display name. */
  sharedBy: z.number().int().nullable(),
  sharedByName: z.string().nullable(),
  createdAt: z.string(),
});
export type BetShareLink = z.infer<typeof betShareLinkSchema>;

/** POST and DELETE /bets/:id/share answer the bet's link as it now is. */
export const betShareSchema = z.object({
  betId: z.number().int(),
  link: betShareLinkSchema.nullable(),
});
export type BetShare = z.infer<typeof betShareSchema>;

/** GET /public/shared-bets/:token's path parameter: a malformed token is simply not found. */
export const shareTokenParamsSchema = z.object({
  token: z.string().max(64),
});

/** Whether a token could be one Hunch made (anything else is not looked up). */
export const isShareToken = (token: string) => SHARE_TOKEN_PATTERN.test(token);

/** What anyone holding the link reads: one bet, and its result only once resolved. */
export const sharedBetSchema = z.object({
  betId: z.number().int(),
  title: z.string(),
  state: z.enum(PUBLIC_BET_STATES),
  groupId: z.number().int(),
  groupName: z.string(),
  /** A public group is joined by anyone signed in; a private one only by its invite link. */
  isGroupPublic: z.boolean(),
  /** Once resolved: the answer and the card's words ("Ben called it — won 6 (×1.5)"); null before. */
  result: z
    .object({
      answer: z.string(),
      headline: z.string(),
      detail: z.string().nullable(),
    })
    .nullable(),
});
export type SharedBet = z.infer<typeof sharedBetSchema>;
