import { sql } from 'drizzle-orm';
import pg from 'pg';
import { bets, ledger, wagers } from '../../src/server/db/schema';
import type { Database } from '../../src/server/db/connect';
import { createPostgresDatabase, POOL_SIZE, seedWorld, type WorldSpec } from './lib/data';
import { random } from './lib/http';
import { tokenFor, BENCH_JWT_SECRET, type CannonSettings } from './lib/load';
import { startChild } from './lib/processes';
import { log, type Section } from './lib/report';
import { versusQueries } from './lib/versus-queries';

// Benchmark 9: one member's GET /api/groups/:id/members/:userId/stats on a large group (400
// members, 2,000 resolved yes/no bets with 30 wagers each, the member on 1,000 of them and
// their 2,000 ledger rows) on PostgreSQL, against the same reads sent through `pg` directly
// (the access check, the member, the bets they played, every wager of those bets, their
// ledger) by as many concurrent loops as autocannon has connections. What the ratio measures
// is the service's own work on top of its reads: the payout rule run over every bet played.

const SPEC: WorldSpec = {
  groups: 1,
  membersPerGroup: 400,
  betsPerGroup: 1,
  defaultPoints: 1000,
  baseWagerAmount: 10,
  extraMemberOfAll: true,
};
const RESOLVED_BETS = 2000;
const WAGERS_PER_BET = 30;
const SETTINGS: CannonSettings = { connections: 4, durationSeconds: 10, pipelining: 1 };
const ROUNDS = 2;

const READS = [
  `select * from groups where id = $1 limit 1`,
  `select * from memberships where group_id = $1 and user_id = $2 and left_at is null limit 1`,
  `select m.user_id, u.display_name, m.total_points from memberships m join users u on u.id = m.user_id
    where m.group_id = $1 and m.user_id = $2`,
];
const PLAYED_SQL = `select * from bets where group_id = $2 and state = 'resolved'
  and id in (select bet_id from wagers where user_id = any($1))`;
const WAGERS_SQL = `select id, bet_id, user_id, prediction, points, created_at from wagers where bet_id = any($1)`;
const LEDGER_SQL = `select created_at, total_delta from ledger where group_id = $1 and user_id = $2
  and total_delta <> 0 order by id asc`;

/** Resolved bets with their wagers (the member on every other one) and the member's payout rows. */
async function seedResolvedBets(
  db: Database,
  groupId: number,
  memberIds: number[],
  viewerId: number,
) {
  const next = random(9);
  const resolvedAt = new Date(Date.now() - 24 * 3600 * 1000);
  const others = memberIds.filter((id) => id !== viewerId);
  for (let start = 0; start < RESOLVED_BETS; start += 500) {
    const betRows = await db
      .insert(bets)
      .values(
        Array.from({ length: Math.min(500, RESOLVED_BETS - start) }, (_, index) => ({
          groupId,
          title: `Did bench event ${start + index + 1} happen?`,
          betType: 'yes_no' as const,
          betTypeConfig: {},
          baseWagerAmount: SPEC.baseWagerAmount,
          state: 'resolved' as const,
          expiresAt: new Date(resolvedAt.getTime() - 3600 * 1000),
          correctAnswer: next() < 0.5 ? 'yes' : 'no',
          resolvedAt: new Date(resolvedAt.getTime() + (start + index) * 1000),
          resolvedBy: others[0]!,
          createdBy: others[(start + index) % others.length]!,
        })),
      )
      .returning({ id: bets.id });
    const wagerValues = betRows.flatMap(({ id: betId }, index) => {
      const players = new Set<number>();
      if ((start + index) % 2 === 0) players.add(viewerId);
      while (players.size < WAGERS_PER_BET)
        players.add(others[Math.floor(next() * others.length)]!);
      return [...players].map((userId) => ({
        betId,
        userId,
        prediction: next() < 0.5 ? 'yes' : 'no',
        points: SPEC.baseWagerAmount * (1 + Math.floor(next() * 3)),
      }));
    });
    for (let offset = 0; offset < wagerValues.length; offset += 2000) {
      const rows = await db
        .insert(wagers)
        .values(wagerValues.slice(offset, offset + 2000))
        .returning({ id: wagers.id, betId: wagers.betId, userId: wagers.userId });
      const mine = rows.filter((row) => row.userId === viewerId);
      if (mine.length > 0)
        await db.insert(ledger).values(
          mine.flatMap((row) => [
            {
              groupId,
              userId: viewerId,
              kind: 'wager_placed' as const,
              totalDelta: 0,
              availableDelta: -10,
              betId: row.betId,
              wagerId: row.id,
            },
            {
              groupId,
              userId: viewerId,
              kind: 'payout' as const,
              totalDelta: next() < 0.5 ? 12 : -10,
              availableDelta: 0,
              betId: row.betId,
              wagerId: row.id,
            },
          ]),
        );
    }
  }
  await db.execute(sql`analyze`);
}

/** The service's reads, in its order, with nothing computed from them. */
async function referenceRequest(pool: pg.Pool, groupId: number, userId: number) {
  await pool.query(READS[0]!, [groupId]);
  await pool.query(READS[1]!, [groupId, userId]);
  await pool.query(READS[2]!, [groupId, userId]);
  const played = await pool.query(PLAYED_SQL, [[userId], groupId]);
  await pool.query(WAGERS_SQL, [played.rows.map((row: { id: number }) => row.id)]);
  await pool.query(LEDGER_SQL, [groupId, userId]);
}

export async function run(): Promise<Section> {
  const database = await createPostgresDatabase();
  try {
    const world = await seedWorld(database.connection.db, SPEC);
    const viewerId = world.viewerId!;
    const group = world.groups[0]!;
    await seedResolvedBets(database.connection.db, group.id, group.memberIds, viewerId);
    await database.connection.close();
    const server = await startChild('server-process.ts', {
      BENCH_MODE: 'hunch',
      BENCH_DB: 'postgres',
      BENCH_DB_LOCATION: database.location,
      JWT_SECRET: BENCH_JWT_SECRET,
    });
    const pool = new pg.Pool({ connectionString: database.location, max: POOL_SIZE });
    try {
      const url = `http://127.0.0.1:${server.port}/api/groups/${group.id}/members/${viewerId}/stats`;
      const headers = { authorization: `Bearer ${await tokenFor(viewerId)}` };
      const probe = await fetch(url, { headers });
      const body = (await probe.json()) as { betsPlayed: number; won: number; lost: number };
      const shape = `${probe.status}: ${body.betsPlayed} bets played (${body.won} won, ${body.lost} lost)`;
      log(`member-stats answer: ${shape}`);
      const { rows, notes } = await versusQueries({
        name: '9 member stats',
        label: 'member-stats',
        url,
        headers,
        settings: SETTINGS,
        rounds: ROUNDS,
        goal: 0.5,
        request: () => referenceRequest(pool, group.id, viewerId),
      });
      return {
        id: 'member-stats',
        title:
          "One member's stats in a large group vs the same reads through pg directly (PostgreSQL)",
        settings: {
          data: { ...SPEC, resolvedBets: RESOLVED_BETS, wagersPerBet: WAGERS_PER_BET },
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
