import { Dexie, type EntityTable, type Table } from 'dexie';
import type { UserBubble } from '../../domain/auth';
import type { Bet, BetStatistics, Wager } from '../../domain/bets';
import type { Group, Membership } from '../../domain/groups';

// The client's local database `hunch` (ARCHITECTURE.md §8). Views read it with useLiveQuery;
// the sync engine and the actions write server data into it. Each schema change is a new
// `.version(n).stores(...)` on a new SCHEMA_Vn built from the last; never edit an old version.
// Version 3 adds bets, wagers and cached bet statistics; version 4 the outbox.
// Import this module only from lazily loaded code: Dexie must stay off the landing page's path.

/** The meta row holding when the sync engine last wrote the server's answer (ms since the epoch). */
export const LAST_SYNCED_KEY = 'lastSyncedAt';

export interface MetaRow {
  key: string;
  value: unknown;
}

/**
 * A group as far as this device knows it. /member/state names only id and name; the group
 * list and GET /groups/{id} fill in the rest, so every other field may still be missing.
 */
export type GroupRow = Pick<Group, 'id' | 'name'> & Partial<Omit<Group, 'id' | 'name'>> & PendingMark;

/** One member's place on a group's leaderboard (GET /groups/{id}/leaderboard). */
export interface LeaderboardRow {
  groupId: number;
  userId: number;
  name: string;
  points: number;
}

/**
 * A bet as the server sends it (betSchema), plus where this device learnt of it. The queue
 * flags mirror /member/state's maps (spec 02 §4 "Client bet lists"): whoever adds or removes a
 * bet from a queue (sync, actions, socket events) sets them. Fields a socket payload lacks
 * (betCreated has no description, state, dates) may be filled with placeholders until a load.
 */
export type BetRow = Bet & PendingMark & {
  /** In /member/state's unwageredBets: the player has not wagered yet (the bet queue's candidates). */
  isUnwagered?: boolean;
  /** In /member/state's betsToResolve: the player created it and it awaits resolution. */
  isToResolve?: boolean;
  /**
   * Loaded by a group bet list or the bet page too: a sync that no longer lists the bet in
   * its queues only clears the flags instead of deleting the row.
   */
  isListed?: boolean;
};

/** A wager as the server sends it (wagerSchema). The player's own come from user-context and GET /bets/user/wagers. */
export type WagerRow = Wager & PendingMark;

/** GET /bets/{id}/statistics (or a group list's `statistics`), kept so results stay readable offline. */
export interface BetStatisticsRow {
  betId: number;
  statistics: BetStatistics;
  /** ms since the epoch. */
  fetchedAt: number;
}

export type HunchDb = Dexie & {
  meta: EntityTable<MetaRow, 'key'>;
  groups: EntityTable<GroupRow, 'id'>;
  /** The signed-in user's memberships, from /member/state and the group actions. */
  memberships: Table<Membership & PendingMark, [number, number]>;
  leaderboard: Table<LeaderboardRow, [number, number]>;
  userBubbles: EntityTable<UserBubble, 'id'>;
  bets: EntityTable<BetRow, 'id'>;
  wagers: EntityTable<WagerRow, 'id'>;
  betStatistics: EntityTable<BetStatisticsRow, 'betId'>;
  /** Writes not yet confirmed by the server (ARCHITECTURE.md §8; data/outbox.ts). */
  outbox: EntityTable<OutboxEntry, 'id'>;
};

export type OutboxKind = 'createGroup' | 'joinGroup' | 'createBet' | 'placeWager' | 'updateWager' | 'resolveBet' | 'cancelBet';
/** The tables an optimistic write may touch (and a rollback restores). */
export type OutboxTable = 'groups' | 'memberships' | 'bets' | 'wagers';

/** One row as it was before an optimistic write: restored on rollback (no `previous` = the row did not exist). */
export interface OutboxUndo {
  table: OutboxTable;
  key: number | [number, number];
  previous?: unknown;
}

/**
 * A write the server has not confirmed yet. `id` is its Idempotency-Key; rows it changed
 * optimistically carry `pendingWriteId: id` until the answer lands, and `undo` restores them
 * if the server refuses it.
 */
export interface OutboxEntry {
  id: string;
  userId: number;
  kind: OutboxKind;
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  /** ms since the epoch: the outbox is sent oldest first. */
  createdAt: number;
  status: 'pending' | 'sending' | 'failed';
  error?: string;
  attempts: number;
  undo: OutboxUndo[];
  /** What the kind's success step needs, e.g. the temporary id of a created group or bet. */
  meta?: { tempId?: number; groupId?: number; betId?: number };
}

/** A row changed by a write the server has not confirmed yet: the views show it as pending. */
export interface PendingMark {
  pendingWriteId?: string;
}

// Each version's whole schema, built on the one before (a version repeats the tables it keeps).
const SCHEMA_V1 = { meta: '&key' };
const SCHEMA_V2 = {
  ...SCHEMA_V1,
  groups: '&id, name',
  memberships: '&[groupId+userId], groupId, userId',
  leaderboard: '&[groupId+userId], groupId',
  userBubbles: '&id',
};
const SCHEMA_V3 = {
  ...SCHEMA_V2,
  bets: 'id, groupId, state, expiresAt, createdBy',
  wagers: 'id, betId, userId, [betId+userId]',
  betStatistics: '&betId',
};
const SCHEMA_V4 = { ...SCHEMA_V3, outbox: 'id, createdAt, status, userId' };

export function openHunchDb(name = 'hunch'): HunchDb {
  const db = new Dexie(name) as HunchDb;
  db.version(1).stores(SCHEMA_V1);
  db.version(2).stores(SCHEMA_V2);
  db.version(3).stores(SCHEMA_V3);
  db.version(4).stores(SCHEMA_V4);
  return db;
}

export const db = openHunchDb();

/** Signing out, or another user signing in, clears the local mirror (ARCHITECTURE.md §8). */
export async function clearLocalData(database: HunchDb = db): Promise<void> {
  await database.transaction('rw', database.tables, async () => {
    await Promise.all(database.tables.map((table) => table.clear()));
  });
}
