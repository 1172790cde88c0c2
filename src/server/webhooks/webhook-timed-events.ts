import { and, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import { CREATABLE_BET_TYPES } from '../../domain/bet-types';
import { rankPeriodResults } from '../../domain/leaderboard-periods';
import { closesSoonLeadMs } from '../../domain/notifications';
import { instantOfWallClock, wallClockAt } from '../../domain/time-zones';
import { WEBHOOK_LIMITS } from '../../domain/webhooks';
import type { Database } from '../db/connect';
import { bets } from '../db/schema';
import { groupWebhooks, webhookDeliveries } from '../db/webhooks-schema';
import { readPeriodResults } from '../groups/leaderboard.service';
import { isoTime } from '../iso-time';
import { queueBetClosingSoon } from './webhook-events';
import { queueWebhookEvent } from './webhook-outbox';
import { webhookGroup } from './webhook-payloads';

// The events no request makes, queued by the webhooks job's pass: a bet's betting closing
// soon (in the same last stretch as the members' reminder, domain closesSoonLeadMs), and each
// Monday morning (from 09:00 in the hook's time zone) the week's table. Both are once per hook:
// the closing-soon row by its key (unique per hook), the weekly one by the Monday the hook was
// sent last, moved in the transaction that queues it, the hook's row taken SKIP LOCKED.

const DAY_MS = 24 * 60 * 60 * 1000;

/** Queues bet.closing_soon for the bets in their last stretch; returns how many rows. */
export async function queueClosingSoon(
  db: Database,
  now: Date,
  closesSoonMs: number,
): Promise<number> {
  const lead = new Date(now.getTime() + closesSoonMs);
  const candidates = await db
    .selectDistinct({ bet: bets })
    .from(bets)
    .innerJoin(groupWebhooks, eq(groupWebhooks.groupId, bets.groupId))
    .where(
      and(
        eq(bets.state, 'active'),
        gt(bets.expiresAt, now),
        lte(bets.expiresAt, lead),
        isNull(bets.picksRevealedAt),
        inArray(bets.betType, [...CREATABLE_BET_TYPES]),
        isNull(groupWebhooks.pausedAt),
        sql`'bet.closing_soon' = any(${groupWebhooks.events})`,
        sql`not exists (select 1 from ${webhookDeliveries} where ${webhookDeliveries.hookId} = ${groupWebhooks.id} and ${webhookDeliveries.dedupeKey} = 'bet.closing_soon:' || ${bets.id})`,
      ),
    );
  let queued = 0;
  for (const { bet } of candidates) {
    const leadMs = closesSoonLeadMs(bet.createdAt, bet.expiresAt, closesSoonMs);
    if (bet.expiresAt.getTime() - now.getTime() > leadMs) continue;
    queued += await db.transaction(async (tx) => queueBetClosingSoon(tx, bet, now));
  }
  return queued;
}

/** The local date `YYYY-MM-DD` of a wall clock. */
const localDate = (clock: { year: number; month: number; day: number }) =>
  `${clock.year}-${String(clock.month).padStart(2, '0')}-${String(clock.day).padStart(2, '0')}`;

/**
 * This Monday's date in `zone` when it is Monday from the weekly hour on there, else null; and
 * the instant this Monday began there.
 */
export function weeklyDue(now: Date, zone: string): { monday: string; weekEnd: Date } | null {
  const clock = wallClockAt(now.getTime(), zone);
  const weekday = new Date(Date.UTC(clock.year, clock.month - 1, clock.day)).getUTCDay();
  if (weekday !== 1 || clock.hour < WEBHOOK_LIMITS.weeklyHour) return null;
  const weekEnd = instantOfWallClock({ ...clock, hour: 0, minute: 0, second: 0 }, zone);
  return { monday: localDate(clock), weekEnd: new Date(weekEnd) };
}

/** Queues leaderboard.weekly for each hook whose Monday morning came; returns how many rows. */
export async function queueWeeklyTables(db: Database, now: Date): Promise<number> {
  const hooks = await db
    .select({
      id: groupWebhooks.id,
      groupId: groupWebhooks.groupId,
      timeZone: groupWebhooks.timeZone,
      weeklySentFor: groupWebhooks.weeklySentFor,
    })
    .from(groupWebhooks)
    .where(
      and(isNull(groupWebhooks.pausedAt), sql`'leaderboard.weekly' = any(${groupWebhooks.events})`),
    );
  let queued = 0;
  for (const hook of hooks) {
    const due = weeklyDue(now, hook.timeZone);
    if (!due || hook.weeklySentFor === due.monday) continue;
    // Last week: from the Monday before, in the hook's zone (7 days of wall clock), read in a
    // snapshot of its own before the short transaction that queues it.
    const from = new Date(due.weekEnd.getTime() - 7 * DAY_MS);
    const previousFrom = new Date(from.getTime() - 7 * DAY_MS);
    const results = await readPeriodResults(db, hook.groupId, { from, previousFrom }, now);
    queued += await db.transaction(async (tx) => {
      const [taken] = await tx
        .select({ id: groupWebhooks.id })
        .from(groupWebhooks)
        .where(
          and(
            eq(groupWebhooks.id, hook.id),
            sql`${groupWebhooks.weeklySentFor} is distinct from ${due.monday}`,
          ),
        )
        .for('no key update', { skipLocked: true });
      if (!taken) return 0;
      await tx
        .update(groupWebhooks)
        .set({ weeklySentFor: due.monday })
        .where(eq(groupWebhooks.id, hook.id));
      return queueWebhookEvent(tx, {
        groupId: hook.groupId,
        type: 'leaderboard.weekly',
        at: now,
        hookIds: [hook.id],
        dedupeKey: `leaderboard.weekly:${due.monday}`,
        data: async () => {
          return {
            group: await webhookGroup(tx, hook.groupId),
            week: { from: isoTime(from), to: isoTime(due.weekEnd) },
            table: rankPeriodResults(results).map((row) => ({
              rank: row.rank,
              name: row.name,
              points: row.points,
              played: row.played ?? 0,
            })),
          };
        },
      });
    });
  }
  return queued;
}
