import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { createPglite, fromPglite } from '../../src/server/db/connect';
import {
  brokenBalances,
  createPgliteDatabase,
  createPostgresDatabase,
  POOL_SIZE,
  seedWorld,
  type BenchDatabase,
  type World,
  type WorldSpec,
} from './lib/data';
import { createClient, shuffle } from './lib/http';
import { BENCH_JWT_SECRET, tokenFor } from './lib/load';
import { startChild } from './lib/processes';
import {
  atLeast,
  budget,
  log,
  percentile,
  reported,
  sortNumbers,
  type Section,
} from './lib/report';

// Benchmarks 2 and 3: placing a wager, the hottest write, across many members and bets, the two
// ways the app takes it: a placeWager mutation through POST /api/sync/push (the PWA's outbox,
// a fresh device client per wager) and POST /api/bets/wagers with an Idempotency-Key (other
// clients). The reference is the minimal wager at the same concurrency: ONE statement (the
// conditional debit of the membership, the wager, its ledger row), through `pg` (pool of 10,
// like the app) on PostgreSQL, in-process on PGlite. A transaction is one wager. Afterwards
// every membership's points must equal its ledger sums and no available points may be
// negative, on the reference's database and the app's.

const SPEC: WorldSpec = {
  groups: 8,
  membersPerGroup: 60,
  betsPerGroup: 60,
  defaultPoints: 100_000,
  baseWagerAmount: 10,
};
const CONCURRENCY = 16;
const DURATION_MS = 10_000;
const WARM_UP_MS = 2_000;
const POINTS = 10;

interface Pair {
  userId: number;
  betId: number;
}

function pairsOf(world: World): Pair[] {
  const pairs: Pair[] = [];
  for (const group of world.groups)
    for (const userId of group.memberIds)
      for (const betId of group.betIds) pairs.push({ userId, betId });
  return shuffle(pairs, 42);
}

interface Outcome {
  transactions: number;
  failures: number;
  firstFailure?: string;
  seconds: number;
  latencies: number[];
}

