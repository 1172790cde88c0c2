import { eq } from 'drizzle-orm';
import { answerLabel, isPoolBet } from '../../domain/bet-types';
import type { Distribution } from '../../domain/payout';
import type { Executor } from '../db/connect';
import { users, type BetRow } from '../db/schema';
import { listActiveMemberIds } from '../groups/membership-queries';
import { queueWebhookEvent } from './webhook-outbox';
import { webhookBet, webhookGroup, webhookPicks, webhookWinners } from './webhook-payloads';

// One call per event a feature tells the group's hooks, each made inside that feature's own
// transaction (bets/bet-repeats.ts openBet, bets/settlement.service.ts, groups/
// group-members.service.ts, jobs/picks-reveal.job.ts, jobs/webhooks.job.ts). A tipping
// round's matches are not the pool game's bets (isPoolBet): their hooks hear nothing of them.

export async function queueBetCreated(tx: Executor, bet: BetRow, at: Date): Promise<void> {
  if (!isPoolBet(bet)) return;
  await queueWebhookEvent(tx, {
    groupId: bet.groupId,
    type: 'bet.created',
    at,
    data: async () => {
      const [creator] = bet.createdBy
        ? await tx
            .select({ name: users.displayName })
            .from(users)
            .where(eq(users.id, bet.createdBy))
            .limit(1)
        : [];
      return {
        group: await webhookGroup(tx, bet.groupId),
        bet: await webhookBet(tx, bet),
        createdBy: creator?.name ?? 'A member',
      };
    },
  });
}

/** Betting is about to close: totals only, once per bet and hook. */
export async function queueBetClosingSoon(tx: Executor, bet: BetRow, at: Date): Promise<number> {
  if (!isPoolBet(bet)) return 0;
  return queueWebhookEvent(tx, {
    groupId: bet.groupId,
    type: 'bet.closing_soon',
    at,
    dedupeKey: `bet.closing_soon:${bet.id}`,
    data: async () => ({
      group: await webhookGroup(tx, bet.groupId),
      bet: await webhookBet(tx, bet),
    }),
  });
}

/** Betting closed and the picks were revealed: now who picked what may be told. */
export async function queueBetClosed(tx: Executor, bet: BetRow, at: Date): Promise<void> {
  if (!isPoolBet(bet)) return;
  await queueWebhookEvent(tx, {
    groupId: bet.groupId,
    type: 'bet.closed',
    at,
    data: async () => ({
      group: await webhookGroup(tx, bet.groupId),
      bet: await webhookBet(tx, bet),
      picks: await webhookPicks(tx, bet, at),
    }),
  });
}

/** Resolved: the answer and the winners only for a hook with "Post results" on. */
export async function queueBetResolved(
  tx: Executor,
  settled: { bet: BetRow; distributions: readonly Distribution[]; isRefund: boolean },
  at: Date,
): Promise<void> {
  const { bet } = settled;
  if (!isPoolBet(bet)) return;
  await queueWebhookEvent(tx, {
    groupId: bet.groupId,
    type: 'bet.resolved',
    at,
    data: async ({ postResults }) => ({
      group: await webhookGroup(tx, bet.groupId),
      bet: await webhookBet(tx, bet),
      result: postResults
        ? {
            answer: answerLabel(bet, bet.correctAnswer ?? ''),
            winners: await webhookWinners(tx, settled.distributions, settled.isRefund),
            picks: await webhookPicks(tx, bet, at),
          }
        : null,
    }),
  });
}

export async function queueBetCancelled(
  tx: Executor,
  bet: BetRow,
  reason: 'cancelled' | 'expired',
  at: Date,
): Promise<void> {
  if (!isPoolBet(bet)) return;
  await queueWebhookEvent(tx, {
    groupId: bet.groupId,
    type: 'bet.cancelled',
    at,
    data: async () => ({
      group: await webhookGroup(tx, bet.groupId),
      bet: await webhookBet(tx, bet),
      reason,
    }),
  });
}

export async function queueMemberJoined(
  tx: Executor,
  groupId: number,
  memberName: string,
  at: Date,
): Promise<void> {
  await queueWebhookEvent(tx, {
    groupId,
    type: 'member.joined',
    at,
    data: async () => ({
      group: await webhookGroup(tx, groupId),
      member: { name: memberName },
      memberCount: (await listActiveMemberIds(tx, groupId)).length,
    }),
  });
}
