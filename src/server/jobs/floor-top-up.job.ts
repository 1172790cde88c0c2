import { and, asc, eq, isNull, lt, notExists, sql } from 'drizzle-orm';
import type { Database } from '../db/connect';
import { floorTopUps, groups, memberships } from '../db/schema';
import type { EventBus } from '../events';
import { applyLedgerEvent } from '../groups/ledger-writer';
import { announceNotifications } from '../notifications/notification.recorder';
import { saveNotifications } from '../notifications/notification-store';
import { floorTopUpPoints, isoWeek } from '../../domain/floor-top-up';
import { ANY_STAKE_TIER, largestStake } from '../../domain/stakes';
import { startIntervalJob, type IntervalJob, type IntervalJobOptions } from './interval-job';

// "Nobody is out of the game" (src/domain/floor-top-up.ts): a current member of a group with the
// top-up on, whose available points are below the threshold, is topped up to the floor, at most
// once per ISO week. Each batch locks its members with SELECT … FOR NO KEY UPDATE SKIP LOCKED, and
// the (group, user, week) primary key of floor_top_ups is the once-a-week proof: the row, the
// ledger entry (kind floor_top_up) and the new points commit together, so two instances (or a
// restart mid-run) never top up a member twice in a week. Points held in open
// wagers are not counted: only available points decide, and the top-up adds to both total and
// available, like a join grant. The member's inbox entry (`floorTopUp`, keyed by the week) is
// written in the same transaction and announced after it commits; it is not pushed: a top-up
// asks nothing of the player, who sees it on their next visit.

/** Members topped up per transaction. */
const FLOOR_TOP_UP_BATCH_SIZE = 100;

export interface FloorTopUpDeps {
  db: Database;
  /** Announces the inbox entries to their owners' devices (none in some tests). */
  events?: EventBus;
}

export interface FloorTopUp {
  groupId: number;
  userId: number;
  week: string;
  points: number;
  availablePoints: number;
}

/** Tops up every member due at `now`; returns the top-ups this call made (another instance's are not among them). */
export async function runFloorTopUp(
  deps: FloorTopUpDeps,
  now: Date = new Date(),
  options: { batchSize?: number } = {},
): Promise<FloorTopUp[]> {
  const batchSize = options.batchSize ?? FLOOR_TOP_UP_BATCH_SIZE;
  const week = isoWeek(now);
  const done: FloorTopUp[] = [];
  for (;;) {
    const batch = await deps.db.transaction(async (tx) => {
      const due = await tx
        .select({
          groupId: memberships.groupId,
          userId: memberships.userId,
          availablePoints: memberships.availablePoints,
          defaultPoints: groups.defaultPoints,
          stakeTiers: groups.stakeTiers,
          groupName: groups.name,
        })
        .from(memberships)
        .innerJoin(groups, eq(groups.id, memberships.groupId))
        .where(
          and(
            eq(groups.floorTopUp, true),
            isNull(memberships.leftAt),
            // Below the group's largest stake tier (floorTopUpPoints' threshold; arrays count from
            // 1), read through the index on available points under the largest tier of any group.
            lt(memberships.availablePoints, largestStake(ANY_STAKE_TIER)),
            lt(memberships.availablePoints, sql<number>`${groups.stakeTiers}[3]`),
            notExists(
              tx
                .select({ one: sql`1` })
                .from(floorTopUps)
                .where(
                  and(
                    eq(floorTopUps.groupId, memberships.groupId),
                    eq(floorTopUps.userId, memberships.userId),
                    eq(floorTopUps.week, week),
                  ),
                ),
            ),
          ),
        )
        .orderBy(asc(memberships.groupId), asc(memberships.userId))
        .limit(batchSize)
        .for('no key update', { of: memberships, skipLocked: true });
      const made: FloorTopUp[] = [];
      for (const member of due) {
        const points = floorTopUpPoints(
          member.availablePoints,
          member.defaultPoints,
          member.stakeTiers,
        );
        if (points <= 0) continue;
        const [claimed] = await tx
          .insert(floorTopUps)
          .values({ groupId: member.groupId, userId: member.userId, week, points, createdAt: now })
          .onConflictDoNothing()
          .returning({ week: floorTopUps.week });
        if (!claimed) continue;
        const updated = await applyLedgerEvent(tx, {
          groupId: member.groupId,
          userId: member.userId,
          event: { kind: 'floor_top_up', points },
          now,
        });
        made.push({
          groupId: member.groupId,
          userId: member.userId,
          week,
          points,
          availablePoints: updated.availablePoints,
        });
      }
      const names = new Map(due.map((member) => [member.groupId, member.groupName]));
      const saved = await saveNotifications(
        tx,
        'floorTopUp',
        made.map((topUp) => ({
          userId: topUp.userId,
          groupId: topUp.groupId,
          betId: null,
          eventKey: topUp.week,
          payload: {
            groupName: names.get(topUp.groupId) ?? 'your group',
            points: topUp.points,
            availablePoints: topUp.availablePoints,
          },
        })),
        now,
      );
      return { made, saved, picked: due.length };
    });
    // Not pushed (pushKindOf: null): the push module ignores these.
    if (deps.events) announceNotifications(deps.events, batch.saved);
    done.push(...batch.made);
    if (batch.picked < batchSize) return done;
  }
}

export type FloorTopUpJob = IntervalJob;

/** Runs `runFloorTopUp` every `intervalMs` (interval-job.ts). */
export function startFloorTopUpJob(deps: FloorTopUpDeps & IntervalJobOptions): FloorTopUpJob {
  return startIntervalJob({
    ...deps,
    name: 'floor top-up',
    run: async (now) => {
      const made = await runFloorTopUp(deps, now);
      if (made.length > 0) deps.logger?.info({ count: made.length }, 'topped up members');
    },
  });
}
