import type { FastifyBaseLogger } from 'fastify';
import type { Metrics } from '../metrics';

// The timer every job shares: a pass every `intervalMs`, never two at once in this process;
// a failed pass is logged and the next tick tries again. The timer alone never keeps the
// process (or a test run) alive.

export interface IntervalJob {
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
  /** A pass now, not at the next tick (one in progress runs again once it ends). */
  kick(): void;
}

/** What every `startXJob` takes besides its own deps. */
export interface IntervalJobOptions {
  intervalMs: number;
  now?: () => Date;
  logger?: Pick<FastifyBaseLogger, 'error' | 'info'>;
  /** Each pass is counted with its duration and outcome. */
  metrics?: Pick<Metrics, 'jobPass'>;
}

export function startIntervalJob(
  options: IntervalJobOptions & {
    /** Names the job in the failure log. */
    name: string;
    /** One pass at `now`. */
    run: (now: Date) => Promise<void>;
  },
): IntervalJob {
  const now = options.now ?? (() => new Date());
  let running: Promise<void> | null = null;
  let isKicked = false;
  let isStopped = false;
  const tick = () => {
    if (running) return;
    const started = performance.now();
    const passed = (outcome: 'ok' | 'failed') =>
      options.metrics?.jobPass(options.name, (performance.now() - started) / 1000, outcome);
    running = options
      .run(now())
      .then(
        () => passed('ok'),
        (error: unknown) => {
          passed('failed');
          options.logger?.error({ err: error }, `${options.name} job failed`);
        },
      )
      .finally(() => {
        running = null;
        if (isKicked && !isStopped) {
          isKicked = false;
          tick();
        }
      });
  };
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  return {
    async stop() {
      isStopped = true;
      clearInterval(timer);
      while (running) await running;
    },
    kick() {
      if (isStopped) return;
      if (running) isKicked = true;
      else tick();
    },
  };
}
