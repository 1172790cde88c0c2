import { and, desc, eq, sql } from 'drizzle-orm';
import { normalizeAnswer, validatePrediction } from '../../domain/bet-types';
import { isValidWagerPoints, type Wager } from '../../domain/bets';
import { totalsByAnswer } from '../../domain/odds';
import type { AuthUser } from '../auth/tokens';
import type { Database, Executor } from '../db/connect';
import { prepared, slot } from '../db/prepared';
import { bets, wagers, type BetRow, type WagerRow } from '../db/schema';
import {
  invalidPrediction,
  invalidWagerPoints,
  notWagerOwner,
  wagerExists,
  wagerNotFound,
} from '../errors';
import type { EventBus } from '../events';
import { applyLedgerEvent } from '../groups/membership.service';
import { requireBetAction } from './bet-access';
import { presentWager } from './bet.presenter';
import { findBet, loadWagers } from './bet-queries';

// Wagers (docs/groups-and-bets.md §4, docs/architecture.md §4): one per user per bet, by members only, while betting
// is open (active, before its expiresAt, its picks never shown); placing debits available
// points by the wager, changing it debits or credits the difference. The debit is
// applyLedgerEvent's conditional UPDATE, so no mix of concurrent requests can take available
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
  betWagers: WagerRow[];
  /** The bet's version after the wager stamped it (its totals changed). */
  betVersion: number;
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
const insertWager = prepared<WagerRow[], Omit<typeof wagers.$inferInsert, 'id'>>(
  'insertWager',
  (tx) =>
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
      .returning(),
);
// A wager changes its bet's totals, so it gives the bet a new version (the stamp trigger of
// migration 0005 overwrites the 0); the bet is already locked FOR NO KEY UPDATE.
const stampBet = prepared<Array<{ version: number }>, { id: number }>('stampBet', (tx) =>
  tx
    .update(bets)
    .set({ version: 0 })
    .where(eq(bets.id, sql.placeholder('id')))
    .returning({ version: bets.version }),
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
    bet: BetRow,
    prediction: string,
    points: number,
    at: Date,
  ): Promise<string> {
    await requireBetAction(tx, { userId: caller.id, bet, action: 'wager', now: at });
    const problem = validatePrediction(bet, prediction);
    if (problem) throw invalidPrediction(problem);
    if (!isValidWagerPoints(bet.baseWagerAmount, points))
      throw invalidWagerPoints(bet.baseWagerAmount);
    return normalizeAnswer(bet, prediction);
  }

  /** After the commit: push and the totals announcer hear of it (the group learns only the new totals, wager-totals.announcer.ts). */
  function announce({ bet, wager, previousPoints, betWagers, betVersion }: WagerChange): void {
    const answerTotals = totalsByAnswer(bet, betWagers);
    const pool = betWagers.reduce((sum, entry) => sum + entry.points, 0);
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
        wagerCount: betWagers.length,
        version: betVersion,
      },
      { groupId: bet.groupId },
    );
  }

  /** The bet's wagers after the change, and its new version. */
  async function finishChange(
    tx: Executor,
    bet: BetRow,
  ): Promise<Pick<WagerChange, 'betWagers' | 'betVersion'>> {
    const [stamped] = await stampBet(tx, { id: bet.id });
    return {
      betWagers: (await loadWagers(tx, [bet.id])).get(bet.id) ?? [],
      betVersion: stamped!.version,
    };
  }

  return {
    /** POST /bets/wagers: a second wager on the same bet is 409 wager_exists (update it instead). */
    async placeWager(
      caller: AuthUser,
      input: { betId: number; prediction: string; points: number },
    ): Promise<Wager> {
      const at = now();
      const change = await db.transaction(async (tx): Promise<WagerChange> => {
        const bet = await findBet(tx, input.betId, 'wager');
        const prediction = await checkWager(tx, caller, bet, input.prediction, input.points, at);
        const [existing] = await wagerOfUser(tx, { betId: bet.id, userId: caller.id });
        if (existing) throw wagerExists(existing.id);
        // A concurrent first wager by the same user ends at the unique index (409 wager_exists too).
        const [wager] = await insertWager(tx, {
          betId: bet.id,
          userId: caller.id,
          prediction,
          points: input.points,
          createdAt: at,
          updatedAt: at,
        });
        await applyLedgerEvent(tx, {
          groupId: bet.groupId,
          userId: caller.id,
          event: { kind: 'wager_placed', points: wager!.points },
          betId: bet.id,
          wagerId: wager!.id,
          now: at,
        });
        return { bet, wager: wager!, previousPoints: 0, ...(await finishChange(tx, bet)) };
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
        const bet = await findBet(tx, found.betId, 'wager');
        const [current] = await lockWager(tx, { id: wagerId });
        if (!current) throw wagerNotFound();
        const prediction = await checkWager(tx, caller, bet, input.prediction, input.points, at);
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
        return {
          bet,
          wager: wager!,
          previousPoints: current.points,
          ...(await finishChange(tx, bet)),
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
