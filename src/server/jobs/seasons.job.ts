import { and, asc, eq, lte } from 'drizzle-orm';
import type { Database } from '../db/connect';
import { seasons, type SeasonRow } from '../db/schema';
import type { EventBus } from '../events';
import { endSeason } from '../seasons/season-data';
import { announceSeasonEnded } from '../seasons/seasons.service';
import { startIntervalJob, type IntervalJob, type IntervalJobOptions } from './interval-job';

// Seasons whose end date passed end here (src/server/seasons/season-data.ts endSeason): the
// standings are archived and, if chosen, points reset. Each season is taken with SELECT … FOR NO
// KEY UPDATE SKIP LOCKED and only while still active, and its end (standings, reset, state) commits
// in that one transaction: two instances, or an admin's "End season now" at the same moment, never
// end a season twice.

export interface SeasonsJobDeps {
  db: Database;
  events: EventBus;
}

/** Ends every season due at `now`, one per transaction; returns those this call ended. */
export async function runSeasonsJob(
  deps: SeasonsJobDeps,
  now: Date = new Date(),
): Promise<SeasonRow[]> {
  const done: SeasonRow[] = [];
  for (;;) {
    const ended = await deps.db.transaction(async (tx) => {
      const [due] = await tx
        .select()
        .from(seasons)
        .where(and(eq(seasons.state, 'active'), lte(seasons.endsAt, now)))
        .orderBy(asc(seasons.endsAt), asc(seasons.id))
        .limit(1)
        .for('no key update', { skipLocked: true });
      return due ? endSeason(tx, due, now) : undefined;
    });
    if (!ended) return done;
    announceSeasonEnded(deps.events, ended);
    done.push(ended.row);
  }
}

export type SeasonsJob = IntervalJob;

/** Runs `runSeasonsJob` every `intervalMs` (interval-job.ts). */
export function startSeasonsJob(deps: SeasonsJobDeps & IntervalJobOptions): SeasonsJob {
  return startIntervalJob({
    ...deps,
    name: 'seasons',
    run: async (now) => {
      const ended = await runSeasonsJob(deps, now);
      if (ended.length > 0) deps.logger?.info({ count: ended.length }, 'ended seasons');
    },
  });
}
