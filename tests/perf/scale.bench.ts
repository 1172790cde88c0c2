import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { fromPool } from '../../src/server/db/connect';
import { createEventBus } from '../../src/server/events';
import { runBetExpiry } from '../../src/server/jobs/bet-expiry.job';
import { runFloorTopUp } from '../../src/server/jobs/floor-top-up.job';
import { runPicksReveal } from '../../src/server/jobs/picks-reveal.job';
import { runReminders } from '../../src/server/jobs/reminders.job';
import { runSeasonsJob } from '../../src/server/jobs/seasons.job';
import { BENCH_POSTGRES_URL, createPostgresDatabase, type BenchDatabase } from './lib/data';
import { createClient } from './lib/http';
import { BENCH_JWT_SECRET, tokenFor } from './lib/load';
import { startChild, type Child } from './lib/processes';
import {
  atMost,
  budget,
  log,
  percentile,
  round,
  sortNumbers,
  type Row,
  type Section,
} from './lib/report';
import {
  BASE_WAGER,
  findSubjects,
  PASSWORD,
  scaleSize,
  seedScale,
  type ScaleSize,
  type ScaleSubjects,
  VIEWERS,
} from './lib/scale-data';
import {
  captureStatements,
  logLength,
  statementsSince,
  type CapturedStatement,
} from './lib/sql-capture';

// Cost as the data grows: every hot path of the API and one pass of every job, on PostgreSQL
// seeded at three sizes (lib/scale-data.ts; the largest 200,000 players, 40,000 groups, 2,000,000
// bets, 8,000,000 wagers, 14,700,000 ledger rows). Each size gets its own database and server;
// a path is timed through the real server's HTTP routes, one request at a time, on every size in
// turn (so the shared machine's swings of load fall on all sizes alike); p50 and p99 at the
// largest size against the smallest, goal ≤ 1.5×. The jobs have the same due rows at every size,
// so a pass that costs by what is due stays flat: goal ≤ 1.5× too. At the largest size every
// statement a path or a job sent is EXPLAINed into the notes, and a sequential scan of a large
// table is a miss. BENCH_SCALE=0.02,0.04 picks other sizes (fractions of the largest); the
// default is 1/16, 1/4 and 1.

const DEFAULT_FRACTIONS = [1 / 16, 1 / 4, 1];
// Enough that a p99 is not just the slowest request (of 60 it would be: the nearest rank is the
// 60th), so one hiccup of the machine does not read as growth.
const SAMPLES = 200;
const WARM_UP = 5;
const LARGE_TABLES = [
  'users',
  'groups',
  'memberships',
  'bets',
  'wagers',
  'ledger',
  'bet_comments',
  'bet_history',
  'notifications',
  'seasons',
  'season_standings',
  'refresh_tokens',
  'floor_top_ups',
  'notification_settings',
];

interface PathResult {
  name: string;
  latencies: number[];
  statements: CapturedStatement[];
  error?: string;
}

interface SizeResult {
  size: ScaleSize;
  seedSeconds: number;
  rows: Record<string, number>;
  paths: PathResult[];
  jobs: { name: string; ms: number; due: number; statements: CapturedStatement[] }[];
  explains: { path: string; text: string; plan: string; seqScans: string[] }[];
}

function fractions(): number[] {
  const text = process.env.BENCH_SCALE;
  if (!text) return DEFAULT_FRACTIONS;
  return text.split(',').map(Number);
}

function sizeName(fraction: number): string {
  return fraction === 1
    ? 'full'
    : fraction < 1 && Number.isInteger(1 / fraction)
      ? `1/${1 / fraction}`
      : String(fraction);
}

/** Monday 00:00 UTC of this week and the one before; the first of this month and the one before. */
function periods(now = new Date()) {
  const day = (now.getUTCDay() + 6) % 7;
  const monday = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - day),
  );
  const previousMonday = new Date(monday.getTime() - 7 * 86_400_000);
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const previousFirst = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const query = (from: Date, previousFrom: Date) =>
    `from=${encodeURIComponent(from.toISOString())}&previousFrom=${encodeURIComponent(previousFrom.toISOString())}`;
  return { week: query(monday, previousMonday), month: query(first, previousFirst) };
}

