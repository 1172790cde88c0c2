import { Dexie, type EntityTable, type Table, type Transaction } from 'dexie';
import type { Bet, BetStatistics, Wager } from '../../domain/bets';
import type { Comment } from '../../domain/comments';
import type { BetHistoryEntry } from '../../domain/fair-resolution';
import type { Group, Membership } from '../../domain/groups';
import type { MemberStats } from '../../domain/member-stats';
import type { Notification, NotificationSettings } from '../../domain/notifications';
import type { LeaderboardPeriod, PeriodLeaderboard } from '../../domain/leaderboard-periods';
import type { MirrorRound } from '../../domain/rounds';
import type { Season } from '../../domain/seasons';
import { upgradeToNamedWrites } from './legacy-request';
import { SYNCED_STORES, type MirrorTable, type SyncedKey, type SyncedRow } from './synced-tables';

// The client's local database `hunch` (docs/architecture.md §8). Views read it with useLiveQuery;
// the sync engine and the actions write server data into it. The synced tables' stores come from
// their entries in synced-tables.ts: a table or an index added there is added to the schema of
// the current version by Dexie itself, with no version of its own. A new version (a new
// SCHEMA_Vn built from the last, never an old one edited) is for what Dexie cannot infer: moving
// data, dropping a table, or a table outside the mirror.
// Version 3 adds bets, wagers and cached bet statistics; version 4 the outbox; version 5 the mirror;
// version 6 the comments on bets; version 7 each bet's history; version 8 the inbox and its
// settings; version 9 the period leaderboards last seen; version 10 the member stats last seen;
// version 12 the groups' seasons with their standings; version 13 the writes held after a
// session ended; version 14 the bet indexes the dashboard walks, and the synced tables' stores
// read from synced-tables.ts from then on; version 15 names every queued write by the write it
// is (legacy-request.ts).
// Import this module only from lazily loaded code: Dexie must stay off the landing page's path.

/** The meta row holding when the sync engine last wrote the server's answer (ms since the epoch). */
export const LAST_SYNCED_KEY = 'lastSyncedAt';

/** The meta row holding the mirror's pull cursor: `{ userId, cursor }` (sync-engine.ts). */
export const CURSOR_KEY = 'mirrorCursor';

/** The meta row mapping a temporary id (a group or bet created offline) to the server's: `{ [tempId]: realId }`. */
export const TEMP_IDS_KEY = 'tempIds';

/** The meta row naming the local data's writer for the push: `{ clientID, lastMutationID }` (sync-client.ts). */
export const SYNC_CLIENT_KEY = 'syncClient';

/** The meta row holding the last pull's `lastMutationIDChanges`: `{ [clientID]: last id }` (sync-engine.ts). */
export const SYNC_LAST_IDS_KEY = 'syncLastMutationIDs';

interface MetaRow {
  key: string;
  value: unknown;
}

/** A row changed by a write the server has not confirmed yet: the views show it as pending. */
interface PendingMark {
  pendingWriteId?: string;
}

/** The server's version of a mirrored row (src/domain/mirror.ts); absent on rows only this device wrote. */
interface Versioned {
  version?: number;
}

/**
 * A group: the mirror holds every group the player belongs to (MirrorGroup). A public group
 * viewed from outside (GET /groups/{id}) may be stored too, without a version, until the next
 * reset.
 */
export type GroupRow = Pick<Group, 'id' | 'name'> &
  Partial<Omit<Group, 'id' | 'name'>> &
  Versioned &
  PendingMark;

/** Every member of each of the player's groups: the leaderboard and the members list are queries over these. */
export type MembershipRow = Membership & Versioned & PendingMark;

/** A bet in any state with its live answer totals and wager count (MirrorBet). */
export type BetRow = Bet & Versioned & PendingMark;

/** The player's own wagers only (others' picks stay hidden, docs/architecture.md §5). */
export type WagerRow = Wager & Versioned & PendingMark;

/** A resolved bet's statistics as the player sees them. */
export interface BetStatisticsRow extends Versioned {
  betId: number;
  statistics: BetStatistics;
}

/**
 * A comment on a bet of the player's groups. A deleted one stays as a tombstone (`deletedAt`
 * set, text empty) so an older copy arriving late (an event) never brings it back; views skip it.
 */
export type CommentRow = Comment & Versioned & PendingMark;

/** A line of a bet's history: only ever added, by the server. */
export type BetHistoryRow = BetHistoryEntry & Versioned;

/** An entry of the player's inbox (kept 30 days after its last activity). */
export type NotificationRow = Notification & PendingMark;

/** The one row of the player's notification settings (push kinds, mutes): key SETTINGS_ROW_ID (synced-tables.ts). */
export type NotificationSettingsRow = NotificationSettings & { id: number } & PendingMark;

/**
 * A period leaderboard as the server last answered it: not part of the mirror's pull; offline
 * the mirror's own sums stand in (mirror-results.ts), this copy only while the mirror holds
 * nothing of the group. `from` says which week or month it is.
 */
