import { randomBytes as nodeRandomBytes } from 'node:crypto';
import { and, asc, desc, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import {
  generateInviteCode,
  type CreateGroupInput,
  type Group,
  type Membership,
  type PublicGroupSummary,
} from '../../domain/groups';
import type { AuthUser } from '../auth/tokens';
import type { Database, Executor } from '../db/connect';
import { groups, memberships, users, type GroupRow, type MembershipRow } from '../db/schema';
import {
  cannotDemoteCreator,
  cannotRemoveCreator,
  groupNameTaken,
  notFound,
  notAFriend,
  notMember,
} from '../errors';
import type { EventBus } from '../events';
import {
  presentGroup,
  presentMembership,
  presentPublicGroupSummary,
  type GroupMember,
} from './group.presenter';
import { requireGroupAccess } from './group-access';
import {
  findMembership,
  joinMembership,
  markMembershipLeft,
  setMembershipRole,
  usersSharingAGroupWith,
  type JoinOutcome,
} from './membership.service';

// The rules of groups (spec 02 §3–§7, ARCHITECTURE.md §4). Each change runs in one
// transaction and publishes its events only after the commit; routes validate, call one
// function here and send what it returns.

/** How many public groups the join typeahead gets at most. */
export const PUBLIC_SEARCH_LIMIT = 20;

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

/** A joined membership, for the userJoinedGroup event after the commit. */
interface Joined {
  membership: MembershipRow;
  outcome: JoinOutcome;
  userName: string;
}

export function createGroupsService({
  db,
  events,
  now = () => new Date(),
  randomBytes = nodeRandomBytes,
}: GroupsServiceDeps) {
  /** The current members of each group, by group id. */
  async function loadMembers(
    tx: Executor,
    groupIds: readonly number[],
  ): Promise<Map<number, GroupMember[]>> {
    const byGroup = new Map<number, GroupMember[]>(groupIds.map((id) => [id, []]));
    if (groupIds.length === 0) return byGroup;
    const rows = await tx
      .select({ groupId: memberships.groupId, userId: memberships.userId, role: memberships.role })
      .from(memberships)
      .where(and(inArray(memberships.groupId, [...groupIds]), isNull(memberships.leftAt)));
    for (const row of rows) byGroup.get(row.groupId)?.push({ userId: row.userId, role: row.role });
    return byGroup;
  }

  async function presentGroups(
    tx: Executor,
    rows: readonly GroupRow[],
    viewerId: number,
  ): Promise<Group[]> {
    const members = await loadMembers(
      tx,
      rows.map((row) => row.id),
    );
    return rows.map((row) => presentGroup(row, members.get(row.id) ?? [], viewerId));
  }

  async function presentOne(tx: Executor, row: GroupRow, viewerId: number): Promise<Group> {
    return (await presentGroups(tx, [row], viewerId))[0]!;
  }

  async function displayNameOf(tx: Executor, userId: number): Promise<string> {
    const [row] = await tx
      .select({ displayName: users.displayName })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    if (!row) throw notFound('User');
    return row.displayName;
  }

  /** Bumps the group's updatedAt: its member and admin lists are part of it (sync engines compare it). */
  async function touchGroup(tx: Executor, groupId: number, at: Date): Promise<GroupRow> {
    const [row] = await tx
      .update(groups)
      .set({ updatedAt: at })
      .where(eq(groups.id, groupId))
      .returning();
    return row!;
  }

  async function join(tx: Executor, group: GroupRow, userId: number, at: Date): Promise<Joined> {
    const userName = await displayNameOf(tx, userId);
    const { membership, outcome } = await joinMembership(tx, {
      groupId: group.id,
      userId,
      defaultPoints: group.defaultPoints,
      now: at,
    });
    return { membership, outcome, userName };
  }

  /** After the commit: a new or returning member is announced to the group (spec 02 §3, §4). */
  function announceJoin(joined: Joined): void {
    if (joined.outcome === 'already_member') return;
    const { membership, userName } = joined;
    events.publish(
      'userJoinedGroup',
      {
        groupId: membership.groupId,
        userId: membership.userId,
        userName,
        totalPoints: membership.totalPoints,
        availablePoints: membership.availablePoints,
        version: membership.version,
      },
      { groupId: membership.groupId },
    );
  }

  /** After the commit: the realtime gateway takes the former member's sockets out of the group's room (internal, never sent to clients). */
  function announceMembershipEnded(groupId: number, userId: number): void {
    events.publish('membershipEnded', { groupId, userId }, { userId });
  }

  /** Joins `group` and answers the group as the new member sees it (with its invite code). */
  async function joinAndPresent(
    userId: number,
    loadGroup: (tx: Executor) => Promise<GroupRow>,
  ): Promise<Group> {
    const at = now();
    const { group, joined } = await db.transaction(async (tx) => {
      const row = await loadGroup(tx);
      const joined = await join(tx, row, userId, at);
      const touched = joined.outcome === 'already_member' ? row : await touchGroup(tx, row.id, at);
      return { group: await presentOne(tx, touched, userId), joined };
    });
    announceJoin(joined);
    return group;
  }

  /**
   * The caller leaves: the membership is marked left, its points and open wagers stay, and
   * joining again restores it (ARCHITECTURE.md §4). The creator cannot leave, so every
   * group keeps an admin who can manage it.
   */
  async function leave(
    tx: Executor,
    caller: AuthUser,
    groupId: number,
    at: Date,
  ): Promise<GroupRow> {
    await requireGroupAccess(tx, { userId: caller.id, groupId, permission: 'leave' });
    // A concurrent leave or removal may win the race after the check.
    if (!(await markMembershipLeft(tx, groupId, caller.id, at))) throw notMember();
    return touchGroup(tx, groupId, at);
  }

  return {
    /** Spec 02 §4: the creator becomes the first member and an admin, with the group's defaultPoints. */
    async createGroup(caller: AuthUser, input: CreateGroupInput): Promise<Group> {
      const at = now();
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
        return presentOne(tx, row!, caller.id);
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

    /** A public group for any signed-in user; a private one for its members (403 not_member otherwise). */
    async getGroup(caller: AuthUser, groupId: number): Promise<Group> {
      const group = await requireGroupAccess(db, {
        userId: caller.id,
        groupId,
        permission: 'read',
      });
      return presentOne(db, group, caller.id);
    },

    /**
     * A current member's membership, the caller's by default. Asking for one's own
     * membership only says whether one is a member (404 otherwise); another user's follows
     * the group's read rule.
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
      return presentMembership(row.membership, row.userName);
    },

    /** An admin adds a user: a first join grants defaultPoints, a former member gets their old membership back. */
    async addMember(caller: AuthUser, groupId: number, userId: number): Promise<Group> {
      const at = now();
      const { group, joined } = await db.transaction(async (tx) => {
        const row = await requireGroupAccess(tx, {
          userId: caller.id,
          groupId,
          permission: 'manageMembers',
        });
        // Only a friend (someone in one of the admin's groups now) or a former member of this
        // group: adding any id would let anyone enrol strangers, and an unknown id answers the same.
        const isFriend =
          userId === caller.id ||
          (await usersSharingAGroupWith(tx, caller.id, [userId])).has(userId);
        if (!isFriend && !(await findMembership(tx, row.id, userId))) throw notAFriend();
        const joined = await join(tx, row, userId, at);
        const touched =
          joined.outcome === 'already_member' ? row : await touchGroup(tx, row.id, at);
        return { group: await presentOne(tx, touched, caller.id), joined };
      });
      announceJoin(joined);
      return group;
    },

    /** An admin removes a member, or a member removes themself (leaving); the creator stays. */
    async removeMember(caller: AuthUser, groupId: number, userId: number): Promise<Group> {
      const at = now();
      const group = await db.transaction(async (tx) => {
        if (userId === caller.id)
          return presentOne(tx, await leave(tx, caller, groupId, at), caller.id);
        const row = await requireGroupAccess(tx, {
          userId: caller.id,
          groupId,
          permission: 'manageMembers',
        });
        if (userId === row.createdByUserId) throw cannotRemoveCreator();
        if (!(await markMembershipLeft(tx, groupId, userId, at))) throw notFound('Member');
        return presentOne(tx, await touchGroup(tx, groupId, at), caller.id);
      });
      announceMembershipEnded(groupId, userId);
      return group;
    },

    /** An admin makes a current member an admin (already one: nothing changes). */
    async addAdmin(caller: AuthUser, groupId: number, userId: number): Promise<Group> {
      const at = now();
      return db.transaction(async (tx) => {
        const row = await requireGroupAccess(tx, {
          userId: caller.id,
          groupId,
          permission: 'manageMembers',
        });
        if (!(await setMembershipRole(tx, groupId, userId, 'admin', at))) throw notFound('Member');
        return presentOne(tx, await touchGroup(tx, groupId, at), caller.id);
      });
    },

    /** An admin makes an admin a plain member again; the creator always stays an admin. */
    async removeAdmin(caller: AuthUser, groupId: number, userId: number): Promise<Group> {
      const at = now();
      return db.transaction(async (tx) => {
        const row = await requireGroupAccess(tx, {
          userId: caller.id,
          groupId,
          permission: 'manageMembers',
        });
        if (userId === row.createdByUserId) throw cannotDemoteCreator();
        if (!(await setMembershipRole(tx, groupId, userId, 'member', at))) throw notFound('Member');
        return presentOne(tx, await touchGroup(tx, groupId, at), caller.id);
      });
    },

    /** Joins a public group by its exact name, case-insensitively (spec 02 §4); anything else is "Group not found". */
    async joinPublic(caller: AuthUser, groupName: string): Promise<Group> {
      return joinAndPresent(caller.id, async (tx) => {
        const [row] = await tx
          .select()
          .from(groups)
          .where(
            and(
              eq(groups.privacy, 'public'),
              sql`lower(${groups.name}) = lower(${groupName.trim()})`,
            ),
          )
          .limit(1);
        if (!row) throw notFound('Group');
        return row;
      });
    },

    /**
     * Joins a group by id and invite code (spec 02 §4). A private group needs its exact code
     * (403 invalid_invite_code otherwise). A public group is open to everyone, and its share
     * link carries no code, so joining one by id ignores whatever code was sent.
     */
    async joinPrivate(caller: AuthUser, groupId: number, inviteCode: string): Promise<Group> {
      return joinAndPresent(caller.id, async (tx) => {
        return requireGroupAccess(tx, {
          userId: caller.id,
          groupId,
          permission: 'join',
          inviteCode,
        });
      });
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

    /** POST /groups/{id}/leave; see `leave`. */
    async leaveGroup(caller: AuthUser, groupId: number): Promise<void> {
      const at = now();
      await db.transaction((tx) => leave(tx, caller, groupId, at));
      announceMembershipEnded(groupId, caller.id);
    },
  };
}
