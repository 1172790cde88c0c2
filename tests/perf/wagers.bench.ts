import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { fromPglite } from '../../src/server/db/connect';
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

// Benchmarks 2 and 3: placing and changing wagers (POST /api/bets/wagers, then PUT
// /api/bets/wagers/{id}) across many members and bets, each with an Idempotency-Key as the
// PWA's outbox sends it, against the same SQL statements sent straight to the database at the
// same concurrency: through `pg` (pool of 10, like the app) on PostgreSQL, in-process on
// PGlite. A transaction is one write (a POST or a PUT). Afterwards every membership's points
// must equal its ledger sums and no available points may be negative.

const SPEC: WorldSpec = {
  groups: 8,
  membersPerGroup: 40,
  betsPerGroup: 40,
  defaultPoints: 100_000,
  baseWagerAmount: 10,
};
const CONCURRENCY = 16;
const DURATION_MS = 10_000;
const WARM_UP_MS = 2_000;

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

/** Runs `step(pair)` (which does one POST and one PUT and returns their latencies) on CONCURRENCY workers for `ms`. */
async function drive(
  pairs: Pair[],
  start: number,
  ms: number,
  step: (pair: Pair) => Promise<number[]>,
): Promise<Outcome & { next: number }> {
  let next = start;
  const outcome: Outcome = { transactions: 0, failures: 0, seconds: 0, latencies: [] };
  const t0 = performance.now();
  const deadline = t0 + ms;
  const worker = async () => {
    while (performance.now() < deadline && next < pairs.length) {
      const pair = pairs[next++]!;
      try {
        const latencies = await step(pair);
        outcome.transactions += latencies.length;
        outcome.latencies.push(...latencies);
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

// ---- the app over HTTP ----

async function driveApp(baseUrl: string, world: World, pairs: Pair[]) {
  const tokens = new Map<number, string>();
  for (const userId of world.userIds) tokens.set(userId, await tokenFor(userId));
  const client = createClient(baseUrl, CONCURRENCY);
  const step = async ({ userId, betId }: Pair) => {
    const headers = { authorization: `Bearer ${tokens.get(userId)!}` };
    let t = performance.now();
    const placed = await client.request(
      'POST',
      '/api/bets/wagers',
      { betId, prediction: 'yes', points: 10 },
      { ...headers, 'idempotency-key': randomUUID() },
    );
    if (placed.status !== 201)
      throw new Error(`POST ${placed.status} ${JSON.stringify(placed.body)}`);
    const first = performance.now() - t;
    t = performance.now();
    const wagerId = (placed.body as { id: number }).id;
    const changed = await client.request(
      'PUT',
      `/api/bets/wagers/${wagerId}`,
      { prediction: 'no', points: 20 },
      { ...headers, 'idempotency-key': randomUUID() },
    );
    if (changed.status !== 200)
      throw new Error(`PUT ${changed.status} ${JSON.stringify(changed.body)}`);
    return [first, performance.now() - t];
  };
  const warm = await drive(pairs, 0, WARM_UP_MS, step);
  const measured = await drive(pairs, warm.next, DURATION_MS, step);
  client.close();
  return measured;
}

// ---- the same statements, straight to the database ----

interface Query {
  (text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}
interface SqlRunner {
  query: Query;
  transaction<T>(work: (query: Query) => Promise<T>): Promise<T>;
}

function pgRunner(pool: pg.Pool): SqlRunner {
  return {
    query: (text, params) => pool.query(text, params),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await work((text, params) => client.query(text, params));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        client.release();
      }
    },
  };
}

function pgliteRunner(client: PGlite): SqlRunner {
  return {
    query: (text, params) => client.query(text, params) as never,
    transaction: (work) =>
      client.transaction((tx) => work((text, params) => tx.query(text, params) as never)),
  };
}

const CLAIM = `insert into idempotency_keys (user_id, key, method, path, request_hash, status) values ($1, $2, $3, $4, $5, 'pending') on conflict do nothing returning key`;
const COMPLETE = `update idempotency_keys set status = 'done', status_code = $1, response_body = $2, response_headers = $3, completed_at = now() where user_id = $4 and key = $5 and status = 'pending'`;
const BET_FOR_WAGER = 'select * from bets where id = $1 limit 1 for no key update';
// A wager stamps its bet (the mirror's version of its totals); the trigger sets the version.
const STAMP_BET = 'update bets set version = 0 where id = $1 returning version';
const MEMBERSHIP = 'select * from memberships where group_id = $1 and user_id = $2 limit 1';
const DEBIT = `update memberships set total_points = total_points + $1, available_points = available_points + $2, updated_at = $3
  where group_id = $4 and user_id = $5 and left_at is null and available_points >= $6 returning *`;
const LEDGER =
  'insert into ledger (group_id, user_id, kind, total_delta, available_delta, bet_id, wager_id, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8)';
const BET_WAGERS = 'select * from wagers where bet_id in ($1) order by created_at asc, id asc';

/** The statements WagersService.placeWager and updateWager send, with the idempotency claim and answer around each. */
function referenceStep(runner: SqlRunner) {
  const write = async (
    userId: number,
    method: string,
    path: string,
    body: unknown,
    work: (query: Query) => Promise<Record<string, unknown>>,
  ) => {
    const key = randomUUID();
    await runner.query(CLAIM, [userId, key, method, path, 'h'.repeat(64)]);
    const row = await runner.transaction(work);
    await runner.query(COMPLETE, [
      method === 'POST' ? 201 : 200,
      JSON.stringify(row),
      JSON.stringify({ 'content-type': 'application/json' }),
      userId,
      key,
    ]);
    return row;
  };
  return async ({ userId, betId }: Pair) => {
    let t = performance.now();
    const wager = await write(userId, 'POST', '/api/bets/wagers', null, async (query) => {
      const at = new Date();
      const bet = (await query(BET_FOR_WAGER, [betId])).rows[0]!;
      await query(MEMBERSHIP, [bet.group_id, userId]);
      await query('select id from wagers where bet_id = $1 and user_id = $2 limit 1', [
        betId,
        userId,
      ]);
      const inserted = (
        await query(
          'insert into wagers (bet_id, user_id, prediction, points, created_at, updated_at) values ($1, $2, $3, $4, $5, $5) returning *',
          [betId, userId, 'yes', 10, at],
        )
      ).rows[0]!;
      const debited = await query(DEBIT, [0, -10, at, bet.group_id, userId, 10]);
      if (debited.rows.length === 0) throw new Error('insufficient points');
      await query(LEDGER, [bet.group_id, userId, 'wager_placed', 0, -10, betId, inserted.id, at]);
      await query(STAMP_BET, [betId]);
      await query(BET_WAGERS, [betId]);
      return inserted;
    });
    const first = performance.now() - t;
    t = performance.now();
    await write(userId, 'PUT', `/api/bets/wagers/${String(wager.id)}`, null, async (query) => {
      const at = new Date();
      const found = (await query('select * from wagers where id = $1 limit 1', [wager.id]))
        .rows[0]!;
      const bet = (await query(BET_FOR_WAGER, [found.bet_id])).rows[0]!;
      const current = (
        await query('select * from wagers where id = $1 limit 1 for update', [wager.id])
      ).rows[0]!;
      await query(MEMBERSHIP, [bet.group_id, userId]);
      const delta = Number(current.points) - 20;
      const debited = await query(DEBIT, [0, delta, at, bet.group_id, userId, -delta]);
      if (debited.rows.length === 0) throw new Error('insufficient points');
      await query(LEDGER, [bet.group_id, userId, 'wager_changed', 0, delta, betId, wager.id, at]);
      const updated = (
        await query(
          'update wagers set prediction = $1, points = $2, updated_at = $3 where id = $4 returning *',
          ['no', 20, at, wager.id],
        )
      ).rows[0]!;
      await query(STAMP_BET, [betId]);
      await query(BET_WAGERS, [betId]);
      return updated;
    });
    return [first, performance.now() - t];
  };
}

// ---- the benchmark ----

export async function run(driver: 'postgres' | 'pglite'): Promise<Section> {
  const create = driver === 'postgres' ? createPostgresDatabase : createPgliteDatabase;
  const databases: BenchDatabase[] = [];
  try {
    // The reference first, on its own copy of the same data.
    const refDb = await create();
    databases.push(refDb);
    const refWorld = await seedWorld(refDb.connection.db, SPEC);
    const pairs = pairsOf(refWorld);
    let reference: Outcome;
    if (driver === 'postgres') {
      await refDb.connection.close();
      const pool = new pg.Pool({ connectionString: refDb.location, max: POOL_SIZE });
      const step = referenceStep(pgRunner(pool));
      const warm = await drive(pairs, 0, WARM_UP_MS, step);
      reference = await drive(pairs, warm.next, DURATION_MS, step);
      await pool.end();
    } else {
      await refDb.connection.close();
      const client = await PGlite.create(refDb.location);
      const step = referenceStep(pgliteRunner(client));
      const warm = await drive(pairs, 0, WARM_UP_MS, step);
      reference = await drive(pairs, warm.next, DURATION_MS, step);
      await client.close();
    }
    log(
      `wagers-${driver} reference: ${(reference.transactions / reference.seconds).toFixed(0)} tx/s, ${reference.failures} failures ${reference.firstFailure ?? ''}`,
    );

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
    let subject: Outcome;
    try {
      subject = await driveApp(`http://127.0.0.1:${server.port}`, world, pairsOf(world));
    } finally {
      await server.stop();
    }
    log(
      `wagers-${driver} hunch: ${(subject.transactions / subject.seconds).toFixed(0)} tx/s, ${subject.failures} failures ${subject.firstFailure ?? ''}`,
    );

    // The ledger invariant, on the app's database.
    const check =
      driver === 'postgres'
        ? await createPoolCheck(appDb.location)
        : await createPgliteCheck(appDb.location);
    const name = driver === 'postgres' ? '2 wagers, PostgreSQL' : '3 wagers, PGlite';
    const sortedSubject = sortNumbers(subject.latencies);
    const sortedReference = sortNumbers(reference.latencies);
    return {
      id: `wagers-${driver}`,
      title: `Placing and changing wagers on ${driver === 'postgres' ? 'PostgreSQL' : 'embedded PGlite'} vs the same SQL ${driver === 'postgres' ? 'through pg directly' : 'in-process on PGlite'}`,
      settings: {
        data: SPEC,
        concurrency: CONCURRENCY,
        durationSeconds: DURATION_MS / 1000,
        warmUpSeconds: WARM_UP_MS / 1000,
        poolSize: driver === 'postgres' ? POOL_SIZE : 'PGlite (one connection)',
        perPair:
          'POST then PUT, each with an Idempotency-Key; push notifier on (PUSH_ENABLED default)',
        memberships: check.memberships,
      },
      rows: [
        atLeast(
          name,
          'writes',
          'tx/s',
          subject.transactions / subject.seconds,
          reference.transactions / reference.seconds,
          driver === 'postgres' ? 0.5 : 0.6,
        ),
        reported(
          name,
          'p99 latency',
          'ms',
          percentile(sortedSubject, 99),
          percentile(sortedReference, 99),
        ),
        budget(name, 'broken balances', 'memberships', check.broken, 0, 'max'),
      ],
      notes: [
        ...(subject.failures
          ? [`${subject.failures} Hunch pairs failed, first: ${subject.firstFailure}`]
          : []),
        ...(reference.failures
          ? [`${reference.failures} reference pairs failed, first: ${reference.firstFailure}`]
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
  const connection = fromPglite(await PGlite.create(dir));
  try {
    return await brokenBalances(connection);
  } finally {
    await connection.close();
  }
}
