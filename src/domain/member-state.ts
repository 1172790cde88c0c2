import type { Bet } from './bets';
import type { Membership } from './groups';

// GET /member/state (docs/groups-and-bets.md §3 "User state response", §7): everything the dashboard and the
// header need, loaded by the sync engine at login, restore, reconnect and when the browser is
// back online (docs/architecture.md §8). Maps are keyed by id as a string, as JSON keys are.
// Its own file because it joins groups and bets. The wire schema: schemas/member-state.ts.

/**
 * The bets carry the full bet shape (id, title, betType, betTypeConfig, baseWagerAmount,
 * createdBy, expiresAt, groupId, plus state, description and the rest), so the
 * dashboard can show them offline from Dexie without another call. A group's name may be missing.
 */
export type MemberStateResponse = {
  groups: Record<string, { id: number; name?: string | undefined }>;
  currentUserMemberships: Record<string, Membership>;
  unwageredBets: Record<string, Bet>;
  betsToResolve: Record<string, Bet>;
};
