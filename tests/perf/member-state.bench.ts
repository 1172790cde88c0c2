import pg from 'pg';
import { createPostgresDatabase, POOL_SIZE, seedWorld, type WorldSpec } from './lib/data';
import {
  cannon,
  mean,
  tokenFor,
  BENCH_JWT_SECRET,
  type CannonFigures,
  type CannonSettings,
} from './lib/load';
import { startChild } from './lib/processes';
import { atLeast, log, percentile, reported, sortNumbers, type Section } from './lib/report';

// Benchmark 4: one member's GET /api/member/state (10 groups of 20 members, 50 open bets in
// each; the member created 5 and already wagered on 10 of each group's bets, so 400 bets come
// back unwagered and 50 to resolve) on PostgreSQL, against the same queries sent through `pg`
// directly (pool of 10) by as many concurrent loops as autocannon has connections.

const SPEC: WorldSpec = {
  groups: 10,
  membersPerGroup: 20,
  betsPerGroup: 50,
  defaultPoints: 1000,
  baseWagerAmount: 10,
  extraMemberOfAll: true,
  viewerCreates: 5,
  viewerWagers: 10,
};
const SETTINGS: CannonSettings = { connections: 10, durationSeconds: 5, pipelining: 1 };
const ROUNDS = 2;

const GROUPS_SQL = `select g.id, g.name, m.*, u.display_name from memberships m
  join groups g on g.id = m.group_id join users u on u.id = m.user_id
  where m.user_id = $1 and m.left_at is null order by g.id asc`;
const UNWAGERED_SQL = `select * from bets b where b.group_id = any($1) and b.state = 'active' and b.expires_at > $2
  and not exists (select w.id from wagers w where w.bet_id = b.id and w.user_id = $3) order by b.expires_at asc, b.id asc`;
const TO_RESOLVE_SQL = `select * from bets where created_by = $1 and state = 'active' order by expires_at asc, id asc`;

/** The member-state queries of GroupsService.getMemberState and BetsService.memberStateBets, in the same order. */
async function referenceLoop(
  pool: pg.Pool,
  userId: number,
  ms: number,
): Promise<{ requests: number; seconds: number; latencies: number[] }> {
  const latencies: number[] = [];
  const t0 = performance.now();
  const deadline = t0 + ms;
  const loop = async () => {
    while (performance.now() < deadline) {
      const t = performance.now();
      const groups = await pool.query(GROUPS_SQL, [userId]);
      await pool.query(UNWAGERED_SQL, [
        groups.rows.map((row: { id: number }) => row.id),
        new Date(),
        userId,
      ]);
      await pool.query(TO_RESOLVE_SQL, [userId]);
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: SETTINGS.connections }, loop));
  return { requests: latencies.length, seconds: (performance.now() - t0) / 1000, latencies };
}

export async function run(): Promise<Section> {
  const database = await createPostgresDatabase();
  try {
    const world = await seedWorld(database.connection.db, SPEC);
    const viewerId = world.viewerId!;
    await database.connection.close();
    const server = await startChild('server-process.ts', {
      BENCH_MODE: 'hunch',
      BENCH_DB: 'postgres',
      BENCH_DB_LOCATION: database.location,
      JWT_SECRET: BENCH_JWT_SECRET,
    });
    const pool = new pg.Pool({ connectionString: database.location, max: POOL_SIZE });
    try {
      const url = `http://127.0.0.1:${server.port}/api/member/state`;
      const headers = { authorization: `Bearer ${await tokenFor(viewerId)}` };
      const probe = await fetch(url, { headers });
      const body = (await probe.json()) as {
        unwageredBets: object;
        betsToResolve: object;
        groups: object;
      };
      const shape = `${Object.keys(body.groups).length} groups, ${Object.keys(body.unwageredBets).length} unwagered bets, ${Object.keys(body.betsToResolve).length} to resolve, ${(JSON.stringify(body).length / 1024).toFixed(0)} KiB`;
      log(`member-state answer: ${probe.status}, ${shape}`);
      await cannon(url, { ...SETTINGS, durationSeconds: 2 }, headers);
      await referenceLoop(pool, viewerId, 2000);
      const subject: CannonFigures[] = [];
      const reference: { rps: number; p99: number; p50: number }[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const ref = await referenceLoop(pool, viewerId, SETTINGS.durationSeconds * 1000);
        const sorted = sortNumbers(ref.latencies);
        reference.push({
          rps: ref.requests / ref.seconds,
          p99: percentile(sorted, 99),
          p50: percentile(sorted, 50),
        });
        subject.push(await cannon(url, SETTINGS, headers));
        log(
          `member-state round ${round + 1}: hunch ${subject.at(-1)!.requestsPerSecond.toFixed(0)} req/s, pg ${reference.at(-1)!.rps.toFixed(0)} req/s`,
        );
      }
      const name = '4 member state';
      const bad = subject.reduce((sum, figures) => sum + figures.non2xx + figures.errors, 0);
      return {
        id: 'member-state',
        title:
          "One member's /api/member/state vs the same queries through pg directly (PostgreSQL)",
        settings: {
          data: SPEC,
          answer: shape,
          autocannon: SETTINGS,
          referenceLoops: SETTINGS.connections,
          poolSize: POOL_SIZE,
          rounds: ROUNDS,
          note: 'alternated rounds, figures are their means',
        },
        rows: [
          atLeast(
            name,
            'throughput',
            'req/s',
            mean(subject.map((f) => f.requestsPerSecond)),
            mean(reference.map((r) => r.rps)),
            0.5,
          ),
          reported(
            name,
            'p99 latency',
            'ms',
            mean(subject.map((f) => f.p99)),
            mean(reference.map((r) => r.p99)),
          ),
          reported(
            name,
            'p50 latency',
            'ms',
            mean(subject.map((f) => f.p50)),
            mean(reference.map((r) => r.p50)),
          ),
        ],
        notes: bad ? [`${bad} non-2xx responses or errors`] : [],
      };
    } finally {
      await pool.end();
      await server.stop();
    }
  } finally {
    await database.destroy();
  }
}
