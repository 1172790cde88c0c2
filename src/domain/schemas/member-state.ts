import { z } from './zod';
import { betSchema } from './bets';
import { membershipSchema } from './groups';

// GET /member/state on the wire (its type: member-state.ts).

/** A group in the user state: its id and name (docs/groups-and-bets.md §3 says the name may be missing). */
const memberStateGroupSchema = z.object({
  id: z.number().int(),
  name: z.string().optional(),
});

/**
 * The bets carry the full bet shape (`betSchema`: docs/groups-and-bets.md §3's id, title, betType,
 * betTypeConfig, baseWagerAmount, createdBy, expiresAt, groupId, plus state, description and
 * the rest), so the dashboard can show them offline from Dexie without another call.
 */
export const memberStateResponseSchema = z.object({
  groups: z.record(z.string(), memberStateGroupSchema),
  currentUserMemberships: z.record(z.string(), membershipSchema),
  unwageredBets: z.record(z.string(), betSchema),
  betsToResolve: z.record(z.string(), betSchema),
});
