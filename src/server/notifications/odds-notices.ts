import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { answerLabel } from '../../domain/bet-types';
import { totalOf } from '../../domain/odds';
import type { WagerSavedPayload } from '../events';
import { bets, groups, memberships, notificationSettings, wagers } from '../db/schema';
import type { NoticeContext, NoticeHandlers } from './notice-context';
import { claimOddsNotices } from './notification-store';
import { mutesGroupOrBet } from './notification-settings';

// A wager moved the odds: whoever else backed the bet hears how their own pick pays now. Each
// move updates their one unread entry of the bet (gathered while unread, so the inbox keeps one
// "odds moved" per bet, telling the latest pool); the push goes at most once per bet per 10
// minutes each (claimed in one statement, so every instance agrees).
//
// Every wager makes this work, so it is done in batches: the wagers saved while one batch is
// written (or heard in the same turn of the event loop) go together in the next, however many
// bets they are on, in the same four statements (the audience, the push claims, the entries, the
// actors' accounts). A quiet server writes each wager at once; a busy one, fewer larger batches.
// Several moves of one bet in a batch make one: its newest totals, told to every backer but its
// newest mover.

/** The bets' audiences: each bet with its group's name, and its other backers who did not mute it. */
async function readAudiences(db: NoticeContext['db'], moves: readonly WagerSavedPayload[]) {
  const betIds = moves.map((move) => move.betId);
  // The newest mover of each bet, matched to its row (one statement for every bet of the batch).
  const movers = sql.join(
    moves.map((move) => sql`(${move.betId}::integer, ${move.userId}::integer)`),
    sql`, `,
  );
  const mover = sql`(select m.mover from (values ${movers}) as m(bet_id, mover)
    where m.bet_id = ${bets.id})`;
  return db
    .select({
      bet: {
        id: bets.id,
        groupId: bets.groupId,
        title: bets.title,
        state: bets.state,
        betType: bets.betType,
        betTypeConfig: bets.betTypeConfig,
      },
      groupName: groups.name,
      userId: wagers.userId,
      prediction: wagers.prediction,
    })
    .from(bets)
    .innerJoin(groups, eq(groups.id, bets.groupId))
    .leftJoin(
      wagers,
      and(
        eq(wagers.betId, bets.id),
        sql`${wagers.userId} <> ${mover}`,
        sql`exists (select 1 from ${memberships} where ${memberships.groupId} = ${bets.groupId}
          and ${memberships.userId} = ${wagers.userId} and ${memberships.leftAt} is null)`,
        sql`not exists (select 1 from ${notificationSettings}
          where ${notificationSettings.userId} = ${wagers.userId}
            and ${mutesGroupOrBet(bets.groupId, bets.id)})`,
      ),
    )
    .where(inArray(bets.id, betIds))
    .orderBy(asc(bets.id), asc(wagers.createdAt), asc(wagers.id));
}

export function oddsNotices({ now, db, save }: NoticeContext): NoticeHandlers {
  /** The moves waiting for the next batch, newest per bet, and who waits for it. */
  let waiting = new Map<number, WagerSavedPayload>();
  let waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  let writing = false;

  async function write(moves: readonly WagerSavedPayload[]): Promise<void> {
    const rows = await readAudiences(db, moves);
    const moveOf = new Map(moves.map((move) => [move.betId, move]));
    const entries = [];
    const pairs: Array<{ userId: number; betId: number }> = [];
    for (const { bet, groupName, userId, prediction } of rows) {
      // A wager racing the resolution: the result says all there is to say.
      if (userId === null || prediction === null || bet.state !== 'active') continue;
      const move = moveOf.get(bet.id)!;
      const onPick = totalOf(move.answerTotals, prediction);
      pairs.push({ userId, betId: bet.id });
      entries.push({
        userId,
        groupId: bet.groupId,
        betId: bet.id,
        actorId: move.userId,
        payload: {
          groupName,
          betTitle: bet.title,
          answer: answerLabel(bet, prediction),
          ...(onPick > 0 ? { multiplier: move.pool / onPick } : {}),
          pool: move.pool,
        },
      });
    }
    if (entries.length === 0) return;
    // Every move updates the one unread entry; only the claimed ones are pushed.
    const claimed = new Set(
      (await claimOddsNotices(db, pairs, now())).map(({ userId, betId }) => `${userId}:${betId}`),
    );
    await save('oddsChanged', entries, (row) => !claimed.has(`${row.userId}:${row.betId}`));
  }

  async function drain(): Promise<void> {
    while (waiting.size > 0) {
      const moves = [...waiting.values()];
      const told = waiters;
      waiting = new Map();
      waiters = [];
      try {
        await write(moves);
        for (const waiter of told) waiter.resolve();
      } catch (error) {
        for (const waiter of told) waiter.reject(error);
      }
    }
    writing = false;
  }

  return {
    wagerSaved(move) {
      const held = waiting.get(move.betId);
      if (!held || move.version > held.version) waiting.set(move.betId, move);
      const written = new Promise<void>((resolve, reject) => waiters.push({ resolve, reject }));
      // On the next turn: the moves heard in this one go in the same batch.
      if (!writing) {
        writing = true;
        setImmediate(() => void drain());
      }
      return written;
    },
  };
}