type Client = ReturnType<typeof createClient>;

async function expectOk(
  client: Client,
  method: string,
  url: string,
  body: unknown,
  headers: Record<string, string>,
) {
  const response = await client.request(method, url, body, headers);
  if (response.status < 200 || response.status >= 300)
    throw new Error(
      `${method} ${url} answered ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`,
    );
  return response.body;
}

async function auth(userId: number) {
  return { authorization: `Bearer ${await tokenFor(userId)}` };
}

interface Pulled {
  cursor: string;
}

async function pullAll(
  client: Client,
  headers: Record<string, string>,
  cursor: string,
): Promise<Pulled> {
  for (let next = cursor; ;) {
    const page = (await expectOk(
      client,
      'GET',
      `/api/member/state?cursor=${encodeURIComponent(next)}`,
      undefined,
      headers,
    )) as {
      cursor: string;
      hasMore: boolean;
    };
    next = page.cursor;
    if (!page.hasMore) return { cursor: next };
  }
}

interface Prepared {
  size: ScaleSize;
  location: string;
  destroy: () => Promise<void>;
  seedSeconds: number;
  subjects: ScaleSubjects;
  rows: Record<string, number>;
  sqlLog: string;
}

/** A database of the size, seeded (or BENCH_SCALE_DATABASE as it is). */
async function prepare(fraction: number): Promise<Prepared> {
  const size = scaleSize(sizeName(fraction), fraction);
  // BENCH_SCALE_DATABASE: a database seeded before (by a run of this bench's seeding) is used
  // as it is and kept, for reading plans while developing; its due rows are used up once.
  const given = process.env.BENCH_SCALE_DATABASE;
  const database = given
    ? { location: given, destroy: async () => {} }
    : await createPostgresDatabase();
  const sqlLog = path.join(
    mkdtempSync(path.join(os.tmpdir(), 'hunch-bench-scale-')),
    'statements.jsonl',
  );
  const destroy = async () => {
    rmSync(path.dirname(sqlLog), { recursive: true, force: true });
    await database.destroy();
  };
  try {
    let seedSeconds = 0;
    if (!given) {
      await (database as BenchDatabase).connection.close();
      log(`scale ${size.name}: seeding ${size.users} players, ${size.groups} groups`);
      const t0 = performance.now();
      await seedScale(database.location, size, (message) => log(`scale ${size.name}:${message}`));
      seedSeconds = round((performance.now() - t0) / 1000, 1);
    }
    const subjects = await findSubjects(database.location, size);
    const rows = await tableRows(database.location);
    log(`scale ${size.name}: seeded in ${seedSeconds} s, ${JSON.stringify(rows)}`);
    return { size, location: database.location, destroy, seedSeconds, subjects, rows, sqlLog };
  } catch (error) {
    await destroy();
    throw error;
  }
}

/**
 * Every size's database is seeded first and each gets its own server; the paths are then timed
 * on all of them in turn, sample by sample, so the machine's load (shared, it swings) weighs
 * on every size alike. The jobs run last, once per size.
 */
async function measureSizes(prepared: Prepared[]): Promise<SizeResult[]> {
  const servers: Child[] = [];
  let paths: PathResult[][];
  try {
    for (const one of prepared)
      servers.push(
        await startChild('server-process.ts', {
          BENCH_MODE: 'hunch',
          BENCH_DB: 'postgres',
          BENCH_DB_LOCATION: one.location,
          JWT_SECRET: BENCH_JWT_SECRET,
          PUSH_ENABLED: 'false',
          BENCH_JOBS: 'off',
          BENCH_SQL_LOG: one.sqlLog,
        }),
      );
    const targets = await Promise.all(
      prepared.map((one, index) => target(one, `http://127.0.0.1:${servers[index]!.port}`)),
    );
    try {
      await measurePaths(targets);
    } finally {
      for (const each of targets) each.client.close();
    }
    paths = targets.map((t) => t.results);
  } finally {
    for (const server of servers) await server.stop();
  }
  const results: SizeResult[] = [];
  for (const [index, one] of prepared.entries()) {
    log(`scale ${one.size.name}: jobs`);
    const jobs = await measureJobs(one.location, one.sqlLog);
    results.push({
      size: one.size,
      seedSeconds: one.seedSeconds,
      rows: one.rows,
      paths: paths[index]!,
      jobs,
      explains: [],
    });
  }
  return results;
}

