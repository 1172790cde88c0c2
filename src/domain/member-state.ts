import { z } from './zod';
import { betSchema } from './bets';
import { membershipSchema } from './groups';

// GET /member/state (spec 02 §3 "User state response", §7): everything the dashboard and the
// header need, loaded by the sync engine at login, restore, reconnect and when the browser is
// back online (ARCHITECTURE.md §8). Maps are keyed by id as a string, as JSON keys are.
// Its own file because it joins groups and bets, and bets.ts already imports groups.ts.

/** A group in the user state: its id and name (spec 02 §3 says the name may be missing). */
const memberStateGroupSchema = z.object({
  id: z.number().int(),
  name: z.string().optional(),
});

/**
 * The bets carry the full bet shape (`betSchema`: spec 02 §3's id, title, betType,
 * betTypeConfig, baseWagerAmount, createdBy, expiresAt, groupId, plus state, description and
 * the rest), so the dashboard can show them offline from Dexie without another call.
 */
export const memberStateResponseSchema = z.object({
  groups: z.record(z.string(), memberStateGroupSchema),
  currentUserMemberships: z.record(z.string(), membershipSchema),
  unwageredBets: z.record(z.string(), betSchema),
  betsToResolve: z.record(z.string(), betSchema),
});
export type MemberStateResponse = z.infer<typeof memberStateResponseSchema>;
