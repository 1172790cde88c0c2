import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../db/connect';
import { memberships, type MembershipRow } from '../db/schema';
import { removedFromGroup } from '../errors';
import { applyLedgerEvent } from './ledger-writer';
import { findMembership } from './membership-queries';

// Memberships: joining, leaving, roles and the lock order of members' rows. With
// ledger-writer.ts (their points), the only code that writes the memberships and ledger tables;
// other features call these functions inside their own transaction and never touch the tables
// directly. Reads are in membership-queries.ts.

export type JoinOutcome = 'joined' | 'rejoined' | 'already_member';

/**
 * Makes the user a current member. A first join inserts the membership and grants
 * `defaultPoints` in the ledger; a former member gets the old row back (points, open wagers),
 * never a second grant; a current member is left alone. Two concurrent joins cannot both
 * insert: ON CONFLICT DO NOTHING on the primary key lets exactly one of them grant, and the
 * rejoin is a conditional UPDATE, so only one request restores a left membership. A member an
 * admin removed is restored only by an admin's add-back (`liftRemoval`), which clears the
 * removal; a join of their own answers 403 removed_from_group, decided by this very UPDATE, so a
 * removal committed while the join waited is never undone.
 */
export async function joinMembership(
  tx: Executor,
  input: {
    groupId: number;
    userId: number;
    defaultPoints: number;
    role?: 'member' | 'admin';
    /** An admin's adding: brings back a member an admin removed, and lifts the removal. */
    liftRemoval?: boolean;
    now: Date;
  },
): Promise<{ membership: MembershipRow; outcome: JoinOutcome }> {
  const { groupId, userId, defaultPoints, now } = input;
  const [inserted] = await tx
    .insert(memberships)
    .values({
      groupId,
      userId,
      role: input.role ?? 'member',
      totalPoints: 0,
      availablePoints: 0,
      joinedAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning();
  if (inserted) {
    const membership = await applyLedgerEvent(tx, {
      groupId,
      userId,
      event: { kind: 'join_grant', points: defaultPoints },
      now,
    });
    return { membership, outcome: 'joined' };
  }
  const [restored] = await tx
    .update(memberships)
    .set({
      leftAt: null,
      removedAt: null,
      joinedAt: now,
      updatedAt: now,
      ...(input.role ? { role: input.role } : {}),
    })
    .where(
      and(
        eq(memberships.groupId, groupId),
        eq(memberships.userId, userId),
        sql`${memberships.leftAt} is not null`,
        input.liftRemoval ? undefined : isNull(memberships.removedAt),
      ),
    )
    .returning();
  if (restored) return { membership: restored, outcome: 'rejoined' };
  const current = await findMembership(tx, groupId, userId);
  if (current!.leftAt !== null) throw removedFromGroup();
  return { membership: current!, outcome: 'already_member' };
}

/**
 * Marks a current member as left: the row, its points and its open wagers stay, so joining
 * again restores them. The role drops to member, so leaving (or being removed) also ends
 * admin rights. `how` 'removed' (an admin's doing) also keeps them out until an admin adds
 * them back. Returns false when the user was not a current member.
 */
export async function markMembershipLeft(
  tx: Executor,
  groupId: number,
  userId: number,
  now: Date,
  how: 'left' | 'removed' = 'left',
): Promise<boolean> {
  const rows = await tx
    .update(memberships)
    .set({
      leftAt: now,
      role: 'member',
      updatedAt: now,
      ...(how === 'removed' ? { removedAt: now } : {}),
    })
    .where(
      and(
        eq(memberships.groupId, groupId),
        eq(memberships.userId, userId),
        isNull(memberships.leftAt),
      ),
    )
    .returning({ userId: memberships.userId });
  return rows.length > 0;
}

/** Sets a current member's role; returns false when the user is not a current member. */
export async function setMembershipRole(
  tx: Executor,
  groupId: number,
  userId: number,
  role: 'member' | 'admin',
  now: Date,
): Promise<boolean> {
  const rows = await tx
    .update(memberships)
    .set({ role, updatedAt: now })
    .where(
      and(
        eq(memberships.groupId, groupId),
        eq(memberships.userId, userId),
        isNull(memberships.leftAt),
      ),
    )
    .returning({ userId: memberships.userId });
  return rows.length > 0;
}

/**
 * Locks the given memberships (FOR NO KEY UPDATE, what the points UPDATE takes anyway) by group
 * id, then user id, ascending: the one order every transaction that changes several members'
 * points takes them in (db/README.md, "Lock order"). Without it, two settlements paying the same
 * players in different orders (one bet's wagers A then B, another's B then A) lock A and B
 * crosswise and PostgreSQL ends one as a deadlock. Call it before the first applyLedgerEvent of
 * a change; rows locked already are not waited for again.
 */
export async function lockMemberships(
  tx: Executor,
  members: ReadonlyArray<{ groupId: number; userId: number }>,
): Promise<void> {
  if (members.length === 0) return;
  const pairs = members.map((member) => sql`(${member.groupId}::int, ${member.userId}::int)`);
  await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(sql`(${memberships.groupId}, ${memberships.userId}) in (${sql.join(pairs, sql`, `)})`)
    .orderBy(memberships.groupId, memberships.userId)
    .for('no key update');
}

/**
 * Locks every membership of a group, current or former, in the same order, and answers them
 * (a season's end reads and resets them all; a join waiting on one of them is then a rejoin
 * after the reset).
 */
export async function lockGroupMemberships(
  tx: Executor,
  groupId: number,
): Promise<MembershipRow[]> {
  return tx
    .select()
    .from(memberships)
    .where(eq(memberships.groupId, groupId))
    .orderBy(memberships.userId)
    .for('no key update');
}
