import { runBetRepeats } from '../bets/bet-repeats';
import type { Database } from '../db/connect';
import type { EventBus } from '../events';
import { startIntervalJob, type IntervalJob, type IntervalJobOptions } from './interval-job';

// Bets that come back: when a repeating bet closes, its next one opens (bets/bet-repeats.ts
// runBetRepeats, which takes each due series FOR UPDATE SKIP LOCKED; a slot's unique index
// opens it once across instances). It runs on the picks reveal's interval: both follow a bet's close.

export interface BetRepeatsDeps {
  db: Database;
  events: EventBus;
}

/** Runs `runBetRepeats` every `intervalMs` (interval-job.ts). */
export function startBetRepeatsJob(deps: BetRepeatsDeps & IntervalJobOptions): IntervalJob {
  return startIntervalJob({
    ...deps,
    name: 'bet repeats',
    run: async (now) => {
      await runBetRepeats(deps, now);
    },
  });
}
