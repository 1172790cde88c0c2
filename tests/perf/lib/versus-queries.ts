import { cannon, mean, type CannonFigures, type CannonSettings } from './load';
import { atLeast, log, percentile, reported, sortNumbers, type Row } from './report';

// One HTTP route against the same queries sent through `pg` directly (member state, member
// stats): concurrent query loops as the reference, autocannon on the route as the subject, in
// alternated rounds, reported as throughput (with its goal) and p99 / p50 latency.

interface ReferenceFigures {
  rps: number;
  p99: number;
  p50: number;
}

/** Runs `request` in `loops` concurrent loops for `ms`, timing each. */
export async function referenceLoops(
  loops: number,
  ms: number,
  request: () => Promise<unknown>,
): Promise<ReferenceFigures> {
  const latencies: number[] = [];
  const t0 = performance.now();
  const deadline = t0 + ms;
  const loop = async () => {
    while (performance.now() < deadline) {
      const t = performance.now();
      await request();
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: loops }, loop));
  const sorted = sortNumbers(latencies);
  return {
    rps: latencies.length / ((performance.now() - t0) / 1000),
    p99: percentile(sorted, 99),
    p50: percentile(sorted, 50),
  };
}

/**
 * A warm-up of both sides, then `rounds` alternated rounds (the reference's loops as many as
 * autocannon's connections); the rows are the rounds' means, `notes` any failed request.
 */
export async function versusQueries(options: {
  name: string;
  label: string;
  url: string;
  headers: Record<string, string>;
  settings: CannonSettings;
  rounds: number;
  goal: number;
  request: () => Promise<unknown>;
}): Promise<{ rows: Row[]; notes: string[] }> {
  const { name, label, url, headers, settings } = options;
  const run = (ms: number) => referenceLoops(settings.connections, ms, options.request);
  await cannon(url, { ...settings, durationSeconds: 2 }, headers);
  await run(2000);
  const subject: CannonFigures[] = [];
  const reference: ReferenceFigures[] = [];
  for (let round = 0; round < options.rounds; round += 1) {
    reference.push(await run(settings.durationSeconds * 1000));
    subject.push(await cannon(url, settings, headers));
    log(
      `${label} round ${round + 1}: hunch ${subject.at(-1)!.requestsPerSecond.toFixed(1)} req/s, pg ${reference.at(-1)!.rps.toFixed(1)} req/s`,
    );
  }
  const side = (pick: (figures: ReferenceFigures) => number) => mean(reference.map(pick));
  const bad = subject.reduce((sum, figures) => sum + figures.non2xx + figures.errors, 0);
  return {
    rows: [
      atLeast(
        name,
        'throughput',
        'req/s',
        mean(subject.map((f) => f.requestsPerSecond)),
        side((r) => r.rps),
        options.goal,
      ),
      reported(
        name,
        'p99 latency',
        'ms',
        mean(subject.map((f) => f.p99)),
        side((r) => r.p99),
      ),
      reported(
        name,
        'p50 latency',
        'ms',
        mean(subject.map((f) => f.p50)),
        side((r) => r.p50),
      ),
    ],
    notes: bad ? [`${bad} non-2xx responses or errors`] : [],
  };
}
