import { and, asc, eq, isNotNull, lte } from 'drizzle-orm';
import { nextRepeatSlot, type RepeatPeriod } from '../../domain/bet-repeats';
import type { BetCreatedPayload } from '../../domain/realtime-events';
import { isBaseInTiers } from '../../domain/stakes';
import type { Database, Executor } from '../db/connect';
import { betRepeats } from '../db/repeat-schema';
import { bets, type BetRow } from '../db/schema';
import { AppError } from '../errors';
import type { EventBus } from '../events';
import { requireGroupAccess } from '../groups/group-access';
import { recordBetHistory } from './bet-history';
import { scheduleResolveReminder } from './resolve-reminders';
import { queueBetCreated } from '../webhooks/webhook-events';

// Bets that come back (docs/rules.md "Bets that come back"): a bet created with `repeat` starts
// a series (`bet_repeats`, keyed by its first bet). When the series' latest bet closes, the
// next pass of the job opens the next slot (domain nextRepeatSlot) as its creator: same title,
// description, type, options and base, announced like any new bet. Every bet is opened here
// (`openBet`), by POST /bets and by the job alike.

/** A bet's fields as a new one takes them. */
export type OpenBetValues = Pick<
  BetRow,
  | 'groupId'
  | 'title'
  | 'description'
  | 'betType'
  | 'betTypeConfig'
  | 'baseWagerAmount'
  | 'expiresAt'
  | 'createdBy'
> &
  Partial<Pick<BetRow, 'repeatOf' | 'repeatSlot'>>;

/**
 * Inserts an active bet with its resolve reminder and its "created" history, in the caller's
 * transaction; null when its slot of a series was taken already (the unique index on the
 * series and slot: two instances never open one slot twice).
 */
export async function openBet(
  tx: Executor,
  values: OpenBetValues,
  at: Date,
): Promise<BetRow | null> {
  const [row] = await tx
    .insert(bets)
    .values({ ...values, state: 'active', createdAt: at, updatedAt: at })
    .onConflictDoNothing()
    .returning();
  if (!row) return null;
  await scheduleResolveReminder(tx, row);
  await recordBetHistory(tx, row, { kind: 'created', actorId: values.createdBy, at });
  // The group's webhooks hear of it in this transaction (their outbox, src/server/webhooks).
  await queueBetCreated(tx, row, at);
  return row;
}

/** The betCreated event of a bet just opened (published after its commit). */
export function betCreatedPayload(bet: BetRow): BetCreatedPayload {
  return {
    betId: bet.id,
    title: bet.title,
    betType: bet.betType,
    betTypeConfig: bet.betTypeConfig,
    baseWagerAmount: bet.baseWagerAmount,
    createdBy: bet.createdBy,
    expiresAt: bet.expiresAt.toISOString(),
    groupId: bet.groupId,
    version: bet.version,
  };
}

/** Starts the series of a bet created with `repeat`, due at its close. */
export async function startRepeat(
  tx: Executor,
  bet: Pick<BetRow, 'id' | 'expiresAt'>,
  repeat: { every: RepeatPeriod; until?: string | undefined; timeZone: string },
): Promise<void> {
  await tx.insert(betRepeats).values({
    betId: bet.id,
    every: repeat.every,
    until: repeat.until === undefined ? null : new Date(repeat.until),
    timeZone: repeat.timeZone,
    lastSlot: 0,
    nextDueAt: bet.expiresAt,
  });
}

const REPEAT_BATCH_SIZE = 50;

/** The bet of `slot` in the series of `firstBetId` (slot 0 is the first bet itself). */
async function findSlotBet(
  tx: Executor,
  firstBetId: number,
  slot: number,
): Promise<BetRow | undefined> {
  const [row] = await tx
    .select()
    .from(bets)
    .where(
      slot === 0
        ? eq(bets.id, firstBetId)
        : and(eq(bets.repeatOf, firstBetId), eq(bets.repeatSlot, slot)),
    )
    .limit(1);
  return row;
}

/** Whether the series' creator may still open a bet in the group with this base (group lock taken). */
async function mayOpenAgain(tx: Executor, last: BetRow): Promise<boolean> {
  try {
    const group = await requireGroupAccess(tx, {
      userId: last.createdBy,
      groupId: last.groupId,
      permission: 'createBet',
    });
    // A base the group no longer offers (an admin changed its tiers) ends the series.
    return isBaseInTiers(last.baseWagerAmount, group.stakeTiers);
  } catch (error) {
    if (error instanceof AppError) return false;
    throw error;
  }
}

/**
 * One pass: every series whose latest bet has closed by `now` opens its next slot, or ends (its
 * `until` passed, its latest bet was cancelled, its creator may no longer create bets in the
 * group, or the group no longer offers its base). Series are taken FOR UPDATE SKIP LOCKED, and
 * the slot's unique index settles any race left, so each slot opens once across instances.
 * Returns the bets opened.
 */
export async function runBetRepeats(
  deps: { db: Database; events: EventBus },
  now: Date = new Date(),
): Promise<BetRow[]> {
  const opened: BetRow[] = [];
  for (;;) {
    const batch = await deps.db.transaction(async (tx) => {
      const due = await tx
        .select()
        .from(betRepeats)
        .where(and(isNotNull(betRepeats.nextDueAt), lte(betRepeats.nextDueAt, now)))
        .orderBy(asc(betRepeats.nextDueAt), asc(betRepeats.betId))
        .limit(REPEAT_BATCH_SIZE)
        .for('update', { skipLocked: true });
      const made: BetRow[] = [];
      for (const series of due) {
        const first = await findSlotBet(tx, series.betId, 0);
        const last = await findSlotBet(tx, series.betId, series.lastSlot);
        const next =
          first && last && last.state !== 'cancelled'
            ? nextRepeatSlot(
                {
                  firstClose: first.expiresAt.getTime(),
                  every: series.every,
                  until: series.until?.getTime() ?? null,
                  timeZone: series.timeZone,
                },
                series.lastSlot,
                now.getTime(),
              )
            : null;
        let advance = false;
        if (next && last && (await mayOpenAgain(tx, last))) {
          const bet = await openBet(
            tx,
            {
              groupId: last.groupId,
              title: last.title,
              description: last.description,
              betType: last.betType,
              betTypeConfig: last.betTypeConfig,
              baseWagerAmount: last.baseWagerAmount,
              expiresAt: new Date(next.closesAt),
              createdBy: last.createdBy,
              repeatOf: series.betId,
              repeatSlot: next.slot,
            },
            now,
          );
          // Null: the slot is open already (its unique index); either way it is the latest now.
          if (bet) made.push(bet);
          advance = true;
        }
        await tx
          .update(betRepeats)
          .set(
            advance && next
              ? { lastSlot: next.slot, nextDueAt: new Date(next.closesAt) }
              : { nextDueAt: null },
          )
          .where(eq(betRepeats.betId, series.betId));
      }
      return { made, picked: due.length };
    });
    for (const bet of batch.made) {
      deps.events.publish('betCreated', betCreatedPayload(bet), { groupId: bet.groupId });
      opened.push(bet);
    }
    if (batch.picked < REPEAT_BATCH_SIZE) return opened;
  }
}
