import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { normalizeAnswer, validatePrediction } from '../../domain/bet-types';
import { BET_MESSAGES } from '../../domain/bet-limits';
import { wagerPointsRefusal, type Wager } from '../../domain/bets';
import { totalsByAnswer } from '../../domain/odds';
import type { AuthUser } from '../auth/tokens';
import type { Database, Executor } from '../db/connect';
import { prepared, slot } from '../db/prepared';
import { bets, wagers, type BetRow, type MembershipRow, type WagerRow } from '../db/schema';
import {
  invalidPrediction,
  invalidWagerPoints,
  notWagerOwner,
  validationFailed,
  wagerExists,
  wagerNotFound,
} from '../errors';
import type { EventBus } from '../events';
import { applyLedgerEvent, placedWagerDebit, placedWagerDebitCtes } from '../groups/ledger-writer';
import { requireBetAction } from './bet-access';
import { presentWager } from './bet.presenter';
import { findBetForWager } from './bet-queries';

// Wagers (docs/groups-and-bets.md §4, docs/architecture.md §4): one per user per bet, by members only, while betting
// is open (active, before its expiresAt, its picks never shown); placing debits available
// points by the wager, changing it debits or credits the difference. The debit is
// the ledger writer's conditional UPDATE, so no mix of concurrent requests can take available
// points below zero.

export interface WagersServiceDeps {
  db: Database;
  events: EventBus;
  now?: () => Date;
}

export type WagersService = ReturnType<typeof createWagersService>;

interface WagerChange {
  bet: BetRow;
  wager: WagerRow;
  previousPoints: number;
  /** The bet's points per prediction and wagers per prediction, after the change. */
  betTotals: PredictionTotal[];
  /** The bet's version after the wager stamped it (its totals changed). */
  betVersion: number;
}

interface PredictionTotal {
  prediction: string;
  points: number;
  count: number;
}

// Every statement of a wager is hot (prepared once, see db/prepared.ts).
const wagerOfUser = prepared<Array<{ id: number }>, { betId: number; userId: number }>(
  'wagerOfUser',
  (tx) =>
    tx
      .select({ id: wagers.id })
      .from(wagers)
      .where(
        and(
          eq(wagers.betId, sql.placeholder('betId')),
          eq(wagers.userId, sql.placeholder('userId')),
        ),
      )
      .limit(1),
);
/** The totals by prediction (points and count) of `rows`, a set of wagers' (prediction, points). */
const totalsOf = (rows: SQL) =>
  sql<
    PredictionTotal[] | null
  >`(select json_agg(json_build_object('prediction', t.prediction, 'points', t.points, 'count', t.count))
    from (select w.prediction, sum(w.points)::int as points, count(*)::int as count
      from (${rows}) w group by w.prediction) t)`;

// A wager changes its bet's totals, so it gives the bet a new version (the stamp trigger of
// migration 0005 overwrites the 0); the bet is already locked FOR NO KEY UPDATE. The stamp
// answers the new totals, summed by the database rather than read wager by wager.
//
// Placing is one statement after the lock: the insert, the debit with its ledger row
// (the ledger writer's, on its rules) and the stamp. The insert is `ON CONFLICT DO NOTHING` (a
// second wager of the user on the bet, one committed meanwhile too, inserts nothing, and then
// nothing is debited or stamped); the debit applies only if the wager was inserted, and the stamp
// only if it was debited. Its totals add the new wager to those of the bet's wagers, which the
// statement's snapshot does not show it among.
type PlaceValues = Omit<typeof wagers.$inferInsert, 'id'> &
  ReturnType<typeof placedWagerDebit>['values'];
type Stamped = { version: number; totals: PredictionTotal[] | null } | null;

/** The CTE inserting the wager of the statement's slots (nothing on a second wager of the user). */
const placedCte = (tx: Executor) =>
  tx.$with('placed').as(
    tx
      .insert(wagers)
      .values({
        betId: slot<number>('betId'),
        userId: slot<number>('userId'),
        prediction: slot<string>('prediction'),
        points: slot<number>('points'),
        createdAt: slot<Date>('createdAt'),
        updatedAt: slot<Date>('updatedAt'),
      })
      .onConflictDoNothing({ target: [wagers.betId, wagers.userId] })
      .returning(),
  );

