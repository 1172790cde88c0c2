import { randomBytes as nodeRandomBytes } from 'node:crypto';
import { and, asc, desc, eq, ilike, isNull, ne, or, sql } from 'drizzle-orm';
import {
  generateInviteCode,
  type CreateGroupInput,
  type Group,
  type GroupSettings,
  type InviteCodeResponse,
  type InvitePreview,
  type UpdateGroupInput,
  type UpdateGroupSettingsInput,
  type Membership,
  type PublicGroupSummary,
} from '../../domain/groups';
import { DEFAULT_STAKE_TIERS, stakeTierSet, type StakeTiers } from '../../domain/stakes';
import type { AuthUser } from '../auth/tokens';
import type { Database } from '../db/connect';
import { groups, memberships, users } from '../db/schema';
import { groupNameTaken, notFound, stakeTiersNotOffered } from '../errors';
import type { EventBus } from '../events';
import {
  presentGroups,
  presentMembership,
  presentOneGroup,
  presentPublicGroupSummary,
} from './group.presenter';
import { requireGroupAccess, requireInviteCode } from './group-access';
import { joinMembership } from './membership.service';

// The rules of groups (docs/groups-and-bets.md §3–§7, docs/architecture.md §4). Each change runs in one
// transaction and publishes its events only after the commit; routes validate, call one
// function here and send what it returns.

/** How many public groups the join typeahead gets at most. */
const PUBLIC_SEARCH_LIMIT = 20;

export interface GroupsServiceDeps {
  db: Database;
  events: EventBus;
  now?: () => Date;
  /** Random bytes for invite codes; tests may pin them. */
  randomBytes?: (length: number) => Uint8Array;
}

export interface ListGroupsFilter {
  membership?: 'mine' | undefined;
  managed_by?: 'mine' | undefined;
  privacy?: 'public' | 'private' | undefined;
  /** The page: at most `limit` groups from `offset` in list order. */
  limit: number;
  offset: number;
}

export type GroupsService = ReturnType<typeof createGroupsService>;

/** The tier set a request names, or the 422 that says which sets there are (stakes.ts). */
function requireStakeTiers(tiers: readonly number[]): StakeTiers {
  const set = stakeTierSet(tiers);
  if (!set) throw stakeTiersNotOffered();
  return set;
}