async function tableRows(url: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ relname: string; n: string }>(
      `select relname, reltuples::bigint::text as n from pg_class where relkind = 'r' and relname = any($1) order by relname`,
      [LARGE_TABLES],
    );
    return Object.fromEntries(result.rows.map((row) => [row.relname, Number(row.n)]));
  } finally {
    await client.end();
  }
}

/** One size's server as the paths use it: its client, subjects, tokens and pull cursors. */
interface Target {
  name: string;
  client: Client;
  subjects: ScaleSubjects;
  sqlLog: string;
  viewerHeaders: Record<string, string>[];
  /** Each viewer's cursor after a full sync. */
  cursors: string[];
  results: PathResult[];
}

async function target(one: Prepared, base: string): Promise<Target> {
  return {
    name: one.size.name,
    client: createClient(base, 1),
    subjects: one.subjects,
    sqlLog: one.sqlLog,
    viewerHeaders: await Promise.all(one.subjects.viewerIds.map(auth)),
    cursors: [],
    results: [],
  };
}

/**
 * Times `sample` on every target, `warmUp` rounds unmeasured then `count` measured, the
 * targets in turn within each round (the first one rotating). A target whose sample fails has
 * the path reported failed; the others go on.
 */
async function measure(
  targets: Target[],
  name: string,
  count: number,
  sample: (t: Target, index: number) => Promise<void>,
  warmUp = WARM_UP,
): Promise<void> {
  const from = targets.map((t) => logLength(t.sqlLog));
  const latencies = targets.map((): number[] => []);
  const failed = targets.map((): string | null => null);
  for (let index = 0; index < warmUp + count; index += 1) {
    if (index === warmUp) targets.forEach((t, at) => (from[at] = logLength(t.sqlLog)));
    for (let turn = 0; turn < targets.length; turn += 1) {
      const at = (turn + index) % targets.length;
      if (failed[at]) continue;
      const t0 = performance.now();
      try {
        await sample(targets[at]!, index);
      } catch (error) {
        failed[at] = error instanceof Error ? error.message : String(error);
        log(`  ${name} (${targets[at]!.name}): FAILED ${failed[at]}`);
        continue;
      }
      if (index >= warmUp) latencies[at]!.push(performance.now() - t0);
    }
  }
  targets.forEach((t, at) => {
    const error = failed[at];
    t.results.push(
      error
        ? { name, latencies: [], statements: [], error }
        : { name, latencies: latencies[at]!, statements: statementsSince(t.sqlLog, from[at]!) },
    );
  });
  log(
    `  ${name}: p50/p99 ms ${targets
      .map((t, at) => {
        const sorted = sortNumbers(latencies[at]!);
        return `${t.name} ${percentile(sorted, 50).toFixed(1)}/${percentile(sorted, 99).toFixed(1)}`;
      })
      .join(', ')}`,
  );
}

