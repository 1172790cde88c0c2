import { and, asc, eq, gt, inArray, isNull, lte, notExists, sql } from 'drizzle-orm';
import { CREATABLE_BET_TYPES } from '../../domain/bet-types';
import {
  CLOSES_SOON_SHARE,
  NOTIFICATION_RETENTION_MS,
  RESOLVE_REMINDER_INTERVAL_MS,
  resolveReminderDueAt,
} from '../../domain/notifications';
import type { Database } from '../db/connect';
import {
  bets,
  groups,
  memberships,
  notifications,
  notificationSettings,
  resolveReminders,
  wagers,
} from '../db/schema';
import type { EventBus } from '../events';
import { announceNotifications } from '../notifications/notification.recorder';
import { pruneNotifications, saveNotifications } from '../notifications/notification-store';
import { startIntervalJob, type IntervalJob, type IntervalJobOptions } from './interval-job';

// A member who has not picked hears once that a bet closes soon (CLOSES_SOON_
// REMINDER_MS before, default 2 h; a bet made with less time left, in the last half of its open
// time: domain closesSoonLeadMs); the
// creator of a closed, unresolved bet hears it at close and then once a day until it is
// resolved, cancelled or expired. Inbox entries older than 30 days go.
//
// A pass reads what is due, not the table: the closes-soon part the bets closing within the
// lead (the partial index on active bets' close with hidden picks), the resolve part the rows of
// `resolve_reminders` whose time came (bets-schema.ts; the bet's writers keep it, this job moves it a
// day on). The closes-soon reminders are not scheduled that way: their time depends on
// CLOSES_SOON_REMINDER_MS, which a stored time would not follow, and a member joining in the
// last stretch is still reminded.
//
// Exactly once across instances and restarts: each entry is one conditional upsert on a unique
// (user, key) index (notifications/notification-store.ts). Two instances reading the same due
// pairs both insert; the second waits for the first's commit and writes nothing, so only one of
// them announces it. What was due while no instance ran is still due at the next run (the due
// window is "until the bet closes", not "this minute"), so a restart loses nothing.

/** Pairs (bet, member) written per statement: a long backlog goes in short statements. */
const REMINDER_BATCH_SIZE = 500;

export interface RemindersDeps {
  db: Database;
  events: EventBus;
  /** How long before a bet closes the reminder is due. */
  closesSoonMs: number;
}

export interface RemindersOutcome {
  closesSoon: number;
  resolveReminders: number;
  /** The bets the resolve reminders read: those whose reminder fell due, reminded or not. */
  resolveRead: number;
  pruned: number;
}

const isMutedSql = (userId: typeof memberships.userId | typeof bets.createdBy) =>
  sql`exists (select 1 from ${notificationSettings} where ${notificationSettings.userId} = ${userId} and (${bets.groupId} = any(${notificationSettings.mutedGroupIds}) or ${bets.id} = any(${notificationSettings.mutedBetIds})))`;

/** Each bet's next due time in the schedule, one statement (a bet settled meanwhile has no row). */
async function moveResolveReminders(db: Database, moves: { betId: number; dueAt: Date }[]) {
  if (moves.length === 0) return;
  const values = sql.join(
    moves.map((move) => sql`(${move.betId}::integer, ${move.dueAt.toISOString()}::timestamptz)`),
    sql`, `,
  );
  await db.execute(
    sql`update ${resolveReminders} set due_at = v.due_at from (values ${values}) as v(bet_id, due_at) where ${resolveReminders.betId} = v.bet_id`,
  );
}

