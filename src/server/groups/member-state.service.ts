import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { MemberStateResponse } from '../../domain/member-state';
import type { AuthUser } from '../auth/tokens';
import type { Database } from '../db/connect';
import { prepared } from '../db/prepared';
import { groups, memberships, users, type MembershipRow } from '../db/schema';
import { presentMembership } from './group.presenter';

// GET /member/state (without a cursor): the caller's groups and memberships, and the bet maps
// the bets feature fills for those groups (the groups feature never reads bets itself).

export interface MemberStateServiceDeps {
  db: Database;
  /** The bets feature's maps of /member/state for the caller's current groups. */
  memberStateBets?: (
    userId: number,
    groupIds: number[],
  ) => Promise<Pick<MemberStateResponse, 'unwageredBets' | 'betsToResolve'>>;
}

export type MemberStateService = ReturnType<typeof createMemberStateService>;

/** The member state's groups and the caller's memberships there: every app start and reconnect (prepared once, see db/prepared.ts). */
const memberStateGroups = prepared<
  Array<{ group: { id: number; name: string }; membership: MembershipRow; userName: string }>,
  { userId: number }
>('memberStateGroups', (tx) =>
  tx
    .select({
      group: { id: groups.id, name: groups.name },
      membership: memberships,
      userName: users.displayName,
    })
    .from(memberships)
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.userId, sql.placeholder('userId')), isNull(memberships.leftAt)))
    .orderBy(asc(groups.id)),
);

export function createMemberStateService({ db, memberStateBets }: MemberStateServiceDeps) {
  return {
    /**
     * The caller's groups and memberships; the bet maps come from the bets feature, given the group
     * ids loaded here (one place to extend).
     */
    async getMemberState(caller: AuthUser): Promise<MemberStateResponse> {
      const rows = await memberStateGroups(db, { userId: caller.id });
      const state: MemberStateResponse = {
        groups: {},
        currentUserMemberships: {},
        unwageredBets: {},
        betsToResolve: {},
      };
      for (const row of rows) {
        state.groups[String(row.group.id)] = { id: row.group.id, name: row.group.name };
        state.currentUserMemberships[String(row.group.id)] = presentMembership(
          row.membership,
          row.userName,
          caller.id,
        );
      }
      if (memberStateBets) {
        Object.assign(
          state,
          await memberStateBets(
            caller.id,
            rows.map((row) => row.group.id),
          ),
        );
      }
      return state;
    },
  };
}
