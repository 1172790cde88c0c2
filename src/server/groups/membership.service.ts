import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { ledgerDelta, type LedgerEvent } from '../../domain/ledger';
import type { Executor } from '../db/connect';
import { prepared, slot, type PreparedStatement } from '../db/prepared';
import { groups, ledger, memberships, users, type MembershipRow } from '../db/schema';
import { insufficientPoints, notMember, removedFromGroup, settlementSpent } from '../errors';

// Memberships and their points: the only code that writes the memberships and ledger tables.
// Other features (bets) call these functions inside their own transaction and never touch
// the tables directly. Every change of points writes one ledger row in the same transaction,
// so a membership's points always equal the sums of its ledger rows (docs/architecture.md §4).

export type JoinOutcome = 'joined' | 'rejoined' | 'already_member';

// The statements every wager sends (prepared once, see db/prepared.ts).
const membershipByKey = prepared<MembershipRow[], { groupId: number; userId: number }>(
  'findMembership',
  (tx) =>
    tx
      .select()
      .from(memberships)
      .where(
        and(
          eq(memberships.groupId, sql.placeholder('groupId')),
          eq(memberships.userId, sql.placeholder('userId')),
        ),
      )
      .limit(1),
);

interface PointsMove {
  groupId: number;
  userId: number;
  totalDelta: number;
  availableDelta: number;
  now: Date;
}
/** The ledger row's own fields (its points and pair are the move's). */
interface LedgerFields {
  kind: LedgerEvent['kind'];
  betId: number | null;
  wagerId: number | null;
  /** ISO text: the raw insert below sends it as it is. */
  ledgerAt: string;
}
/** A move's values, the placeholders of its statement. */
type MoveValues = PointsMove & LedgerFields & { debit: number };
const pointsChange = (tx: Executor) =>
  tx.update(memberships).set({
    totalPoints: sql`${memberships.totalPoints} + ${sql.placeholder('totalDelta')}`,
    availablePoints: sql`${memberships.availablePoints} + ${sql.placeholder('availableDelta')}`,
    updatedAt: slot<Date>('now'),
  });
const samePair = and(
  eq(memberships.groupId, sql.placeholder('groupId')),
  eq(memberships.userId, sql.placeholder('userId')),
);
/** What each kind of move updates: the pair, on the condition its kind keeps. */
const moveConditions = {
  /** A credit (or a reversal allowed to overdraw): the row is moved whatever its state. */
  credit: samePair,
  /** A debit: only a current member who has `debit` available points (the no-overdraft rule). */
  debit: and(
    samePair,
    isNull(memberships.leftAt),
    sql`${memberships.availablePoints} >= ${sql.placeholder('debit')}`,
  ),
  /** Undoing a settlement takes the points back from whoever got them, also a member who has left since. */
  reverse: and(samePair, sql`${memberships.availablePoints} >= ${sql.placeholder('debit')}`),
};
type MoveKind = keyof typeof moveConditions;
const LEDGER_ROW_COLUMNS = sql.join(
  [
    ledger.groupId,
    ledger.userId,
    ledger.kind,
    ledger.totalDelta,
    ledger.availableDelta,
    ledger.betId,
    ledger.wagerId,
    ledger.createdAt,
  ].map((column) => sql.identifier(column.name)),
  sql`, `,
);
/**
 * A move and its ledger row as two CTEs: `moved`, the conditional update, and `ledger_row`,
 * inserted from the row it returned, so the row exists exactly when the update happened.
 * `withWager` puts them into the statement that inserts the wager the entry is about (a placed
 * wager): its `when` gates the move on that insert, its `wagerId` is the new row's id.
 */
function moveWithLedgerRow(tx: Executor, kind: MoveKind, withWager?: { when: SQL; wagerId: SQL }) {
  const moved = tx.$with('moved').as(
    pointsChange(tx)
      .where(withWager ? and(moveConditions[kind], withWager.when) : moveConditions[kind])
      .returning(),
  );
  const ledgerRow = tx.$with('ledger_row', { one: sql<number>`1` }).as(
    sql`insert into ${ledger} (${LEDGER_ROW_COLUMNS})
      select group_id, user_id, ${sql.placeholder('kind')}::text,
        ${sql.placeholder('totalDelta')}::integer, ${sql.placeholder('availableDelta')}::integer,
        ${sql.placeholder('betId')}::integer,
        ${withWager?.wagerId ?? sql`${sql.placeholder('wagerId')}::integer`},
        ${sql.placeholder('ledgerAt')}::timestamptz
      from moved returning 1`,
  );
  return { moved, ledgerRow };
}
/**
 * A move and its ledger row in one statement (every change of points is hot: a resolution's
 * payouts, a changed wager's difference). Answers the membership after it.
 */
