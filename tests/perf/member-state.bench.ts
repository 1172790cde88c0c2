import pg from 'pg';
import { createPostgresDatabase, POOL_SIZE, seedWorld, type WorldSpec } from './lib/data';
import { tokenFor, BENCH_JWT_SECRET, type CannonSettings } from './lib/load';
import { startChild } from './lib/processes';
import { log, type Section } from './lib/report';
import { versusQueries } from './lib/versus-queries';

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
const ACTIVE_BETS_SQL = `select b.*, w.id is not null as wagered, case when b.group_id = any($3::integer[]) and b.created_by <> $1
  then b.group_id in (select m.group_id from memberships m where m.user_id = b.created_by and m.left_at is null) else true end
  as creator_is_member from bets b left join wagers w on w.bet_id = b.id and w.user_id = $1
  where b.group_id = any($2::integer[]) and b.state = 'active' order by b.expires_at asc, b.id asc`;

/** The member-state queries of the mirror's memberState (group-mirror's readOwnMemberships, bet-mirror's readBetQueues), in the same order. */
async function referenceRequest(pool: pg.Pool, userId: number) {
  const groups = await pool.query<{ id: number; role: string }>(GROUPS_SQL, [userId]);
  await pool.query(ACTIVE_BETS_SQL, [
    userId,
    groups.rows.map((row) => row.id),
    groups.rows.filter((row) => row.role === 'admin').map((row) => row.id),
  ]);
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
      const { rows, notes } = await versusQueries({
        name: '4 member state',
        label: 'member-state',
        url,
        headers,
        settings: SETTINGS,
        rounds: ROUNDS,
        goal: 0.5,
        request: () => referenceRequest(pool, viewerId),
      });
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
        rows,
        notes,
      };
    } finally {
      await pool.end();
      await server.stop();
    }
  } finally {
    await database.destroy();
  }
}
