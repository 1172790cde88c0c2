import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/connect';
import type { EventBus } from '../events';
import type { Metrics } from '../metrics';
import { startBetExpiryJob } from './bet-expiry.job';
import { startFloorTopUpJob } from './floor-top-up.job';
import { startPicksRevealJob } from './picks-reveal.job';
import { startBetRepeatsJob } from './bet-repeats.job';
import { startSeasonsJob } from './seasons.job';
import { startRemindersJob } from './reminders.job';
import { startRoundResultsJob } from './round-results.job';
import { startWebhooksJob, type WebhooksJob } from './webhooks.job';
import { footballDataProvider } from '../rounds/football-data';
import type { IntervalJob, IntervalJobOptions } from './interval-job';

export interface TimedJobsDeps {
  config: Config;
  db: Database;
  events: EventBus;
  metrics: Metrics;
  now?: () => Date;
}

/**
 * Starts the timed jobs once the app is ready (an interval of 0 leaves a job off in this
 * instance); `stop` waits for each to finish its pass.
 */
export function registerTimedJobs(
  app: FastifyInstance,
  { config, db, events, metrics, now }: TimedJobsDeps,
): { stop(): Promise<void>; kickWebhooks(): void } {
  const jobs: IntervalJob[] = [];
  let webhooks: WebhooksJob | undefined;
  const startJob = (intervalMs: number, start: (options: IntervalJobOptions) => IntervalJob) => {
    if (intervalMs > 0)
      app.addHook('onReady', async () => {
        jobs.push(start({ intervalMs, now, logger: app.log, metrics }));
      });
  };
  // Unresolved bets expire 7 days after expiresAt (docs/architecture.md §5).
  startJob(config.betExpiryIntervalMs, (o) => startBetExpiryJob({ ...o, db, events }));
  // Nobody is out of the game: the weekly floor top-up.
  startJob(config.floorTopUpIntervalMs, (o) => startFloorTopUpJob({ ...o, db, events }));
  // Picks show once betting closes: the job stamps those bets for the mirror.
  startJob(config.picksRevealIntervalMs, (o) => startPicksRevealJob({ ...o, db, events }));
  // Repeating bets: when one closes, the next opens (on the same interval: both follow a close).
  startJob(config.picksRevealIntervalMs, (o) => startBetRepeatsJob({ ...o, db, events }));
  // Seasons whose end date passed end: standings archived, points reset if chosen.
  startJob(config.seasonsIntervalMs, (o) => startSeasonsJob({ ...o, db, events }));
  // Tipping rounds' results from football-data.org; without a token admins type them.
  const {
    token: footballToken,
    url: footballUrl,
    intervalMs,
    afterKickoffMs,
  } = config.roundResults;
  const provider =
    footballToken && footballDataProvider({ url: footballUrl, token: footballToken });
  if (provider)
    startJob(intervalMs, (o) =>
      startRoundResultsJob({ ...o, db, events, provider, afterKickoffMs }),
    );
  // Closes-soon and resolve reminders, and the inbox's pruning.
  startJob(config.reminderIntervalMs, (o) =>
    startRemindersJob({ ...o, db, events, closesSoonMs: config.closesSoonReminderMs }),
  );
  // Group webhooks: the outbox's deliveries, and the events a timer makes (src/server/webhooks).
  startJob(config.webhookIntervalMs, (o) => {
    webhooks = startWebhooksJob({
      ...o,
      db,
      events,
      origin: config.publicUrl,
      hostRules: config.webhookHostRules,
      closesSoonMs: config.closesSoonReminderMs,
    });
    return webhooks;
  });
  return {
    kickWebhooks: () => webhooks?.kick(),
    async stop() {
      await Promise.all(jobs.map((job) => job.stop()));
    },
  };
}