const movesWithLedgerRow = Object.fromEntries(
  (Object.keys(moveConditions) as MoveKind[]).map((kind) => [
    kind,
    prepared<MembershipRow[], MoveValues>(`${kind}PointsWithLedgerRow`, (tx) => {
      const { moved, ledgerRow } = moveWithLedgerRow(tx, kind);
      return tx.with(moved, ledgerRow).select().from(moved);
    }),
  ]),
) as Record<MoveKind, PreparedStatement<MembershipRow[], MoveValues>>;

/** The membership row, whether active or left; undefined when the user never joined. */
export async function findMembership(
  tx: Executor,
  groupId: number,
  userId: number,
): Promise<MembershipRow | undefined> {
  const [row] = await membershipByKey(tx, { groupId, userId });
  return row;
}

/** The membership of a user who is in the group now (not left). */
export async function findActiveMembership(
  tx: Executor,
  groupId: number,
  userId: number,
): Promise<MembershipRow | undefined> {
  const row = await findMembership(tx, groupId, userId);
  return row && row.leftAt === null ? row : undefined;
}

/** A group's name, for texts other features write about it (push notifications); undefined when it does not exist. */
export async function findGroupName(tx: Executor, groupId: number): Promise<string | undefined> {
  const [row] = await tx
    .select({ name: groups.name })
    .from(groups)
    .where(eq(groups.id, groupId))
    .limit(1);
  return row?.name;
}

/** A current membership with the member's display name (the bet user context shows it). */
export async function findActiveMembershipWithName(
  tx: Executor,
  groupId: number,
  userId: number,
): Promise<{ membership: MembershipRow; userName: string } | undefined> {
  const [row] = await tx
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
  return row;
}

/** The user ids of a group's current members, ascending (push audiences, statistics' totalMembers). */
export async function listActiveMemberIds(tx: Executor, groupId: number): Promise<number[]> {
  const rows = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.groupId, groupId), isNull(memberships.leftAt)))
    .orderBy(memberships.userId);
  return rows.map((row) => row.userId);
}

/** The user ids of a group's current admins, ascending (who reviews a dispute). */
export async function listActiveAdminIds(tx: Executor, groupId: number): Promise<number[]> {
  const rows = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(
      and(
        eq(memberships.groupId, groupId),
        eq(memberships.role, 'admin'),
        isNull(memberships.leftAt),
      ),
    )
    .orderBy(memberships.userId);
  return rows.map((row) => row.userId);
}

/** The ids of the groups a user is in now, ascending (socket rooms, the member state). */
export async function listActiveGroupIds(tx: Executor, userId: number): Promise<number[]> {
  const rows = await tx
    .select({ groupId: memberships.groupId })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), isNull(memberships.leftAt)))
    .orderBy(memberships.groupId);
  return rows.map((row) => row.groupId);
}

/**
 * Of `userIds`, those who share at least one group with `callerId`, both being current
 * members: the people an admin may add to a group by id (a friend, not any account).
 */
export async function usersSharingAGroupWith(
  tx: Executor,
  callerId: number,
  userIds: readonly number[],
): Promise<Set<number>> {
  const others = userIds.filter((id) => id !== callerId);
  if (others.length === 0) return new Set();
  const mine = alias(memberships, 'mine');
  const rows = await tx
    .selectDistinct({ userId: memberships.userId })
    .from(memberships)
    .innerJoin(
      mine,
      and(eq(mine.groupId, memberships.groupId), eq(mine.userId, callerId), isNull(mine.leftAt)),
    )
    .where(and(inArray(memberships.userId, others), isNull(memberships.leftAt)));
  return new Set(rows.map((row) => row.userId));
}

/**
 * Of `userIds`, the caller and those who are or were members of a group the caller is in
 * now: whose bubbles the caller may read (a former member's bets and wagers still show).
 */
export async function usersKnownTo(
  tx: Executor,
  callerId: number,
  userIds: readonly number[],
): Promise<Set<number>> {
  const known = new Set<number>(userIds.includes(callerId) ? [callerId] : []);
  const others = userIds.filter((id) => id !== callerId);
  if (others.length === 0) return known;
  const mine = alias(memberships, 'mine');
  const rows = await tx
    .selectDistinct({ userId: memberships.userId })
    .from(memberships)
    .innerJoin(
      mine,
      and(eq(mine.groupId, memberships.groupId), eq(mine.userId, callerId), isNull(mine.leftAt)),
    )
    .where(inArray(memberships.userId, others));
  for (const row of rows) known.add(row.userId);
  return known;
}

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

export interface LedgerEntryInput {
  groupId: number;
  userId: number;
  /** What happened; its deltas come from src/domain/ledger.ts, the one place they are computed. */
  event: LedgerEvent;
  betId?: number | null;
  wagerId?: number | null;
  now?: Date;
  /**
   * For a reversal: take the points back even when they were wagered again meanwhile, leaving
   * available points below zero (a re-resolution, which must always go through). Without it a
   * reversal that cannot be exact moves nothing (422 settlement_spent).
   */
  mayOverdraw?: boolean;
}