export function createGroupsService({
  db,
  events,
  now = () => new Date(),
  randomBytes = nodeRandomBytes,
}: GroupsServiceDeps) {
  return {
    /** docs/groups-and-bets.md §4: the creator becomes the first member and an admin, with the group's defaultPoints. */
    async createGroup(caller: AuthUser, input: CreateGroupInput): Promise<Group> {
      const at = now();
      const stakeTiers = requireStakeTiers(input.stakeTiers ?? DEFAULT_STAKE_TIERS);
      const inviteCode =
        input.privacy === 'private' ? (input.inviteCode ?? generateInviteCode(randomBytes)) : null;
      const group = await db.transaction(async (tx) => {
        if (input.privacy === 'public') {
          // The unique index settles a race between two creators; this gives the usual case its clear error.
          const [clash] = await tx
            .select({ id: groups.id })
            .from(groups)
            .where(
              and(eq(groups.privacy, 'public'), sql`lower(${groups.name}) = lower(${input.name})`),
            )
            .limit(1);
          if (clash) throw groupNameTaken();
        }
        const [row] = await tx
          .insert(groups)
          .values({
            name: input.name,
            description: input.description ?? null,
            privacy: input.privacy,
            inviteCode,
            defaultPoints: input.defaultPoints,
            stakeTiers: [...stakeTiers],
            createdByUserId: caller.id,
            createdAt: at,
            updatedAt: at,
          })
          .returning();
        await joinMembership(tx, {
          groupId: row!.id,
          userId: caller.id,
          defaultPoints: row!.defaultPoints,
          role: 'admin',
          now: at,
        });
        return presentOneGroup(tx, row!, caller.id);
      });
      events.publish(
        'groupCreated',
        { groupId: group.id, name: group.name },
        { userId: caller.id },
      );
      return group;
    },

    /**
     * GET /groups. membership=mine: the caller's groups; managed_by=mine: those they admin;
     * neither: everything the caller may see, their groups and every public group. One page
     * at a time, and where the next one starts (null after the last).
     */
    async listGroups(
      caller: AuthUser,
      filter: ListGroupsFilter,
    ): Promise<{ groups: Group[]; nextOffset: number | null }> {
      const mine = and(
        eq(memberships.groupId, groups.id),
        eq(memberships.userId, caller.id),
        isNull(memberships.leftAt),
      );
      const isMember = sql`${memberships.userId} is not null`;
      const rows = await db
        .select({ group: groups })
        .from(groups)
        .leftJoin(memberships, mine)
        .where(
          and(
            filter.membership === 'mine' ? isMember : or(isMember, eq(groups.privacy, 'public')),
            filter.managed_by === 'mine' ? eq(memberships.role, 'admin') : undefined,
            filter.privacy ? eq(groups.privacy, filter.privacy) : undefined,
          ),
        )
        .orderBy(asc(sql`lower(${groups.name})`), asc(groups.id))
        .limit(filter.limit + 1)
        .offset(filter.offset);
      const page = rows.slice(0, filter.limit).map((row) => row.group);
      return {
        groups: await presentGroups(db, page, caller.id),
        nextOffset: rows.length > filter.limit ? filter.offset + filter.limit : null,
      };
    },

    /**
     * An admin renames the group, changes its description or its stake tiers. A public group's
     * name stays unique without case (409 group_name_taken; the unique index settles a race the
     * same way). Tiers are one of STAKE_TIER_SETS (422 otherwise), decided under the group's
     * lock, which every bet's creation waits for: a bet is checked against the tiers as they
     * are when it is created, and keeps its base after. The members hear groupUpdated after the
     * commit and pull the row.
     */
    async updateGroup(caller: AuthUser, groupId: number, input: UpdateGroupInput): Promise<Group> {
      const stakeTiers = input.stakeTiers && requireStakeTiers(input.stakeTiers);
      const { group, changed } = await db.transaction(async (tx) => {
        const row = await requireGroupAccess(tx, {
          userId: caller.id,
          groupId,
          permission: 'manageSettings',
        });
        const changes = {
          ...(input.name !== undefined && input.name !== row.name ? { name: input.name } : {}),
          ...(input.description !== undefined && input.description !== row.description
            ? { description: input.description }
            : {}),
          ...(stakeTiers && stakeTierSet(row.stakeTiers) !== stakeTiers
            ? { stakeTiers: [...stakeTiers] }
            : {}),
        };
        if (Object.keys(changes).length === 0)
          return { group: await presentOneGroup(tx, row, caller.id), changed: null };
        if (changes.name !== undefined && row.privacy === 'public') {
          const [clash] = await tx
            .select({ id: groups.id })
            .from(groups)
            .where(
              and(
                eq(groups.privacy, 'public'),
                ne(groups.id, row.id),
                sql`lower(${groups.name}) = lower(${changes.name})`,
              ),
            )
            .limit(1);
          if (clash) throw groupNameTaken();
        }
        const [updated] = await tx
          .update(groups)
          .set({ ...changes, updatedAt: now() })
          .where(eq(groups.id, row.id))
          .returning();
        return { group: await presentOneGroup(tx, updated!, caller.id), changed: updated! };
      });
      if (changed)
        events.publish(
          'groupUpdated',
          { groupId: changed.id, version: changed.version },
          { groupId: changed.id },
        );
      return group;
    },

    /** The group's settings, for its admins. */
    async getSettings(caller: AuthUser, groupId: number): Promise<GroupSettings> {
      const group = await requireGroupAccess(db, {
        userId: caller.id,
        groupId,
        permission: 'readSettings',
      });
      return { floorTopUp: group.floorTopUp };
    },

    /** An admin turns the weekly floor top-up on or off. */
    async updateSettings(
      caller: AuthUser,
      groupId: number,
      input: UpdateGroupSettingsInput,
    ): Promise<GroupSettings> {
      return db.transaction(async (tx) => {
        const group = await requireGroupAccess(tx, {
          userId: caller.id,
          groupId,
          permission: 'manageSettings',
        });
        if (input.floorTopUp === undefined || input.floorTopUp === group.floorTopUp)
          return { floorTopUp: group.floorTopUp };
        const [updated] = await tx
          .update(groups)
          .set({ floorTopUp: input.floorTopUp, updatedAt: now() })
          .where(eq(groups.id, group.id))
          .returning({ floorTopUp: groups.floorTopUp });
        return { floorTopUp: updated?.floorTopUp ?? input.floorTopUp };
      });
    },

    /**
     * An admin gives a private group a new invite code: the old one stops working at once
     * (someone it leaked to cannot join with it). The group's new version carries the code to
     * the members' devices with their next pull.
     */
    async rotateInviteCode(caller: AuthUser, groupId: number): Promise<InviteCodeResponse> {
      const inviteCode = generateInviteCode(randomBytes);
      return db.transaction(async (tx) => {
        await requireGroupAccess(tx, {
          userId: caller.id,
          groupId,
          permission: 'rotateInviteCode',
        });
        await tx.update(groups).set({ inviteCode, updatedAt: now() }).where(eq(groups.id, groupId));
        return { inviteCode };
      });
    },

    /**
     * What an invite link tells a visitor before they have an account: the group's name and
     * who invited them, only for the right code (`requireInviteCode`). The link does not say
     * who shared it, so the inviter is the creator while still a member, else the
     * longest-standing admin (every group keeps one).
     */
    async previewInvite(groupId: number, inviteCode: string): Promise<InvitePreview> {
      const group = await requireInviteCode(db, groupId, inviteCode);
      const [inviter] = await db
        .select({ displayName: users.displayName })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(and(eq(memberships.groupId, group.id), isNull(memberships.leftAt)))
        .orderBy(
          desc(eq(memberships.userId, group.createdByUserId)),
          asc(memberships.role),
          asc(memberships.joinedAt),
          asc(memberships.userId),
        )
        .limit(1);
      return { groupName: group.name, inviterName: inviter?.displayName ?? '' };
    },

    /** A public group for any signed-in user; a private one for its members (403 not_member otherwise). */
    async getGroup(caller: AuthUser, groupId: number): Promise<Group> {
      const group = await requireGroupAccess(db, {
        userId: caller.id,
        groupId,
        permission: 'read',
      });
      return presentOneGroup(db, group, caller.id);
    },

    /**
     * A current member's membership, the caller's by default. Asking for one's own
     * membership only says whether one is a member (404 otherwise); another user's follows
     * the group's read rule and shows their total points only (membershipAsSeenBy).
     */
    async getMembership(
      caller: AuthUser,
      groupId: number,
      userId = caller.id,
    ): Promise<Membership> {
      await requireGroupAccess(db, {
        userId: caller.id,
        groupId,
        permission: userId === caller.id ? 'readOwnMembership' : 'read',
      });
      const [row] = await db
        .select({ membership: memberships, userName: users.displayName })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(
          and(
            eq(memberships.groupId, groupId),
            eq(memberships.userId, userId),
            isNull(memberships.leftAt),
          ),
        )
        .limit(1);
      if (!row) throw notFound('Membership');
      return presentMembership(row.membership, row.userName, caller.id);
    },

    /** Public groups whose name contains `search` (case-insensitive), names starting with it first, at most 20, with member counts. */
    async searchPublicGroups(
      _caller: AuthUser,
      search: string | undefined,
    ): Promise<PublicGroupSummary[]> {
      const needle = (search ?? '').trim().toLowerCase();
      const escaped = needle.replace(/[\\%_]/g, (character) => `\\${character}`);
      const memberCount = sql<number>`(select count(*)::int from ${memberships} where ${memberships.groupId} = ${groups.id} and ${memberships.leftAt} is null)`;
      const rows = await db
        .select({ id: groups.id, name: groups.name, description: groups.description, memberCount })
        .from(groups)
        .where(
          and(
            eq(groups.privacy, 'public'),
            needle ? ilike(groups.name, `%${escaped}%`) : undefined,
          ),
        )
        .orderBy(
          desc(sql`lower(${groups.name}) like ${`${escaped}%`}`),
          asc(sql`lower(${groups.name})`),
          asc(groups.id),
        )
        .limit(PUBLIC_SEARCH_LIMIT);
      return rows.map((row) => presentPublicGroupSummary(row, Number(row.memberCount)));
    },
  };
}