async function measurePaths(targets: Target[]): Promise<void> {
  const big = (t: Target) => t.subjects.bigGroups[0]!;
  const viewers = VIEWERS;

  await measure(
    targets,
    'sign-in',
    20,
    async (t, index) => {
      const members = big(t).memberIds;
      await expectOk(
        t.client,
        'POST',
        '/auth/login',
        { email: `p${members[index % members.length]!}@bench.test`, password: PASSWORD },
        {},
      );
    },
    2,
  );

  // The first sync of a player in 10 groups of 50 bets (every page), then the cursors it left.
  await measure(
    targets,
    'first sync 10 × 50',
    viewers * 2 - 2,
    async (t, index) => {
      const v = index % viewers;
      t.cursors[v] = (await pullAll(t.client, t.viewerHeaders[v]!, '0')).cursor;
    },
    2,
  );
  for (const t of targets)
    for (let v = 0; v < viewers; v += 1)
      t.cursors[v] = (await pullAll(t.client, t.viewerHeaders[v]!, t.cursors[v]!)).cursor;
  await measure(targets, 'quiet pull', SAMPLES, async (t, index) => {
    const v = index % viewers;
    await expectOk(
      t.client,
      'GET',
      `/api/member/state?cursor=${encodeURIComponent(t.cursors[v]!)}`,
      undefined,
      t.viewerHeaders[v]!,
    );
  });
  // Catching up after a friend's wager in each of the first viewer's 10 groups.
  for (const t of targets) {
    let changed = 0;
    for (const group of t.subjects.viewerGroups) {
      for (const betId of group.openBetIds) {
        const response = await t.client.request(
          'POST',
          '/api/bets/wagers',
          { betId, prediction: 'yes', points: BASE_WAGER },
          await auth(group.friendId),
        );
        if (response.status === 201) {
          changed += 1;
          break;
        }
      }
    }
    if (changed < t.subjects.viewerGroups.length)
      log(`  ${t.name}: only ${changed} friends' wagers placed`);
  }
  await measure(targets, 'catch-up pull (10 changed bets)', SAMPLES, async (t) => {
    await expectOk(
      t.client,
      'GET',
      `/api/member/state?cursor=${encodeURIComponent(t.cursors[0]!)}`,
      undefined,
      t.viewerHeaders[0]!,
    );
  });

  await measure(targets, "a group's bet list", SAMPLES, async (t, index) => {
    const group = t.subjects.viewerGroups[index % t.subjects.viewerGroups.length]!;
    await expectOk(
      t.client,
      'GET',
      `/api/groups/${group.groupId}/bets`,
      undefined,
      t.viewerHeaders[0]!,
    );
  });
  await measure(targets, "a bet's page data", SAMPLES, async (t, index) => {
    const page = t.subjects.betPages[index % t.subjects.betPages.length]!;
    const headers = await auth(page.userId);
    await expectOk(t.client, 'GET', `/api/bets/${page.betId}/user-context`, undefined, headers);
    await expectOk(t.client, 'GET', `/api/bets/${page.betId}/comments`, undefined, headers);
    await expectOk(t.client, 'GET', `/api/bets/${page.betId}/history`, undefined, headers);
  });

  await measure(targets, 'leaderboard, all time (300 members)', SAMPLES, async (t, index) => {
    const group = t.subjects.bigGroups[index % t.subjects.bigGroups.length]!;
    await expectOk(
      t.client,
      'GET',
      `/api/groups/${group.groupId}/leaderboard`,
      undefined,
      await auth(group.adminId),
    );
  });
  const period = periods();
  for (const [name, query] of [
    ['leaderboard, this week', period.week],
    ['leaderboard, this month', period.month],
  ] as const)
    await measure(targets, name, SAMPLES, async (t, index) => {
      const group = t.subjects.bigGroups[index % t.subjects.bigGroups.length]!;
      await expectOk(
        t.client,
        'GET',
        `/api/groups/${group.groupId}/leaderboard/period?${query}`,
        undefined,
        await auth(group.adminId),
      );
    });
  await measure(targets, 'member stats (300 members)', SAMPLES, async (t, index) => {
    const group = big(t);
    const member = group.memberIds[(index * 7) % group.memberIds.length]!;
    await expectOk(
      t.client,
      'GET',
      `/api/groups/${group.groupId}/members/${member}/stats`,
      undefined,
      await auth(group.adminId),
    );
  });
  await measure(targets, 'head-to-head', SAMPLES, async (t, index) => {
    const group = big(t);
    const member = group.memberIds[(index * 7) % group.memberIds.length]!;
    const other = group.memberIds[(index * 7 + 3) % group.memberIds.length]!;
    await expectOk(
      t.client,
      'GET',
      `/api/groups/${group.groupId}/members/${member}/stats?vs=${other}`,
      undefined,
      await auth(group.adminId),
    );
  });
  await measure(targets, 'inbox', SAMPLES, async (t, index) => {
    const members = big(t).memberIds;
    const userId = members[(index * 11) % members.length]!;
    await expectOk(t.client, 'GET', '/api/notifications', undefined, await auth(userId));
  });

  // Writes last: each sample changes the data.
  const pairs = Math.min(...targets.map((t) => t.subjects.wagerPairs.length));
  await measure(targets, 'a wager', Math.min(SAMPLES, pairs - WARM_UP), async (t, index) => {
    const pair = t.subjects.wagerPairs[index]!;
    await expectOk(
      t.client,
      'POST',
      '/api/bets/wagers',
      { betId: pair.betId, prediction: 'yes', points: BASE_WAGER },
      { ...(await auth(pair.userId)), 'idempotency-key': randomUUID() },
    );
  });
  const resolvable = (t: Target) =>
    t.subjects.bigGroups.flatMap((group) =>
      group.openBetIds.map((betId) => ({ betId, adminId: group.adminId })),
    );
  const bets = Math.min(...targets.map((t) => resolvable(t).length));
  await measure(
    targets,
    'resolving a 300-member bet',
    Math.min(20, bets - 2),
    async (t, index) => {
      const bet = resolvable(t)[index]!;
      await expectOk(
        t.client,
        'PUT',
        `/api/bets/${bet.betId}/resolve`,
        { correctAnswer: 'yes' },
        await auth(bet.adminId),
      );
    },
    2,
  );
}

