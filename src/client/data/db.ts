import { Dexie, type EntityTable } from 'dexie';

// The client's local database `hunch` (ARCHITECTURE.md §8). Views read it with useLiveQuery;
// the sync engine writes server data into it. Only `meta` exists so far; groups,
// memberships, bets, wagers, leaderboard, userBubbles and outbox arrive with the group and
// bet features as version 2 (add a new `.version(n).stores(...)`, never edit an old one).
// Import this module only from lazily loaded screens: Dexie must stay off the landing
// page's path.

export interface MetaRow {
  key: string;
  value: unknown;
}

export type HunchDb = Dexie & {
  meta: EntityTable<MetaRow, 'key'>;
};

export function openHunchDb(name = 'hunch'): HunchDb {
  const db = new Dexie(name) as HunchDb;
  db.version(1).stores({
    meta: '&key',
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
