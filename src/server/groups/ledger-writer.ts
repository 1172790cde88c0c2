import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { ledgerDelta, type LedgerEvent } from '../../domain/ledger';
import type { Executor } from '../db/connect';
import { prepared, slot, type PreparedStatement } from '../db/prepared';
import { ledger, memberships, type MembershipRow } from '../db/schema';
import { insufficientPoints, notMember, settlementSpent } from '../errors';
import { findMembership } from './membership-queries';

// The ledger writer: the only code that changes a membership's points. Other features (bets,
// seasons, the floor top-up) call it inside their own transaction and never touch the points
// or the ledger table directly. Every change of points writes one ledger row in the same
// transaction, so a membership's points always equal the sums of its ledger rows
// (docs/architecture.md §4).

// The statements every wager sends (prepared once, see db/prepared.ts).
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
