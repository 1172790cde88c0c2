import { and, eq, isNull, sql } from 'drizzle-orm';
import { isGroupCreator, isKeptOutOfGroup, type Group } from '../../domain/groups';
import { addBackMemberRefusal, removeMemberRefusal } from '../../domain/policies/group-policy';
import type { AuthUser } from '../auth/tokens';
import type { Database, Executor } from '../db/connect';
import { groups, memberships, users, type GroupRow, type MembershipRow } from '../db/schema';
import { cannotDemoteCreator, notAFriend, notFound, notMember } from '../errors';
import type { EventBus } from '../events';
import { presentMembership, presentOneGroup } from './group.presenter';
import { readRoster, refusalError, requireGroupAccess } from './group-access';
import { handOverAdminRoles } from './member-data';
import { findMembership, usersSharingAGroupWith } from './membership-queries';
import {
  joinMembership,
  markMembershipLeft,
  setMembershipRole,
  type JoinOutcome,
} from './membership.service';
import { queueMemberJoined } from '../webhooks/webhook-events';

// Who is in a group (docs/groups-and-bets.md §4, §6; docs/architecture.md §4): joining, leaving, and the admins'
// adding and removing of members and admins. Each change runs in one transaction, bumps the
// group's updatedAt (its member lists are part of it) and publishes its events after the commit.

export interface GroupMembersServiceDeps {
  db: Database;
  events: EventBus;
  now?: () => Date;
}

export type GroupMembersService = ReturnType<typeof createGroupMembersService>;

/** A joined membership, for the userJoinedGroup event after the commit. */
interface Joined {
  membership: MembershipRow;
  outcome: JoinOutcome;
  userName: string;
}

