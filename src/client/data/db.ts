import { Dexie, type EntityTable, type Table } from 'dexie';
import type { UserBubble } from '../../domain/auth';
import type { Group, Membership } from '../../domain/groups';

// The client's local database `hunch` (ARCHITECTURE.md §8). Views read it with useLiveQuery;
// the sync engine and the actions write server data into it. Each schema change is a new
// `.version(n).stores(...)` that repeats the tables it keeps; never edit an old version.
// Bets, wagers and the outbox arrive as version 3.
// Import this module only from lazily loaded code: Dexie must stay off the landing page's path.

export interface MetaRow {
  key: string;
  value: unknown;
}

/**
 * A group as far as this device knows it. /member/state names only id and name; the group
 * list and GET /groups/{id} fill in the rest, so every other field may still be missing.
 */
export type GroupRow = Pick<Group, 'id' | 'name'> & Partial<Omit<Group, 'id' | 'name'>>;

/** One member's place on a group's leaderboard (GET /groups/{id}/leaderboard). */
export interface LeaderboardRow {
  groupId: number;
  userId: number;
  name: string;
  points: number;
}

export type HunchDb = Dexie & {
  meta: EntityTable<MetaRow, 'key'>;
  groups: EntityTable<GroupRow, 'id'>;
  /** The signed-in user's memberships, from /member/state and the group actions. */
  memberships: Table<Membership, [number, number]>;
  leaderboard: Table<LeaderboardRow, [number, number]>;
  userBubbles: EntityTable<UserBubble, 'id'>;
};

export function openHunchDb(name = 'hunch'): HunchDb {
  const db = new Dexie(name) as HunchDb;
  db.version(1).stores({
    meta: '&key',
  });
  db.version(2).stores({
    meta: '&key',
    groups: '&id, name',
    memberships: '&[groupId+userId], groupId, userId',
    leaderboard: '&[groupId+userId], groupId',
    userBubbles: '&id',
  });
  return db;
}

export const db = openHunchDb();

/** Signing out, or another user signing in, clears the local mirror (ARCHITECTURE.md §8). */
export async function clearLocalData(database: HunchDb = db): Promise<void> {
  await database.transaction('rw', database.tables, async () => {
    await Promise.all(database.tables.map((table) => table.clear()));
  });
}