/**
 * Applies one change of points to a membership and writes its ledger row, inside the
 * caller's transaction (a placed wager's debit is part of the wager's insert instead:
 * `placedWagerDebitCtes`). The change is a single conditional UPDATE: a debit of available
 * points (placing or raising a wager) applies only while `available_points` covers it and
 * only to a current member, so concurrent wagers can never overspend; otherwise it throws
 * 422 insufficient_points (or 403 not_member) and the caller's transaction rolls back.
 * Credits (payouts, refunds, lowering a wager) and a season's reset also reach members who
 * have left, whose open wagers still settle. A reversal (undo) applies only while available
 * points cover it (422 settlement_spent), unless `mayOverdraw` (a re-resolution) lets them go
 * below zero. Several members' changes in one transaction lock their rows first
 * (`lockMemberships`). Returns the membership after the change.
 *
 *   changing a wager:  applyLedgerEvent(tx, { groupId, userId, event: { kind: 'wager_changed', previousPoints, points }, betId, wagerId })
 *   settling a bet:    { kind: 'payout', winnings, wagerAmount } or { kind: 'refund', wagerAmount }
 */
export async function applyLedgerEvent(
  tx: Executor,
  input: LedgerEntryInput,
): Promise<MembershipRow> {
  const { kind, values } = ledgerMove(input);
  const [updated] = await movesWithLedgerRow[kind](tx, values);
  if (!updated) throw await moveRefusal(tx, input);
  return updated;
}

// A season's reset sets available points to the starting points, so it never overdraws, and
// it reaches former members too (seasons/season-data.ts endSeason): it moves like a credit.
const isDebit = (event: LedgerEvent, availableDelta: number) =>
  availableDelta < 0 && event.kind !== 'season_reset';
const isReversal = (event: LedgerEvent) =>
  event.kind === 'payout_reversed' || event.kind === 'refund_reversed';

/** The kind of a move and its statement's values. */
function ledgerMove(input: LedgerEntryInput): { kind: MoveKind; values: MoveValues } {
  const { event } = input;
  const now = input.now ?? new Date();
  const { totalDelta, availableDelta } = ledgerDelta(event);
  const values: MoveValues = {
    groupId: input.groupId,
    userId: input.userId,
    totalDelta,
    availableDelta,
    now,
    debit: -availableDelta,
    kind: event.kind,
    betId: input.betId ?? null,
    wagerId: input.wagerId ?? null,
    ledgerAt: now.toISOString(),
  };
  const kind: MoveKind = isReversal(event)
    ? input.mayOverdraw
      ? 'credit'
      : 'reverse'
    : isDebit(event, availableDelta)
      ? 'debit'
      : 'credit';
  return { kind, values };
}

/** Why a move's conditional update changed nothing: the error its caller throws (and rolls back on). */
async function moveRefusal(tx: Executor, input: LedgerEntryInput): Promise<Error> {
  const { event } = input;
  // Its winnings were wagered again meanwhile: the reversal cannot be exact, so nothing moves.
  if (isReversal(event)) return settlementSpent();
  const { availableDelta } = ledgerDelta(event);
  const current = await findMembership(tx, input.groupId, input.userId);
  if (!current || (isDebit(event, availableDelta) && current.leftAt !== null)) return notMember();
  return insufficientPoints(-availableDelta, current.availablePoints);
}

/**
 * A placed wager's debit and its ledger row, as the CTEs `moved` and `ledger_row` of the
 * statement that inserts the wager (bets/wagers.service.ts: one statement fewer on the hottest
 * write). `placed` is that insert's CTE, returning the wager's `id`; the debit applies only if
 * it inserted, on applyLedgerEvent's rules for a debit. The statement's values include
 * `placedWagerDebit(…).values`; if the wager was inserted and nothing moved, the caller throws
 * `await placedWagerDebit(…).refusal(tx)`, so its transaction rolls the wager back.
 */
export function placedWagerDebitCtes(tx: Executor, placed: SQL) {
  return moveWithLedgerRow(tx, 'debit', {
    when: sql`exists (select 1 from ${placed})`,
    wagerId: sql`(select id from ${placed})`,
  });
}

/** The values and the refusal of a placed wager's debit (`placedWagerDebitCtes`). */
export function placedWagerDebit(input: {
  groupId: number;
  userId: number;
  betId: number;
  points: number;
  now: Date;
}) {
  const entry: LedgerEntryInput = {
    groupId: input.groupId,
    userId: input.userId,
    event: { kind: 'wager_placed', points: input.points },
    betId: input.betId,
    now: input.now,
  };
  return {
    values: ledgerMove(entry).values,
    refusal: (tx: Executor) => moveRefusal(tx, entry),
  };
}
