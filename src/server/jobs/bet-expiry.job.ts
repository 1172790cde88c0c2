import { and, asc, eq, lte } from 'drizzle-orm';
import { bets } from '../db/schema';
import type { Database } from '../db/connect';
import type { EventBus } from '../events';
import { loadWagers } from '../bets/bet-queries';
import { announceSettlement, settleByRefund, type Settlement } from '../bets/settlement.service';
import { lockMemberships } from '../groups/membership.service';
import { startIntervalJob, type IntervalJob, type IntervalJobOptions } from './interval-job';

// docs/architecture.md §5: a bet still unresolved 7 days after its expiresAt expires by itself and
// every wager is refunded. Several instances run this job at once: each batch picks its due
// bets with SELECT … FOR NO KEY UPDATE SKIP LOCKED inside its transaction, so one bet is
// settled by exactly one of them, and that locking read re-checks state = 'active' on the row
// it locks. NO KEY UPDATE, because a row being inserted elsewhere that references the bet (a
// comment, an inbox entry) holds KEY SHARE on it, which FOR UPDATE would clash with, and SKIP
// LOCKED would pass the bet over. On PGlite (one connection) transactions run one at a time,
// which gives the same guarantee.

/** How long after expiresAt a bet waits for its resolver before the job refunds it. */
const BET_EXPIRY_GRACE_MS = 7 * 24 * 60 * 60 * 1000;
/** Bets settled per transaction: a long backlog is worked through in short transactions. */
const BET_EXPIRY_BATCH_SIZE = 50;

export interface BetExpiryDeps {
  db: Database;
  events: EventBus;
}

export interface BetExpiryOptions {
  batchSize?: number;
  graceMs?: number;
}

/**
 * Expires every bet due at `now` and refunds its wagers, publishing betExpired and
 * pointsRefunded after each batch commits. Returns the ids of the bets this call expired
 * (a bet another instance holds or already settled is not among them).
 */
export async function runBetExpiry(
  deps: BetExpiryDeps,
  now: Date = new Date(),
  options: BetExpiryOptions = {},
): Promise<number[]> {
  const batchSize = options.batchSize ?? BET_EXPIRY_BATCH_SIZE;
  const cutoff = new Date(now.getTime() - (options.graceMs ?? BET_EXPIRY_GRACE_MS));
  const expired: number[] = [];
  for (;;) {
    const settled = await deps.db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(bets)
        .where(and(eq(bets.state, 'active'), lte(bets.expiresAt, cutoff)))
        .orderBy(asc(bets.expiresAt), asc(bets.id))
        .limit(batchSize)
        .for('no key update', { skipLocked: true });
      // Every wagerer of the batch at once, in the one lock order: bet by bet, a later bet's
      // player could come before one an earlier bet's refund already holds.
      const wagersByBet = await loadWagers(
        tx,
        due.map((bet) => bet.id),
      );
      await lockMemberships(
        tx,
        due.flatMap((bet) =>
          (wagersByBet.get(bet.id) ?? []).map((wager) => ({
            groupId: bet.groupId,
            userId: wager.userId,
          })),
        ),
      );
      const results: Settlement[] = [];
      for (const bet of due) results.push(await settleByRefund(tx, bet, 'expired', now));
      return { results, picked: due.length };
    });
    for (const settlement of settled.results) {
      announceSettlement(deps.events, settlement);
      expired.push(settlement.bet.id);
    }
    // A short batch means nothing more is due (or the rest is another instance's right now).
    if (settled.picked < batchSize) return expired;
  }
}

export type BetExpiryJob = IntervalJob;

/** Runs `runBetExpiry` every `intervalMs` (interval-job.ts). */
export function startBetExpiryJob(deps: BetExpiryDeps & IntervalJobOptions): BetExpiryJob {
  return startIntervalJob({
    ...deps,
    name: 'bet expiry',
    run: async (now) => {
      const ids = await runBetExpiry(deps, now);
      if (ids.length > 0) deps.logger?.info({ betIds: ids }, 'expired unresolved bets');
    },
  });
}