async function measureJobs(url: string, sqlLog: string) {
  captureStatements(sqlLog);
  const connection = fromPool(new pg.Pool({ connectionString: url, max: 10 }));
  const deps = { db: connection.db, events: createEventBus() };
  const jobs: SizeResult['jobs'] = [];
  const time = async (name: string, pass: () => Promise<number>) => {
    const from = logLength(sqlLog);
    const t = performance.now();
    const due = await pass();
    const ms = performance.now() - t;
    jobs.push({ name, ms, due, statements: statementsSince(sqlLog, from) });
    log(`  job ${name}: ${ms.toFixed(1)} ms, ${due} due`);
  };
  try {
    await time('bet expiry', async () => (await runBetExpiry(deps)).length);
    await time('picks reveal', async () => (await runPicksReveal(deps)).length);
    await time('reminders', async () => {
      const outcome = await runReminders({ ...deps, closesSoonMs: 2 * 3600_000 });
      return outcome.closesSoon + outcome.resolveReminders + outcome.pruned;
    });
    await time('seasons', async () => (await runSeasonsJob(deps)).length);
    await time('floor top-up', async () => (await runFloorTopUp(deps)).length);
    return jobs;
  } finally {
    captureStatements(null);
    await connection.close();
  }
}

/** A table counts as large from this many rows: a scan of a small one (settings, top-ups) is cheap. */
const LARGE_ROWS = 10_000;

async function explainAll(
  url: string,
  sources: { path: string; statements: CapturedStatement[] }[],
  rows: Record<string, number>,
) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const out: SizeResult['explains'] = [];
  try {
    for (const source of sources)
      for (const statement of source.statements) {
        let plan: string;
        try {
          const result = await client.query<{ 'QUERY PLAN': string }>(
            `explain ${statement.text}`,
            statement.values,
          );
          plan = result.rows.map((row) => row['QUERY PLAN']).join('\n');
        } catch (error) {
          plan = `(not explained: ${error instanceof Error ? error.message : String(error)})`;
        }
        const seqScans = [...plan.matchAll(/Seq Scan on (\w+)/g)]
          .map((match) => match[1]!)
          .filter((table) => (rows[table] ?? 0) >= LARGE_ROWS);
        out.push({ path: source.path, text: statement.text, plan, seqScans });
      }
  } finally {
    await client.end();
  }
  return out;
}

