import { and, asc, eq, lte } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { bets } from '../db/schema';
import type { Database } from '../db/connect';
import type { EventBus } from '../events';
import { announceSettlement, settleByRefund, type Settlement } from '../bets/settlement.service';

// ARCHITECTURE.md §5: a bet still unresolved 7 days after its expiresAt expires by itself and
// every wager is refunded. Several instances run this job at once: each batch picks its due
// bets with SELECT … FOR UPDATE SKIP LOCKED inside its transaction, so one bet is settled by
// exactly one of them, and that locking read re-checks state = 'active' on the row it locks. On
// PGlite (one connection) transactions run one at a time, which gives the same guarantee.

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
        .for('update', { skipLocked: true });
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

export interface BetExpiryJob {
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/** Runs `runBetExpiry` every `intervalMs` (never two runs at once in this process); failures are logged and retried next tick. */
export function startBetExpiryJob(
  deps: BetExpiryDeps & {
    intervalMs: number;
    now?: () => Date;
    logger?: Pick<FastifyBaseLogger, 'error' | 'info'>;
  },
): BetExpiryJob {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    running = runBetExpiry(deps, (deps.now ?? (() => new Date()))())
      .then((ids) => {
        if (ids.length > 0) deps.logger?.info({ betIds: ids }, 'expired unresolved bets');
      })
      .catch((error: unknown) => deps.logger?.error({ err: error }, 'bet expiry job failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, deps.intervalMs);
  // The timer alone must not keep the process (or a test run) alive.
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