export function createGroupMembersService({
  db,
  events,
  now = () => new Date(),
}: GroupMembersServiceDeps) {
  /**
   * The name of a user about to become a member, undefined for a deleted or missing account:
   * a deleted account never becomes one again (an admin could otherwise add the former member
   * back). Key-share locked, as the membership's foreign key would be, so a deletion committing
   * meanwhile is waited for and seen. Called before the group is locked: an account's row comes
   * before the group's (db/README.md, "Lock order"), as an account's deletion takes them.
   */
  async function lockJoiner(tx: Executor, userId: number): Promise<string | undefined> {
    const [row] = await tx
      .select({ displayName: users.displayName })
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deletedAt)))
      .for('key share');
    return row?.displayName;
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

  // Every change here is decided under the group's row lock, which `requireGroupAccess` takes
  // before it reads the caller's standing (group-access.ts GROUP_LOCKS): a removal
  // or demotion that has answered is seen by a request that was already running.

  /** Makes `userId` a member of the group (locked already); `byAdmin` brings back a removed member. */
  async function join(
    tx: Executor,
    group: GroupRow,
    joiner: { userId: number; userName: string; byAdmin: boolean },
    at: Date,
  ): Promise<Joined> {
    const { membership, outcome } = await joinMembership(tx, {
      groupId: group.id,
      userId: joiner.userId,
      defaultPoints: group.defaultPoints,
      liftRemoval: joiner.byAdmin,
      now: at,
    });
    // The group's webhooks hear of a new or returning member in this transaction.
    if (outcome !== 'already_member') await queueMemberJoined(tx, group.id, joiner.userName, at);
    return { membership, outcome, userName: joiner.userName };
  }

  /**
   * After the commit: a new or returning member is announced to the group (docs/groups-and-bets.md §3, §4), as
   * the group may see them: a returning member's open wagers stay theirs (available points
   * read as total), and the version is the public stamp other members' mirrors hold.
   */
  function announceJoin(joined: Joined): void {
    if (joined.outcome === 'already_member') return;
    const { membership, userName } = joined;
    const { groupId, userId, totalPoints, availablePoints } = presentMembership(
      membership,
      userName,
      null,
    );
    events.publish(
      'userJoinedGroup',
      {
        groupId,
        userId,
        userName,
        totalPoints,
        availablePoints,
        version: membership.publicVersion,
      },
      { groupId: membership.groupId },
    );
  }

  /**
   * After the commit: the group and the former member's own devices hear who left (or was
   * removed), then the realtime gateway takes the former member's sockets out of the group's
   * room (membershipEnded: internal, never sent to clients).
   */
  function announceMembershipEnded(ended: {
    group: GroupRow;
    userId: number;
    removed: boolean;
    removedBy?: { userId: number; userName: string };
  }) {
    const { group, userId, removed, removedBy } = ended;
    events.publish(
      'userLeftGroup',
      {
        groupId: group.id,
        userId,
        removed,
        ...(removedBy ? { removedBy } : {}),
        version: group.version,
      },
      { groupId: group.id },
    );
    events.publish('membershipEnded', { groupId: group.id, userId }, { userId });
  }

  /**
   * The caller joins the group `findGroupId` names (by themself: a removal keeps them out) and
   * gets the group as the new member sees it (with its invite code).
   */
  async function joinAndPresent(
    userId: number,
    findGroupId: (tx: Executor) => Promise<number>,
    inviteCode?: string,
  ): Promise<Group> {
    const at = now();
    const { group, joined } = await db.transaction(async (tx) => {
      const groupId = await findGroupId(tx);
      const userName = await lockJoiner(tx, userId);
      if (userName === undefined) throw notFound('User');
      const row = await requireGroupAccess(tx, {
        userId,
        groupId,
        permission: 'join',
        ...(inviteCode === undefined ? {} : { inviteCode }),
      });
      const joined = await join(tx, row, { userId, userName, byAdmin: false }, at);
      const touched = joined.outcome === 'already_member' ? row : await touchGroup(tx, row.id, at);
      return { group: await presentOneGroup(tx, touched, userId), joined };
    });
    announceJoin(joined);
    return group;
  }

  /**
   * The caller leaves: the membership is marked left, its points and open wagers stay, and
   * joining again restores it (docs/architecture.md §4). The creator cannot leave, so every
   * group keeps an admin who can manage it.
   */
  async function leave(
    tx: Executor,
    caller: AuthUser,
    groupId: number,
    at: Date,
  ): Promise<GroupRow> {
    await requireGroupAccess(tx, { userId: caller.id, groupId, permission: 'leave' });
    // The last admin's role goes to the longest-standing member, as at an account's deletion.
    await handOverAdminRoles(tx, caller.id, at, [groupId]);
    if (!(await markMembershipLeft(tx, groupId, caller.id, at))) throw notMember();
    return touchGroup(tx, groupId, at);
  }

  return {
    /** An admin adds a user: a first join grants defaultPoints, a former member gets their old membership back. */
    async addMember(caller: AuthUser, groupId: number, userId: number): Promise<Group> {
      const at = now();
      const { group, joined } = await db.transaction(async (tx) => {
        const userName = await lockJoiner(tx, userId);
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
        if (userName === undefined) throw notFound('User');
        const joined = await join(tx, row, { userId, userName, byAdmin: true }, at);
        const touched =
          joined.outcome === 'already_member' ? row : await touchGroup(tx, row.id, at);
        return { group: await presentOneGroup(tx, touched, caller.id), joined };
      });
      announceJoin(joined);
      return group;
    },

    /**
     * An admin adds back a player an admin removed (the group policy's `addBackMemberRefusal`,
     * decided under the group's row lock): their old membership returns, points and wagers as
     * they were, and they may play again. Anyone else is refused (409 member_not_removed).
     */
    async addBackMember(caller: AuthUser, groupId: number, userId: number): Promise<Group> {
      const at = now();
      const { group, joined } = await db.transaction(async (tx) => {
        const userName = await lockJoiner(tx, userId);
        const row = await requireGroupAccess(tx, {
          userId: caller.id,
          groupId,
          permission: 'manageMembers',
        });
        const target = await findMembership(tx, row.id, userId);
        const isRemoved = userName !== undefined && isKeptOutOfGroup(target);
        const refusal = addBackMemberRefusal(await readRoster(tx, row), caller.id, isRemoved);
        if (refusal) throw refusalError(refusal);
        const joined = await join(tx, row, { userId, userName: userName!, byAdmin: true }, at);
        const touched = await touchGroup(tx, row.id, at);
        return { group: await presentOneGroup(tx, touched, caller.id), joined };
      });
      announceJoin(joined);
      return group;
    },

    /**
     * An admin removes a member (the group policy says whom: anyone but the creator and
     * themself), or a member removes themself, which is leaving. A removed member is treated
     * as one who left (points and open wagers stay theirs, their devices lose the group at
     * once) and is kept out until an admin adds them back.
     */
    async removeMember(caller: AuthUser, groupId: number, userId: number): Promise<Group> {
      const at = now();
      const removed = userId !== caller.id;
      const {
        group,
        touched,
        hasLeft: barredOnly,
        removerName,
      } = await db.transaction(async (tx) => {
        if (!removed) {
          const left = await leave(tx, caller, groupId, at);
          return {
            group: await presentOneGroup(tx, left, caller.id),
            touched: left,
            hasLeft: false,
            removerName: '',
          };
        }
        const row = await requireGroupAccess(tx, {
          userId: caller.id,
          groupId,
          permission: 'manageMembers',
        });
        const target = await findMembership(tx, groupId, userId);
        const hasLeft = Boolean(target && target.leftAt !== null && target.removedAt === null);
        const roster = await readRoster(tx, row);
        const refusal = removeMemberRefusal(roster, caller.id, userId, hasLeft);
        if (refusal) throw refusalError(refusal);
        // One who left is barred: kept out as a removed member is, until an admin adds them.
        const ended = hasLeft
          ? await barFormerMember(tx, groupId, userId, at)
          : await markMembershipLeft(tx, groupId, userId, at, 'removed');
        if (!ended) throw notFound('Member');
        const after = await touchGroup(tx, groupId, at);
        const [remover] = await tx
          .select({ userName: users.displayName })
          .from(users)
          .where(eq(users.id, caller.id));
        return {
          group: await presentOneGroup(tx, after, caller.id),
          touched: after,
          hasLeft,
          removerName: remover?.userName ?? '',
        };
      });
      if (!barredOnly)
        announceMembershipEnded({
          group: touched,
          userId,
          removed,
          ...(removed ? { removedBy: { userId: caller.id, userName: removerName } } : {}),
        });
      return group;
    },

    /** An admin makes a current member an admin (already one: nothing changes). */
    async addAdmin(caller: AuthUser, groupId: number, userId: number): Promise<Group> {
      const at = now();
      return db.transaction(async (tx) => {
        await requireGroupAccess(tx, { userId: caller.id, groupId, permission: 'manageMembers' });
        if (!(await setMembershipRole(tx, groupId, userId, 'admin', at))) throw notFound('Member');
        return presentOneGroup(tx, await touchGroup(tx, groupId, at), caller.id);
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
        if (isGroupCreator(row, userId)) throw cannotDemoteCreator();
        if (!(await setMembershipRole(tx, groupId, userId, 'member', at))) throw notFound('Member');
        return presentOneGroup(tx, await touchGroup(tx, groupId, at), caller.id);
      });
    },

    /** Joins a public group by its exact name, case-insensitively (docs/groups-and-bets.md §4); anything else is "Group not found". */
    async joinPublic(caller: AuthUser, groupName: string): Promise<Group> {
      return joinAndPresent(caller.id, async (tx) => {
        const [row] = await tx
          .select({ id: groups.id })
          .from(groups)
          .where(
            and(
              eq(groups.privacy, 'public'),
              sql`lower(${groups.name}) = lower(${groupName.trim()})`,
            ),
          )
          .limit(1);
        if (!row) throw notFound('Group');
        return row.id;
      });
    },

    /**
     * Joins a group by id and invite code (docs/groups-and-bets.md §4). A private group needs its exact code
     * (403 invalid_invite_code otherwise). A public group is open to everyone, and its share
     * link carries no code, so joining one by id ignores whatever code was sent.
     */
    async joinPrivate(caller: AuthUser, groupId: number, inviteCode: string): Promise<Group> {
      return joinAndPresent(caller.id, async () => groupId, inviteCode);
    },

    /** POST /groups/{id}/leave; see `leave`. */
    async leaveGroup(caller: AuthUser, groupId: number): Promise<void> {
      const at = now();
      const group = await db.transaction((tx) => leave(tx, caller, groupId, at));
      announceMembershipEnded({ group, userId: caller.id, removed: false });
    },
  };
}

/**
 * Bars one who left by themself: the removal an admin's "remove" would have set, so they cannot
 * join again by themself until an admin adds them back. False when they are not such a one.
 */
async function barFormerMember(
  tx: Executor,
  groupId: number,
  userId: number,
  now: Date,
): Promise<boolean> {
  const rows = await tx
    .update(memberships)
    .set({ removedAt: now, updatedAt: now })
    .where(
      and(
        eq(memberships.groupId, groupId),
        eq(memberships.userId, userId),
        sql`${memberships.leftAt} is not null and ${memberships.removedAt} is null`,
      ),
    )
    .returning({ userId: memberships.userId });
  return rows.length > 0;
}