export type PeriodLeaderboardRow = PeriodLeaderboard & {
  period: LeaderboardPeriod;
  /** When it was fetched (ms since the epoch). */
  fetchedAt: number;
};

/** A season of one of the player's groups, its final standings inside once it ended (read offline). */
export type SeasonRow = Season & Versioned & PendingMark;

/** A tipping round of one of the player's groups with its matches (their bets hold the rest). */
export type RoundRow = MirrorRound & PendingMark;

/** A mirrored row's key (its table's `key` in synced-tables.ts, which lists the mirrored tables). */
export type MirrorKey = number | [number, number];

/**
 * The server's copy of a row a pending write changed (data/mutators.ts): `value` null = the
 * row did not exist. A rebase puts these back, then re-applies the pending writes.
 */
export interface ShadowRow {
  /** `${table}:${JSON.stringify(key)}` */
  id: string;
  table: MirrorTable;
  key: MirrorKey;
  value: object | null;
}

/** The synced tables, typed by their entries in synced-tables.ts. */
type SyncedTables = { [T in MirrorTable]: Table<SyncedRow<T>, SyncedKey<T>> };

export type HunchDb = Dexie &
  SyncedTables & {
    meta: EntityTable<MetaRow, 'key'>;
    memberStats: EntityTable<MemberStatsRow, 'key'>;
    /** Writes not yet confirmed by the server (docs/architecture.md §8; data/outbox.ts). */
    outbox: EntityTable<OutboxEntry, 'id'>;
    shadow: EntityTable<ShadowRow, 'id'>;
    /** Writes of a session that ended before they were sent (data/session-end.ts). */
    held: EntityTable<HeldWrite, 'id'>;
    periodLeaderboards: Table<PeriodLeaderboardRow, [number, LeaderboardPeriod]>;
  };

/** What a version 4 outbox entry said it was (legacy-request.ts makes it that write). */
export type OutboxKind =
  | 'createGroup'
  | 'joinGroup'
  | 'createBet'
  | 'placeWager'
  | 'updateWager'
  | 'resolveBet'
  | 'cancelBet';

/**
 * A named mutator waiting for (or refused by) the server, pushed as mutation `mutationID` of
 * client `clientID` in client group `clientGroupID` (sync-client.ts; numbered when queued).
 * - pending / sending: applied on top of the server's rows after every pull;
 * - answered: the server accepted it; still applied until a pull reports its client's last
 *   mutation id at or past `mutationID` (that pull's rows hold its effect);
 * - failed: refused by the server while nobody waited on it; not applied; the sync status
 *   sheet offers Retry and Discard.
 */
export interface OutboxEntry {
  id: string;
  userId: number;
  /** The write it is: a registered mutator's name (data/mutators.ts), one of the domain's writes (src/domain/sync.ts). */
  mutator: string;
  args: unknown;
  /** ms since the epoch: sent and re-applied oldest first. */
  createdAt: number;
  status: 'pending' | 'sending' | 'answered' | 'failed';
  attempts: number;
  /** Why it is waiting, or for a refused one the sentence naming it (data/write-refusal.ts). */
  error?: string;
  /** A refused one's code from the server: whether a retry may get through. */
  errorCode?: string;
  clientGroupID?: string;
  clientID?: string;
  mutationID?: number;
}

/**
 * A write still waiting when its session ended, out of the outbox: it is never sent by itself.
 * Its player decides at their next sign-in on this device (Send puts it back in the outbox,
 * Discard drops it); another player signing in drops it. Only what the player asked for is kept
 * (the mutator and its arguments), nothing of the mirror, and the client and mutation id it was
 * numbered with, so a write that did reach the server never applies twice (held-writes.ts).
 */