async function reachable(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export async function run(): Promise<Section> {
  const title = 'Cost as the data grows: hot paths and job passes, smallest vs largest size';
  const problem = await reachable(BENCH_POSTGRES_URL);
  if (problem)
    return {
      id: 'scale',
      title,
      settings: {},
      rows: [],
      notes: [
        `skipped: no PostgreSQL at ${BENCH_POSTGRES_URL} (${problem}); set BENCH_DATABASE_URL or TEST_DATABASE_URL`,
      ],
    };
  const prepared: Prepared[] = [];
  let sizes: SizeResult[];
  try {
    for (const fraction of fractions()) prepared.push(await prepare(fraction));
    sizes = await measureSizes(prepared);
    const last = sizes.at(-1)!;
    last.explains = await explainAll(
      prepared.at(-1)!.location,
      [
        ...last.paths.map((p) => ({ path: p.name, statements: p.statements })),
        ...last.jobs.map((j) => ({ path: `job: ${j.name}`, statements: j.statements })),
      ],
      last.rows,
    );
  } finally {
    for (const one of prepared) await one.destroy();
  }
  const smallest = sizes[0]!;
  const largest = sizes.at(-1)!;
  const rows: Row[] = [];
  const notes: string[] = [];
  const figure = (latencies: number[], p: number) => percentile(sortNumbers(latencies), p);
  for (const path of largest.paths) {
    const first = smallest.paths.find((p) => p.name === path.name)!;
    rows.push(
      atMost(
        `scale: ${path.name}`,
        'p50',
        'ms',
        figure(path.latencies, 50),
        figure(first.latencies, 50),
        1.5,
      ),
    );
    rows.push(
      atMost(
        `scale: ${path.name}`,
        'p99',
        'ms',
        figure(path.latencies, 99),
        figure(first.latencies, 99),
        1.5,
      ),
    );
    notes.push(
      `${path.name}: p50/p99 ms ${sizes
        .map((s) => {
          const at = s.paths.find((p) => p.name === path.name)!;
          return at.error
            ? `${s.size.name} FAILED (${at.error.slice(0, 200)})`
            : `${s.size.name} ${figure(at.latencies, 50).toFixed(1)}/${figure(at.latencies, 99).toFixed(1)}`;
        })
        .join(', ')}`,
    );
  }
  for (const job of largest.jobs) {
    const first = smallest.jobs.find((j) => j.name === job.name)!;
    rows.push(
      atMost(`scale: job ${job.name}`, `pass (${job.due} due)`, 'ms', job.ms, first.ms, 1.5),
    );
    notes.push(
      `job ${job.name}: ms (due) ${sizes
        .map((s) => {
          const at = s.jobs.find((j) => j.name === job.name)!;
          return `${s.size.name} ${at.ms.toFixed(1)} (${at.due})`;
        })
        .join(', ')}`,
    );
  }
  const scans = largest.explains.filter((e) => e.seqScans.length > 0);
  rows.push(
    budget(
      'scale: EXPLAIN at the largest size',
      'seq scans of large tables',
      'statements',
      scans.length,
      0,
      'max',
    ),
  );
  for (const scan of scans)
    notes.push(
      `SEQ SCAN (${scan.seqScans.join(', ')}) in ${scan.path}: ${scan.text.slice(0, 200)}`,
    );
  for (const explain of largest.explains)
    notes.push(
      `EXPLAIN [${explain.path}] ${explain.text.length > 400 ? `${explain.text.slice(0, 400)}…` : explain.text}\n${explain.plan.replace(/^/gm, '      ')}`,
    );
  return {
    id: 'scale',
    title,
    settings: {
      sizes: sizes.map((s) => ({ ...s.size, seedSeconds: s.seedSeconds, rows: s.rows })),
      samplesPerPath: SAMPLES,
      warmUp: WARM_UP,
      concurrency: 1,
    },
    rows,
    notes,
  };
}