/** Runs `step(pair)` (one wager) on CONCURRENCY workers for `ms`, from pair `start` on. */
async function drive(
  pairs: Pair[],
  start: number,
  ms: number,
  step: (pair: Pair) => Promise<void>,
): Promise<Outcome & { next: number }> {
  let next = start;
  const outcome: Outcome = { transactions: 0, failures: 0, seconds: 0, latencies: [] };
  const t0 = performance.now();
  const deadline = t0 + ms;
  const worker = async () => {
    while (performance.now() < deadline && next < pairs.length) {
      const pair = pairs[next++]!;
      const t = performance.now();
      try {
        await step(pair);
        outcome.transactions += 1;
        outcome.latencies.push(performance.now() - t);
      } catch (error) {
        outcome.failures += 1;
        outcome.firstFailure ??= String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  outcome.seconds = (performance.now() - t0) / 1000;
  if (next >= pairs.length) throw new Error('ran out of member/bet pairs: enlarge SPEC');
  return { ...outcome, next };
}

/** A warm-up, then the measured run; answers the next unused pair too. */
async function measure(pairs: Pair[], start: number, step: (pair: Pair) => Promise<void>) {
  const warm = await drive(pairs, start, WARM_UP_MS, step);
  return drive(pairs, warm.next, DURATION_MS, step);
}

// ---- the app over HTTP ----

type Way = 'push' | 'rest';

function appStep(client: ReturnType<typeof createClient>, tokens: Map<number, string>, way: Way) {
  return async ({ userId, betId }: Pair) => {
    const headers = { authorization: `Bearer ${tokens.get(userId)!}` };
    const body = { betId, prediction: 'yes', points: POINTS };
    if (way === 'rest') {
      const placed = await client.request('POST', '/api/bets/wagers', body, {
        ...headers,
        'idempotency-key': randomUUID(),
      });
      if (placed.status !== 201)
        throw new Error(`POST ${placed.status} ${JSON.stringify(placed.body)}`);
      return;
    }
    // A device's first write: its client row is made by this push.
    const pushed = await client.request(
      'POST',
      '/api/sync/push',
      {
        clientGroupID: `bench-${userId}`,
        clientID: randomUUID(),
        mutations: [{ id: 1, name: 'placeWager', args: { body } }],
      },
      headers,
    );
    const result = (pushed.body as { results?: Array<{ ok: boolean }> }).results?.[0];
    if (pushed.status !== 200 || !result?.ok)
      throw new Error(`push ${pushed.status} ${JSON.stringify(pushed.body)}`);
  };
}

// ---- the minimal wager, straight to the database ----

interface Query {
  (text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

// One statement: the debit only if the member is still in the bet's group and has the points,
// then the wager and its ledger row only if the debit happened.
const MINIMAL_WAGER = `with debit as (
    update memberships m set available_points = m.available_points - $3, updated_at = $4
      from bets b
     where b.id = $1 and m.group_id = b.group_id and m.user_id = $2
       and m.left_at is null and m.available_points >= $3
    returning m.group_id),
  placed as (
    insert into wagers (bet_id, user_id, prediction, points, created_at, updated_at)
    select $1, $2, 'yes', $3, $4, $4 from debit returning id),
  ledger_row as (
    insert into ledger (group_id, user_id, kind, total_delta, available_delta, bet_id, wager_id, created_at)
    select debit.group_id, $2, 'wager_placed', 0, -$3::int, $1, placed.id, $4 from debit, placed)
  select id from placed`;

function referenceStep(query: Query) {
  return async ({ userId, betId }: Pair) => {
    const { rows } = await query(MINIMAL_WAGER, [betId, userId, POINTS, new Date()]);
    if (rows.length === 0) throw new Error('insufficient points');
  };
}

// ---- the benchmark ----

export async function run(driver: 'postgres' | 'pglite'): Promise<Section> {
  const create = driver === 'postgres' ? createPostgresDatabase : createPgliteDatabase;
  const databases: BenchDatabase[] = [];
  const check = (location: string) =>
    driver === 'postgres' ? createPoolCheck(location) : createPgliteCheck(location);
  try {
    // The reference first, on its own copy of the same data.
    const refDb = await create();
    databases.push(refDb);
    const refWorld = await seedWorld(refDb.connection.db, SPEC);
    await refDb.connection.close();
    let reference: Outcome;
    if (driver === 'postgres') {
      const pool = new pg.Pool({ connectionString: refDb.location, max: POOL_SIZE });
      reference = await measure(
        pairsOf(refWorld),
        0,
        referenceStep((text, params) => pool.query(text, params)),
      );
      await pool.end();
    } else {
      const client = await PGlite.create(refDb.location);
      reference = await measure(
        pairsOf(refWorld),
        0,
        referenceStep((text, params) => client.query(text, params) as never),
      );
      await client.close();
    }
    const referenceCheck = await check(refDb.location);
    log(
      `wagers-${driver} reference: ${(reference.transactions / reference.seconds).toFixed(0)} tx/s, ${reference.failures} failures ${reference.firstFailure ?? ''}`,
    );

    // Both ways into the app, one server: the push first, then the REST route on the pairs after it.
    const appDb = await create();
    databases.push(appDb);
    const world = await seedWorld(appDb.connection.db, SPEC);
    await appDb.connection.close();
    const server = await startChild('server-process.ts', {
      BENCH_MODE: 'hunch',
      BENCH_DB: driver,
      BENCH_DB_LOCATION: appDb.location,
      JWT_SECRET: BENCH_JWT_SECRET,
    });
    const subjects = {} as Record<Way, Outcome>;
    try {
      const tokens = new Map<number, string>();
      for (const userId of world.userIds) tokens.set(userId, await tokenFor(userId));
      const client = createClient(`http://127.0.0.1:${server.port}`, CONCURRENCY);
      const pairs = pairsOf(world);
      const pushed = await measure(pairs, 0, appStep(client, tokens, 'push'));
      subjects.push = pushed;
      subjects.rest = await measure(pairs, pushed.next, appStep(client, tokens, 'rest'));
      client.close();
    } finally {
      await server.stop();
    }
    for (const way of ['push', 'rest'] as const)
      log(
        `wagers-${driver} hunch ${way}: ${(subjects[way].transactions / subjects[way].seconds).toFixed(0)} tx/s, ${subjects[way].failures} failures ${subjects[way].firstFailure ?? ''}`,
      );

    // The ledger invariant, on both databases.
    const appCheck = await check(appDb.location);
    const name = driver === 'postgres' ? '2 wagers, PostgreSQL' : '3 wagers, PGlite';
    const sortedReference = sortNumbers(reference.latencies);
    const rowsOf = (way: Way, label: string) => {
      const subject = subjects[way];
      return [
        atLeast(
          `${name}, ${label}`,
          'wagers',
          'tx/s',
          subject.transactions / subject.seconds,
          reference.transactions / reference.seconds,
          0.7,
        ),
        reported(
          `${name}, ${label}`,
          'p99 latency',
          'ms',
          percentile(sortNumbers(subject.latencies), 99),
          percentile(sortedReference, 99),
        ),
      ];
    };
    return {
      id: `wagers-${driver}`,
      title: `Placing wagers on ${driver === 'postgres' ? 'PostgreSQL' : 'embedded PGlite'} vs the minimal wager (one statement) ${driver === 'postgres' ? 'through pg directly' : 'in-process on PGlite'}`,
      settings: {
        data: SPEC,
        concurrency: CONCURRENCY,
        durationSeconds: DURATION_MS / 1000,
        warmUpSeconds: WARM_UP_MS / 1000,
        poolSize: driver === 'postgres' ? POOL_SIZE : 'PGlite (one connection)',
        perPair:
          'one wager: a placeWager push from a new device client, or POST /api/bets/wagers with an Idempotency-Key; push notifier on (PUSH_ENABLED default)',
        memberships: appCheck.memberships,
      },
      rows: [
        ...rowsOf('push', 'sync push'),
        ...rowsOf('rest', 'REST + Idempotency-Key'),
        budget(
          name,
          'broken balances',
          'memberships',
          appCheck.broken + referenceCheck.broken,
          0,
          'max',
        ),
      ],
      notes: [
        ...(['push', 'rest'] as const).flatMap((way) =>
          subjects[way].failures
            ? [
                `${subjects[way].failures} Hunch ${way} wagers failed, first: ${subjects[way].firstFailure}`,
              ]
            : [],
        ),
        ...(reference.failures
          ? [`${reference.failures} reference wagers failed, first: ${reference.firstFailure}`]
          : []),
      ],
    };
  } finally {
    for (const database of databases) await database.destroy();
  }
}

async function createPoolCheck(url: string) {
  const { fromPool } = await import('../../src/server/db/connect');
  const connection = fromPool(new pg.Pool({ connectionString: url, max: 1 }));
  try {
    return await brokenBalances(connection);
  } finally {
    await connection.close();
  }
}

async function createPgliteCheck(dir: string) {
  const connection = fromPglite(await createPglite(dir));
  try {
    return await brokenBalances(connection);
  } finally {
    await connection.close();
  }
}
