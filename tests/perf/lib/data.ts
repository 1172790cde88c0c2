import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import {
  createPglite,
  fromPglite,
  fromPool,
  type Database,
  type DatabaseConnection,
} from '../../../src/server/db/connect';
import {
  bets,
  groups,
  ledger,
  memberships,
  resolveReminders,
  users,
  wagers,
} from '../../../src/server/db/schema';
import { resolveReminderDueAt } from '../../../src/domain/notifications';

// The benchmarks' databases and data: a fresh PostgreSQL database of their own (dropped
// afterwards) or a fresh file-backed PGlite directory (the default deployment), migrated, then
// filled by a deterministic generator: on a fresh database the same spec gives the same ids,
// so a reference run on another copy addresses the very same rows.

export const BENCH_POSTGRES_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
/** The app's own pool size (connectDatabase); the references use the same. */
export const POOL_SIZE = 10;

export interface BenchDatabase {
  connection: DatabaseConnection;
  /** postgres://… of the bench database, or the PGlite directory. */
  location: string;
  /** Closes the connection (if still open) and drops the database / deletes the directory. */
  destroy(): Promise<void>;
}

export async function createPostgresDatabase(): Promise<BenchDatabase> {
  const name = `hunch_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: BENCH_POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(BENCH_POSTGRES_URL);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: POOL_SIZE });
  const connection = fromPool(pool);
  await connection.migrate();
  let open = true;
  return {
    connection: {
      ...connection,
      close: async () => {
        if (open) {
          open = false;
          await pool.end();
        }
      },
    },
    location: url.toString(),
    async destroy() {
      if (open) {
        open = false;
        await pool.end();
      }
      const dropper = new pg.Client({ connectionString: BENCH_POSTGRES_URL });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}

export async function createPgliteDatabase(): Promise<BenchDatabase> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hunch-bench-pglite-'));
  const client = await createPglite(dir);
  const connection = fromPglite(client);
  await connection.migrate();
  let open = true;
  return {
    connection: {
      ...connection,
      close: async () => {
        if (open) {
          open = false;
          await client.close();
        }
      },
    },
    location: dir,
    async destroy() {
      if (open) {
        open = false;
        await client.close();
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface WorldSpec {
  groups: number;
  membersPerGroup: number;
  betsPerGroup: number;
  /** Every member's starting points in every group. */
  defaultPoints: number;
  baseWagerAmount: number;
  /** Members of every group besides their own members (the member-state viewer). */
  extraMemberOfAll?: boolean;
  /** Of each group's bets, how many the viewer created / already wagered on. */
  viewerCreates?: number;
  viewerWagers?: number;
}

export interface World {
  userIds: number[];
  groups: { id: number; memberIds: number[]; betIds: number[] }[];
  /** The user who is a member of every group (when extraMemberOfAll). */
  viewerId?: number;
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let index = 0; index < items.length; index += size)
    out.push(items.slice(index, index + size));
  return out;
}

/** Fills an empty, migrated database; memberships and ledger agree (one join grant each), as the app writes them. */
export async function seedWorld(db: Database, spec: WorldSpec): Promise<World> {
  const now = new Date();
  const expiresAt = new Date(now.getTime() + 30 * 24 * 3600 * 1000);
  const userCount = spec.groups * spec.membersPerGroup + (spec.extraMemberOfAll ? 1 : 0);
  const userIds: number[] = [];
  for (const batch of chunks(
    Array.from({ length: userCount }, (_, index) => index),
    500,
  )) {
    const rows = await db
      .insert(users)
      .values(
        batch.map((index) => ({
          appName: 'hunch',
          displayName: `Bench player ${index + 1}`,
          isTemporary: true,
        })),
      )
      .returning({ id: users.id });
    userIds.push(...rows.map((row) => row.id));
  }
  const viewerId = spec.extraMemberOfAll ? userIds[userIds.length - 1] : undefined;
  const world: World = { userIds, groups: [], ...(viewerId ? { viewerId } : {}) };
  for (let g = 0; g < spec.groups; g += 1) {
    const memberIds = userIds.slice(g * spec.membersPerGroup, (g + 1) * spec.membersPerGroup);
    const allMembers = viewerId ? [...memberIds, viewerId] : memberIds;
    const [group] = await db
      .insert(groups)
      .values({
        name: `Bench group ${g + 1}`,
        privacy: 'public',
        defaultPoints: spec.defaultPoints,
        createdByUserId: allMembers[0]!,
      })
      .returning({ id: groups.id });
    const groupId = group!.id;
    for (const batch of chunks(allMembers, 500)) {
      await db.insert(memberships).values(
        batch.map((userId) => ({
          groupId,
          userId,
          role: userId === allMembers[0] ? ('admin' as const) : ('member' as const),
          totalPoints: spec.defaultPoints,
          availablePoints: spec.defaultPoints,
          joinedAt: now,
          updatedAt: now,
        })),
      );
      await db.insert(ledger).values(
        batch.map((userId) => ({
          groupId,
          userId,
          kind: 'join_grant' as const,
          totalDelta: spec.defaultPoints,
          availableDelta: spec.defaultPoints,
          createdAt: now,
        })),
      );
    }
    const betRows = await db
      .insert(bets)
      .values(
        Array.from({ length: spec.betsPerGroup }, (_, index) => ({
          groupId,
          title: `Will bench event ${index + 1} happen?`,
          betType: 'yes_no' as const,
          betTypeConfig: {},
          baseWagerAmount: spec.baseWagerAmount,
          expiresAt: new Date(expiresAt.getTime() + index * 60_000),
          createdBy:
            viewerId && index < (spec.viewerCreates ?? 0)
              ? viewerId
              : memberIds[index % memberIds.length]!,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .returning({ id: bets.id, state: bets.state, expiresAt: bets.expiresAt });
    const betIds = betRows.map((row) => row.id);
    // Their resolve reminders' schedule, as the app's createBet writes it.
    await db
      .insert(resolveReminders)
      .values(betRows.map((row) => ({ betId: row.id, dueAt: resolveReminderDueAt(row)! })));
    if (viewerId && spec.viewerWagers) {
      // The viewer's wagers, debited through the ledger like the app does.
      const wagered = betIds.slice(spec.betsPerGroup - spec.viewerWagers);
      const rows = await db
        .insert(wagers)
        .values(
          wagered.map((betId) => ({
            betId,
            userId: viewerId,
            prediction: 'yes',
            points: spec.baseWagerAmount,
            createdAt: now,
            updatedAt: now,
          })),
        )
        .returning({ id: wagers.id, betId: wagers.betId });
      await db.insert(ledger).values(
        rows.map((row) => ({
          groupId,
          userId: viewerId,
          kind: 'wager_placed' as const,
          totalDelta: 0,
          availableDelta: -spec.baseWagerAmount,
          betId: row.betId,
          wagerId: row.id,
          createdAt: now,
        })),
      );
      const spent = spec.baseWagerAmount * rows.length;
      await db.execute(
        sql`update memberships set available_points = available_points - ${spent} where group_id = ${groupId} and user_id = ${viewerId}`,
      );
    }
    world.groups.push({ id: groupId, memberIds: allMembers, betIds });
  }
  // A live database has planner statistics (autovacuum); a freshly filled one has none yet.
  await db.execute(sql`analyze`);
  return world;
}

/** The session (refresh token family) of a bench user, which `tokenFor` (load.ts) names. */
export function benchSessionFamily(userId: number): string {
  return `bench-session-${userId}`;
}

/**
 * A live session for every user (one bench user first on an empty database, benchmark 1's),
 * as a sign-in would leave it: the bench's tokens name it, and a token passes only while its
 * session lives. Idempotent.
 */
export async function seedBenchSessions(db: Database): Promise<void> {
  const [existing] = await db.select({ id: users.id }).from(users).limit(1);
  if (!existing)
    await db
      .insert(users)
      .values({ appName: 'hunch', displayName: 'Bench player', isTemporary: true });
  await db.execute(sql`
    insert into refresh_tokens (user_id, token_hash, family_id, app_name, expires_at)
    select id, 'bench-refresh-' || id, 'bench-session-' || id, 'hunch', now() + interval '1 day'
    from users
    on conflict (token_hash) do nothing`);
}

/**
 * The ledger invariant (docs/architecture.md §4): every membership's points equal its ledger sums
 * and available points are never negative. Returns the number of broken memberships.
 */
export async function brokenBalances(
  connection: DatabaseConnection,
): Promise<{ memberships: number; broken: number }> {
  const result = (await connection.db.execute(
    sql.raw(`select count(*)::int as memberships,
            count(*) filter (where m.total_points <> coalesce(l.total, 0) or m.available_points <> coalesce(l.available, 0) or m.available_points < 0 or m.available_points > m.total_points)::int as broken
       from memberships m
       left join (select group_id, user_id, sum(total_delta) as total, sum(available_delta) as available from ledger group by group_id, user_id) l
         on l.group_id = m.group_id and l.user_id = m.user_id`),
  )) as unknown as { rows: { memberships: number; broken: number }[] };
  const row = result.rows[0]!;
  return { memberships: Number(row.memberships), broken: Number(row.broken) };
}