/** The CTE stamping the bet when `after` has a row, its totals with the placed wager added. */
const stampedCte = (tx: Executor, placed: ReturnType<typeof placedCte>, after: SQL) =>
  tx.$with('stamped').as(
    tx
      .update(bets)
      .set({ version: 0 })
      .where(and(eq(bets.id, sql.placeholder('betId')), sql`exists (select 1 from ${after})`))
      .returning({
        version: bets.version,
        totals: totalsOf(
          sql`select prediction, points from ${wagers} where ${wagers.betId} = ${bets.id}
            union all select prediction, points from ${placed}`,
        ).as('totals'),
      }),
  );

const placeDebitAndStamp = prepared<
  Array<{ placed: WagerRow; moved: MembershipRow | null; stamped: Stamped }>,
  PlaceValues
>('placeWagerDebitingAndStamping', (tx) => {
  const placed = placedCte(tx);
  const { moved, ledgerRow } = placedWagerDebitCtes(tx, sql`${placed}`);
  const stamped = stampedCte(tx, placed, sql`${moved}`);
  return tx
    .with(placed, moved, ledgerRow, stamped)
    .select()
    .from(placed)
    .leftJoin(moved, sql`true`)
    .leftJoin(stamped, sql`true`);
});
// A score tip stakes nothing (docs/rules.md "Tipping rounds"): its insert moves no points and
// writes no ledger row; the stamp is the same as a placed wager's.
const placeTipAndStamp = prepared<
  Array<{ placed: WagerRow; stamped: Stamped }>,
  Omit<typeof wagers.$inferInsert, 'id'>
>('placeTipStamping', (tx) => {
  const placed = placedCte(tx);
  const stamped = stampedCte(tx, placed, sql`${placed}`);
  return tx
    .with(placed, stamped)
    .select()
    .from(placed)
    .leftJoin(stamped, sql`true`);
});
// Changing: the stamp follows the change, so its totals read the changed wager.
const stampBet = prepared<
  Array<{ version: number; totals: PredictionTotal[] | null }>,
  { id: number }
>('stampBet', (tx) =>
  tx
    .update(bets)
    .set({ version: 0 })
    .where(eq(bets.id, sql.placeholder('id')))
    .returning({
      version: bets.version,
      totals: totalsOf(
        sql`select prediction, points from ${wagers} where ${wagers.betId} = ${bets.id}`,
      ),
    }),
);
const wagerById = (tx: Executor) =>
  tx
    .select()
    .from(wagers)
    .where(eq(wagers.id, sql.placeholder('id')))
    .limit(1);
const findWager = prepared<WagerRow[], { id: number }>('findWager', (tx) => wagerById(tx));
const lockWager = prepared<WagerRow[], { id: number }>('lockWager', (tx) =>
  wagerById(tx).for('update'),
);
const changeWager = prepared<
  WagerRow[],
  { id: number; prediction: string; points: number; updatedAt: Date }
>('changeWager', (tx) =>
  tx
    .update(wagers)
    .set({
      prediction: slot<string>('prediction'),
      points: slot<number>('points'),
      updatedAt: slot<Date>('updatedAt'),
    })
    .where(eq(wagers.id, sql.placeholder('id')))
    .returning(),
);

