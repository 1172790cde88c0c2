import { and, asc, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { Executor } from '../db/connect';
import { groups, ledger, memberships, users } from '../db/schema';

// A player's own memberships and ledger for their data export, and their leaving every group
// when they delete their account (src/server/auth/account-data.service.ts). Here because only
// the groups feature touches memberships and the ledger.

/** Every group the user is or was in, with the group's name and whether they created it. */
export async function readMembershipsOf(tx: Executor, userId: number) {
  return tx
    .select({
      membership: memberships,
      groupName: groups.name,
      createdByUserId: groups.createdByUserId,
    })
    .from(memberships)
    .innerJoin(groups, eq(groups.id, memberships.groupId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.groupId));
}

/** Every ledger row of the user, oldest first. */
export async function readLedgerOf(tx: Executor, userId: number) {
  return tx.select().from(ledger).where(eq(ledger.userId, userId)).orderBy(asc(ledger.id));
}

/**
 * Run in the transaction that deletes `userId`'s account, after their user row is marked
 * deleted: they leave every group they are in, as leaving does (the row, its points, its
 * ledger and open wagers stay, which settle to it later; the role drops to member), so the
 * deleted player is a current member nowhere and no group counts, shows or notifies them.
 * Even the creator, who cannot leave otherwise: their groups keep an admin through
 * `handOverAdminRoles`, run first. The groups are locked in id order before any membership of
 * them (db/README.md, "Lock order") and their updatedAt moves (their member lists are part of
 * them). Returns the ids of the groups left, ascending, for `membershipEnded` after the commit.
 */
export async function leaveEveryGroup(tx: Executor, userId: number, at: Date): Promise<number[]> {
  const current = await tx
    .select({ groupId: memberships.groupId })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), isNull(memberships.leftAt)))
    .orderBy(asc(memberships.groupId));
  if (current.length === 0) return [];
  const groupIds = current.map((row) => row.groupId);
  await tx
    .select({ id: groups.id })
    .from(groups)
    .where(inArray(groups.id, groupIds))
    .orderBy(asc(groups.id))
    .for('no key update');
  await handOverAdminRoles(tx, userId, at);
  await tx
    .update(memberships)
    .set({ leftAt: at, role: 'member', updatedAt: at })
    .where(
      and(
        eq(memberships.userId, userId),
        inArray(memberships.groupId, groupIds),
        isNull(memberships.leftAt),
      ),
    );
  await tx.update(groups).set({ updatedAt: at }).where(inArray(groups.id, groupIds));
  return groupIds;
}

/**
 * In each group where `userId` (who is leaving it, or whose account is being deleted) is a
 * current admin and no other current, live (not deleted) member is one, the longest-standing
 * current member (earliest join, then lowest id) becomes admin, so a group never loses its last
 * admin with its player, its creator included. `inGroups` limits it to those groups (a leave);
 * without it, every group of the player. Each group concerned is locked first, so two admins
 * leaving at once cannot both count on the other. Returns the promotions.
 */
export async function handOverAdminRoles(
  tx: Executor,
  userId: number,
  at: Date,
  inGroups?: number[],
): Promise<Array<{ groupId: number; userId: number }>> {
  const administered = await tx
    .select({ groupId: memberships.groupId })
    .from(memberships)
    .where(
      and(
        eq(memberships.userId, userId),
        eq(memberships.role, 'admin'),
        isNull(memberships.leftAt),
        inGroups ? inArray(memberships.groupId, inGroups) : undefined,
      ),
    )
    .orderBy(asc(memberships.groupId));
  if (administered.length === 0) return [];
  const groupIds = administered.map((row) => row.groupId);
  // In id order, so concurrent deletions lock in the same order and never deadlock.
  await tx
    .select({ id: groups.id })
    .from(groups)
    .where(inArray(groups.id, groupIds))
    .orderBy(asc(groups.id))
    .for('no key update');

  const otherAdmins = await tx
    .select({ groupId: memberships.groupId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        inArray(memberships.groupId, groupIds),
        ne(memberships.userId, userId),
        eq(memberships.role, 'admin'),
        isNull(memberships.leftAt),
        isNull(users.deletedAt),
      ),
    );
  const groupsWithAdmin = new Set(otherAdmins.map((row) => row.groupId));
  const orphaned = groupIds.filter((groupId) => !groupsWithAdmin.has(groupId));
  if (orphaned.length === 0) return [];

  const candidates = await tx
    .selectDistinctOn([memberships.groupId], {
      groupId: memberships.groupId,
      userId: memberships.userId,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        inArray(memberships.groupId, orphaned),
        ne(memberships.userId, userId),
        isNull(memberships.leftAt),
        isNull(users.deletedAt),
      ),
    )
    .orderBy(asc(memberships.groupId), asc(memberships.joinedAt), asc(memberships.userId));
  for (const candidate of candidates) {
    await tx
      .update(memberships)
      .set({ role: 'admin', updatedAt: at })
      .where(
        and(eq(memberships.groupId, candidate.groupId), eq(memberships.userId, candidate.userId)),
      );
  }
  // The group's admin list is part of the group row in the mirror: bump it so devices pull it.
  await tx.update(groups).set({ updatedAt: at }).where(inArray(groups.id, orphaned));
  return candidates;
}