export interface HeldWrite {
  id: string;
  userId: number;
  mutator: string;
  args: unknown;
  createdAt: number;
  clientID?: string;
  mutationID?: number;
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
// The mirror: memberships hold every member (the leaderboard is a query over them),
// rows carry versions, the queue flags and the leaderboard / bubbles tables go, `shadow` holds
// the server's copy of rows pending writes changed.
const SCHEMA_V5 = { ...SCHEMA_V4, leaderboard: null, userBubbles: null, shadow: '&id' };
// Comments on bets: a thread is a query by bet; a group leaving the view drops its own.
const SCHEMA_V6 = { ...SCHEMA_V5, comments: 'id, betId, groupId' };
// Each bet's history: read by bet, dropped with its group.
const SCHEMA_V7 = { ...SCHEMA_V6, betHistory: 'id, betId, groupId' };
// The inbox, newest activity first, and the player's one settings row.
const SCHEMA_V8 = { ...SCHEMA_V7, notifications: 'id, updatedAt', notificationSettings: '&id' };
// Period leaderboards last seen, one per group and period.
const SCHEMA_V9 = { ...SCHEMA_V8, periodLeaderboards: '&[groupId+period]' };

// The last answer of each member-stats call seen, so a profile read once reads offline
// (data/member-stats.ts). Not part of the mirror: the server computes them.
const SCHEMA_V10 = { ...SCHEMA_V9, memberStats: '&key' };

// The groups' seasons (mirrored): read by group, dropped with it.
const SCHEMA_V12 = { ...SCHEMA_V10, seasons: 'id, groupId' };

// The writes held after a session ended, per player (outside the mirror: a sign-out keeps them).
const SCHEMA_V13 = { ...SCHEMA_V12, held: 'id, userId' };

// The synced tables' stores are their entries' (synced-tables.ts): the newest version declares
// them all. Version 16 added the tipping rounds.
const SCHEMA_V16 = { ...SCHEMA_V13, ...SYNCED_STORES };

// The dashboard's reads walk the active bets by close time and a group's bets by creator
// (bets/use-bets.ts), so their cost follows what they show, not how many bets are held.
// Version 14 declared the bets' indexes as synced-tables.ts does, and no rounds yet.
const { rounds: _roundsSince16, ...SCHEMA_V14 } = SCHEMA_V16;

/** A member's stats as last fetched: `key` is `${groupId}:${userId}:${vs ?? ''}`. */
export interface MemberStatsRow {
  key: string;
  stats: MemberStats;
  fetchedAt: string;
}

export function openHunchDb(name = 'hunch'): HunchDb {
  const db = new Dexie(name) as HunchDb;
  db.version(1).stores(SCHEMA_V1);
  db.version(2).stores(SCHEMA_V2);
  db.version(3).stores(SCHEMA_V3);
  db.version(4).stores(SCHEMA_V4);
  db.version(5).stores(SCHEMA_V5).upgrade(upgradeToMirror);
  // A new table only: the next pull from the stored cursor brings no old comments, so it starts over.
  db.version(6).stores(SCHEMA_V6).upgrade(forgetCursor);
  // The same again: a new table, and bets now carry their picks once closed; start over.
  db.version(7).stores(SCHEMA_V7).upgrade(forgetCursor);
  // New tables only: as for 6, the next pull starts over to bring the inbox whole.
  db.version(8).stores(SCHEMA_V8).upgrade(forgetCursor);
  // A table outside the pull: the cursor stays.
  db.version(9).stores(SCHEMA_V9);
  // A cache table only, as for 9.
  db.version(10).stores(SCHEMA_V10);
  // A new mirrored table: as for 6, the next pull starts over to bring every season.
  db.version(12).stores(SCHEMA_V12).upgrade(forgetCursor);
  // A table outside the pull: the cursor stays.
  db.version(13).stores(SCHEMA_V13);
  // New indexes only: IndexedDB builds them over the rows held, the cursor stays.
  db.version(14).stores(SCHEMA_V14);
  // No new store: the queued and held writes are named by the write each is (legacy-request.ts).
  db.version(15).stores(SCHEMA_V14).upgrade(upgradeToNamedWrites);
  // A new mirrored table: as for 6, the next pull starts over to bring every round.
  db.version(16).stores(SCHEMA_V16).upgrade(forgetCursor);
  return db;
}

/** The request a version 4 outbox entry held: from version 15 on, the write it names (legacy-request.ts). */
export interface LegacyRequestArgs {
  kind: OutboxKind;
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
}

/**
 * Version 4 → 5 in place: the pending writes survive as `request` entries holding their request
 * (version 15 makes each the write it is); their optimistic rows are not re-drawn. The
 * old rows stay until the first pull, which starts from nothing (no cursor) and replaces them.
 */
async function upgradeToMirror(tx: Transaction): Promise<void> {
  await tx
    .table('outbox')
    .toCollection()
    .modify((entry: Record<string, unknown>) => {
      if (typeof entry.mutator === 'string') return;
      const args: LegacyRequestArgs = {
        kind: entry.kind as OutboxKind,
        method: entry.method as LegacyRequestArgs['method'],
        path: entry.path as string,
        body: entry.body,
      };
      entry.mutator = 'request';
      entry.args = args;
      if (entry.status === 'sending') entry.status = 'pending';
      for (const old of ['kind', 'method', 'path', 'body', 'undo', 'meta']) delete entry[old];
    });
  await tx
    .table('bets')
    .toCollection()
    .modify((bet: Record<string, unknown>) => {
      delete bet.isUnwagered;
      delete bet.isToResolve;
      delete bet.isListed;
    });
}

/**
 * Version 5 → 6: a delta pull from the stored cursor would bring only comments changed since it;
 * without the cursor the next pull starts from nothing (`reset`) and brings every comment. Waiting
 * writes stay.
 */
async function forgetCursor(tx: Transaction): Promise<void> {
  await tx.table('meta').delete(CURSOR_KEY);
}

export const db = openHunchDb();

/** Every table but the held writes: what a session's end or another player's sign-in empties. */
export function sessionTables(database: HunchDb): Table[] {
  return database.tables.filter((table) => table.name !== 'held');
}

/**
 * Empties everything a session left: the mirror, the inbox, the caches, the outbox, the meta
 * rows. Held writes stay (data/session-end.ts decides about them).
 */
export async function clearLocalData(database: HunchDb = db): Promise<void> {
  const tables = sessionTables(database);
  await database.transaction('rw', tables, async () => {
    await Promise.all(tables.map((table) => table.clear()));
  });
}