export function createWagersService({ db, events, now = () => new Date() }: WagersServiceDeps) {
  /** The window and input rules shared by placing and changing a wager; the caller holds the bet's lock. */
  async function checkWager(
    tx: Executor,
    caller: AuthUser,
    { bet, membership }: { bet: BetRow; membership: MembershipRow | null },
    prediction: string,
    points: number,
    at: Date,
  ): Promise<string> {
    await requireBetAction(tx, { userId: caller.id, bet, membership, action: 'wager', now: at });
    const problem = validatePrediction(bet, prediction);
    if (problem) throw invalidPrediction(problem);
    switch (wagerPointsRefusal(bet, points)) {
      case 'points_min':
        throw validationFailed(BET_MESSAGES.pointsMin, { points: BET_MESSAGES.pointsMin });
      case 'tip_stakes_nothing':
        throw validationFailed(BET_MESSAGES.tipStakesNothing, {
          points: BET_MESSAGES.tipStakesNothing,
        });
      case 'tier':
        throw invalidWagerPoints(bet.baseWagerAmount);
      case null:
        break;
    }
    return normalizeAnswer(bet, prediction);
  }

  /** After the commit: push and the totals announcer hear of it (the group learns only the new totals, wager-totals.announcer.ts). */
  function announce({ bet, wager, previousPoints, betTotals, betVersion }: WagerChange): void {
    const answerTotals = totalsByAnswer(bet, betTotals);
    const pool = betTotals.reduce((sum, entry) => sum + entry.points, 0);
    events.publish(
      'wagerSaved',
      {
        groupId: bet.groupId,
        userId: wager.userId,
        betId: bet.id,
        points: wager.points,
        previousPoints,
        answerTotals,
        pool,
        wagerCount: betTotals.reduce((sum, entry) => sum + entry.count, 0),
        version: betVersion,
      },
      { groupId: bet.groupId },
    );
  }

  return {
    /** POST /bets/wagers: a second wager on the same bet is 409 wager_exists (update it instead). */
    async placeWager(
      caller: AuthUser,
      input: { betId: number; prediction: string; points: number },
    ): Promise<Wager> {
      const at = now();
      const change = await db.transaction(async (tx): Promise<WagerChange> => {
        const locked = await findBetForWager(tx, input.betId, caller.id);
        const { bet } = locked;
        const prediction = await checkWager(tx, caller, locked, input.prediction, input.points, at);
        const values = {
          betId: bet.id,
          userId: caller.id,
          prediction,
          points: input.points,
          createdAt: at,
          updatedAt: at,
        };
        if (input.points === 0) {
          const [tip] = await placeTipAndStamp(tx, values);
          if (!tip) {
            const [existing] = await wagerOfUser(tx, { betId: bet.id, userId: caller.id });
            throw wagerExists(existing!.id);
          }
          return {
            bet,
            wager: tip.placed,
            previousPoints: 0,
            betTotals: tip.stamped?.totals ?? [],
            betVersion: tip.stamped!.version,
          };
        }
        const debit = placedWagerDebit({
          groupId: bet.groupId,
          userId: caller.id,
          betId: bet.id,
          points: input.points,
          now: at,
        });
        const [row] = await placeDebitAndStamp(tx, { ...debit.values, ...values });
        if (!row) {
          const [existing] = await wagerOfUser(tx, { betId: bet.id, userId: caller.id });
          throw wagerExists(existing!.id);
        }
        // Inserted but not debited: the refusal's error rolls the insert back.
        if (!row.moved || !row.stamped) throw await debit.refusal(tx);
        const { placed: wager, stamped } = row;
        return {
          bet,
          wager,
          previousPoints: 0,
          betTotals: stamped.totals ?? [],
          betVersion: stamped.version,
        };
      });
      announce(change);
      return presentWager(change.wager);
    },

    /** PUT /bets/wagers/{wagerId}: the owner changes prediction and points under the same rules; the difference is debited or credited. */
    async updateWager(
      caller: AuthUser,
      wagerId: number,
      input: { prediction: string; points: number },
    ): Promise<Wager> {
      const at = now();
      const change = await db.transaction(async (tx): Promise<WagerChange> => {
        const [found] = await findWager(tx, { id: wagerId });
        if (!found) throw wagerNotFound();
        if (found.userId !== caller.id) throw notWagerOwner();
        // Lock order everywhere: the bet, then the wager, then the membership (no deadlocks).
        const locked = await findBetForWager(tx, found.betId, caller.id);
        const { bet } = locked;
        const [current] = await lockWager(tx, { id: wagerId });
        if (!current) throw wagerNotFound();
        const prediction = await checkWager(tx, caller, locked, input.prediction, input.points, at);
        if (current.points !== input.points) {
          await applyLedgerEvent(tx, {
            groupId: bet.groupId,
            userId: caller.id,
            event: { kind: 'wager_changed', previousPoints: current.points, points: input.points },
            betId: bet.id,
            wagerId: current.id,
            now: at,
          });
        }
        const [wager] = await changeWager(tx, {
          id: current.id,
          prediction,
          points: input.points,
          updatedAt: at,
        });
        const [stamped] = await stampBet(tx, { id: bet.id });
        return {
          bet,
          wager: wager!,
          previousPoints: current.points,
          betTotals: stamped!.totals ?? [],
          betVersion: stamped!.version,
        };
      });
      announce(change);
      return presentWager(change.wager);
    },

    /** GET /bets/user/wagers?group=: the caller's own wagers, newest first, optionally in one group. */
    async listUserWagers(caller: AuthUser, groupId?: number): Promise<Wager[]> {
      const rows = await db
        .select({ wager: wagers })
        .from(wagers)
        .innerJoin(bets, eq(bets.id, wagers.betId))
        .where(
          and(
            eq(wagers.userId, caller.id),
            groupId === undefined ? undefined : eq(bets.groupId, groupId),
          ),
        )
        .orderBy(desc(wagers.createdAt), desc(wagers.id));
      return rows.map((row) => presentWager(row.wager));
    },
  };
}
