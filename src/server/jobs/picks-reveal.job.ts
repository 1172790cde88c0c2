import { and, asc, eq, inArray, isNull, lte } from 'drizzle-orm';
import { loadPicks } from '../bets/bet-queries';
import type { Database } from '../db/connect';
import { bets, type BetRow } from '../db/schema';
import type { EventBus } from '../events';
import { queueBetClosed } from '../webhooks/webhook-events';
import { startIntervalJob, type IntervalJob, type IntervalJobOptions } from './interval-job';

// Once a bet's expiry passes, every member sees who picked what. Reads answer it
// by the clock; this job makes the mirror and the sockets hear it too: it stamps each bet whose
// expiry passed (`picks_revealed_at`; the trigger bumps its version, so the next delta pull
// carries the bet with its picks, also to a device that pulled before the close) and publishes
// picksRevealed to the group. Modelled on bet-expiry.job.ts: each batch picks its bets FOR NO KEY
// UPDATE SKIP LOCKED, so with several instances a bet is stamped and announced once.

const PICKS_REVEAL_BATCH_SIZE = 100;

export interface PicksRevealDeps {
  db: Database;
  events: EventBus;
}

/** Stamps every active bet whose betting closed by `now` and announces its picks; returns their ids. */
export async function runPicksReveal(
  deps: PicksRevealDeps,
  now: Date = new Date(),
  batchSize = PICKS_REVEAL_BATCH_SIZE,
): Promise<number[]> {
  const revealed: number[] = [];
  for (;;) {
    const batch = await deps.db.transaction(async (tx) => {
      const due = await tx
        .select({ id: bets.id })
        .from(bets)
        .where(
          and(eq(bets.state, 'active'), lte(bets.expiresAt, now), isNull(bets.picksRevealedAt)),
        )
        .orderBy(asc(bets.expiresAt), asc(bets.id))
        .limit(batchSize)
        .for('no key update', { skipLocked: true });
      if (due.length === 0) return { rows: [] as BetRow[], picks: new Map(), picked: 0 };
      const rows = await tx
        .update(bets)
        .set({ picksRevealedAt: now })
        .where(
          inArray(
            bets.id,
            due.map((row) => row.id),
          ),
        )
        .returning();
      // Betting closed: the group's webhooks may now name who picked what (their outbox).
      for (const row of rows) await queueBetClosed(tx, row, now);
      return { rows, picks: await loadPicks(tx, rows, now), picked: due.length };
    });
    for (const bet of batch.rows) {
      deps.events.publish(
        'picksRevealed',
        {
          betId: bet.id,
          groupId: bet.groupId,
          picks: batch.picks.get(bet.id) ?? [],
          version: bet.version,
        },
        { groupId: bet.groupId },
      );
      revealed.push(bet.id);
    }
    if (batch.picked < batchSize) return revealed;
  }
}

export type PicksRevealJob = IntervalJob;

/** Runs `runPicksReveal` every `intervalMs` (interval-job.ts). */
export function startPicksRevealJob(deps: PicksRevealDeps & IntervalJobOptions): PicksRevealJob {
  return startIntervalJob({
    ...deps,
    name: 'picks reveal',
    run: async (now) => {
      await runPicksReveal(deps, now);
    },
  });
}