/** One pass: the due reminders are written and announced, then old entries pruned. */
export async function runReminders(
  deps: RemindersDeps,
  now: Date = new Date(),
  batchSize = REMINDER_BATCH_SIZE,
): Promise<RemindersOutcome> {
  const { db, events } = deps;
  const outcome: RemindersOutcome = {
    closesSoon: 0,
    resolveReminders: 0,
    resolveRead: 0,
    pruned: 0,
  };
  const lead = new Date(now.getTime() + deps.closesSoonMs);
  const leadInterval = sql.raw(`interval '${Math.round(deps.closesSoonMs / 1000)} seconds'`);

  // Closes soon: active bets in their last stretch (the lead, or the last half of a bet made with less); every
  // current member without a wager, who did not mute the group or bet, and was not told yet.
  for (;;) {
    const due = await db
      .select({
        userId: memberships.userId,
        betId: bets.id,
        groupId: bets.groupId,
        betTitle: bets.title,
        expiresAt: bets.expiresAt,
        groupName: groups.name,
      })
      .from(bets)
      .innerJoin(groups, eq(groups.id, bets.groupId))
      .innerJoin(
        memberships,
        and(eq(memberships.groupId, bets.groupId), isNull(memberships.leftAt)),
      )
      .where(
        and(
          eq(bets.state, 'active'),
          gt(bets.expiresAt, now),
          lte(bets.expiresAt, lead),
          // A tipping round's matches are not the pool game's bets (isPoolBet): no reminder each.
          inArray(bets.betType, [...CREATABLE_BET_TYPES]),
          // Its picks were shown (a resolution since undone): betting will not close, it has.
          isNull(bets.picksRevealedAt),
          // Due in the bet's last stretch (domain closesSoonLeadMs): the lead, or for a bet made
          // with less time to go, the last half of its open time, so it is reminded too.
          sql`${bets.expiresAt} - (case when ${bets.expiresAt} - ${bets.createdAt} >= ${leadInterval} then ${leadInterval} else (${bets.expiresAt} - ${bets.createdAt}) * ${sql.raw(String(CLOSES_SOON_SHARE))} end) <= ${now.toISOString()}::timestamptz`,
          notExists(
            db
              .select({ one: sql`1` })
              .from(wagers)
              .where(and(eq(wagers.betId, bets.id), eq(wagers.userId, memberships.userId))),
          ),
          notExists(
            db
              .select({ one: sql`1` })
              .from(notifications)
              .where(
                and(
                  eq(notifications.userId, memberships.userId),
                  sql`${notifications.key} = 'closesSoon:bet:' || ${bets.id}`,
                  sql`not ${notifications.coalesces}`,
                ),
              ),
          ),
          sql`not ${isMutedSql(memberships.userId)}`,
        ),
      )
      .orderBy(asc(bets.expiresAt), asc(bets.id), asc(memberships.userId))
      .limit(batchSize);
    const saved = await saveNotifications(
      db,
      'closesSoon',
      due.map((pair) => ({
        userId: pair.userId,
        groupId: pair.groupId,
        betId: pair.betId,
        payload: {
          groupName: pair.groupName,
          betTitle: pair.betTitle,
          expiresAt: pair.expiresAt.toISOString(),
        },
      })),
      now,
    );
    announceNotifications(events, saved);
    outcome.closesSoon += saved.length;
    if (due.length < batchSize) break;
  }

  // Resolve reminders: the bets whose row of the schedule fell due (its close, or a day after
  // the last reminder), closed and still active, whose creator is a member and did not mute it.
  // Each one read is reminded unless it was within the last day (a resolution undone since),
  // then moved on to its next due time, so the next batch and the next pass read only new ones.
  for (;;) {
    const read = await db
      .select({
        userId: bets.createdBy,
        betId: bets.id,
        groupId: bets.groupId,
        betTitle: bets.title,
        groupName: groups.name,
        state: bets.state,
        expiresAt: bets.expiresAt,
        remindedAt: sql<Date | null>`(${db
          .select({ at: sql`max(${notifications.updatedAt})` })
          .from(notifications)
          .where(
            and(
              eq(notifications.userId, bets.createdBy),
              sql`${notifications.key} = 'resolveReminder:bet:' || ${bets.id}`,
              sql`not ${notifications.coalesces}`,
            ),
          )})`.mapWith(notifications.updatedAt),
      })
      .from(resolveReminders)
      .innerJoin(bets, eq(bets.id, resolveReminders.betId))
      .innerJoin(groups, eq(groups.id, bets.groupId))
      .innerJoin(
        memberships,
        and(
          eq(memberships.groupId, bets.groupId),
          eq(memberships.userId, bets.createdBy),
          isNull(memberships.leftAt),
        ),
      )
      .where(
        and(
          lte(resolveReminders.dueAt, now),
          eq(bets.state, 'active'),
          lte(bets.expiresAt, now),
          sql`not ${isMutedSql(bets.createdBy)}`,
        ),
      )
      .orderBy(asc(resolveReminders.dueAt), asc(resolveReminders.betId))
      .limit(batchSize);
    outcome.resolveRead += read.length;
    const due = new Set(
      read.filter(
        (bet) =>
          bet.remindedAt === null ||
          bet.remindedAt.getTime() <= now.getTime() - RESOLVE_REMINDER_INTERVAL_MS,
      ),
    );
    const saved = await saveNotifications(
      db,
      'resolveReminder',
      [...due].map((bet) => ({
        userId: bet.userId,
        groupId: bet.groupId,
        betId: bet.betId,
        payload: { groupName: bet.groupName, betTitle: bet.betTitle },
      })),
      now,
    );
    await moveResolveReminders(
      db,
      read.map((bet) => ({
        betId: bet.betId,
        dueAt: resolveReminderDueAt(bet, due.has(bet) ? now : bet.remindedAt)!,
      })),
    );
    announceNotifications(events, saved);
    outcome.resolveReminders += saved.length;
    if (read.length < batchSize) break;
  }

  outcome.pruned = await pruneNotifications(
    db,
    new Date(now.getTime() - NOTIFICATION_RETENTION_MS),
  );
  return outcome;
}

export type RemindersJob = IntervalJob;

/** Runs `runReminders` every `intervalMs` (interval-job.ts). */
export function startRemindersJob(deps: RemindersDeps & IntervalJobOptions): RemindersJob {
  return startIntervalJob({
    ...deps,
    name: 'reminders',
    run: async (now) => {
      const outcome = await runReminders(deps, now);
      if (outcome.closesSoon + outcome.resolveReminders > 0)
        deps.logger?.info(outcome, 'reminders sent');
    },
  });
}
