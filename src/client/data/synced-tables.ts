import type { Table } from 'dexie';
import type { MirrorPullResponse } from '../../domain/mirror';
import { NOTIFICATION_RETENTION_MS } from '../../domain/notifications';
import { SETTINGS_ROW_ID, type MirrorKey } from './db';

// The client's one list of synced tables (docs/architecture.md §8): for each table of the mirror,
// the field of the pull's page that carries its rows, its Dexie key, and what a group leaving
// the player's view or a reset does to it. The sync engine (sync-engine.ts), the rebaser
// (mutators.ts) and the mutators' `put`/`remove` read this list and name no table themselves;
// db.ts declares each table's store in a schema version (a migration: never derived from here).

/** The fields of a pull's page that carry rows (src/domain/mirror.ts). */
type PageRows = Omit<
  MirrorPullResponse,
  | 'cursor'
  | 'reset'
  | 'hasMore'
  | 'removedGroupIds'
  | 'removedMemberships'
  | 'lastMutationIDChanges'
  | 'mutationOutcomes'
>;
type PageField = keyof PageRows;
/** The fields of a page that list rows gone, each by its key's fields. */
type RemovalField = 'removedMemberships';

/** A stored row as the merge reads it. */
type StoredRow = Record<string, unknown> & { version?: number };

export interface SyncedTable<F extends PageField = PageField> {
  /** The page's field with its rows (an older server may leave it out: no rows). */
  page: F;
  /** The primary key's field (or fields, in order), as the table's store declares it in db.ts. */
  key: string | readonly string[];
  /** The page's value as rows, when it is not a list (a single row or null). */
  rows?: (value: PageRows[F]) => readonly { version: number }[];
  /** The page's field listing rows gone while their group stays in view (deleted before the merge). */
  removals?: RemovalField;
  /**
   * How a group's rows are found when it leaves the player's view (they go with it): an index
   * holding the group's id, or, with `of`, the key of one of the group's rows in that other
   * synced table (a wager by its bet). None: rows of no group (the inbox).
   */
  ofGroup?: { index: string; of?: string };
  /** Rows a reset keeps (all others go). */
  keepsOnReset?: (row: StoredRow) => boolean;
  /** After each page's rows are merged (inside its transaction). */
  afterMerge?: (table: Table<StoredRow, MirrorKey>) => Promise<void>;
}

const synced = <F extends PageField>(entry: SyncedTable<F>): SyncedTable<F> => entry;

export const SYNCED_TABLES = {
  groups: synced({
    page: 'groups',
    key: 'id',
    ofGroup: { index: 'id' },
    // A public group viewed from outside (GET /groups/{id}) is stored without a version.
    keepsOnReset: (group) => group.version === undefined,
  }),
  memberships: synced({
    page: 'memberships',
    key: ['groupId', 'userId'],
    // Other members who left or were removed.
    removals: 'removedMemberships',
    ofGroup: { index: 'groupId' },
  }),
  bets: synced({ page: 'bets', key: 'id', ofGroup: { index: 'groupId' } }),
  wagers: synced({ page: 'wagers', key: 'id', ofGroup: { index: 'betId', of: 'bets' } }),
  betStatistics: synced({
    page: 'statistics',
    key: 'betId',
    ofGroup: { index: 'betId', of: 'bets' },
  }),
  /** A deleted comment arrives as a tombstone and is kept as one (db.ts CommentRow): a late older copy never revives it. */
  comments: synced({ page: 'comments', key: 'id', ofGroup: { index: 'groupId' } }),
  betHistory: synced({ page: 'betHistory', key: 'id', ofGroup: { index: 'groupId' } }),
  notifications: synced({
    page: 'notifications',
    key: 'id',
    // Entries past 30 days go: the server prunes them without tombstones.
    afterMerge: async (table) => {
      const cutoff = new Date(Date.now() - NOTIFICATION_RETENTION_MS).toISOString();
      await table.where('updatedAt').below(cutoff).delete();
    },
  }),
  notificationSettings: synced({
    page: 'notificationSettings',
    key: 'id',
    // The player's one settings row; null: unchanged (or never made: the defaults).
    rows: (settings) => (settings ? [{ ...settings, id: SETTINGS_ROW_ID }] : []),
  }),
  seasons: synced({ page: 'seasons', key: 'id', ofGroup: { index: 'groupId' } }),
};

/** The tables a pull writes and a mutator may touch. */
export type MirrorTable = keyof typeof SYNCED_TABLES;
export const MIRROR_TABLES = Object.keys(SYNCED_TABLES) as readonly MirrorTable[];

// Every field of the page that carries rows has its table: a new one does not compile without.
type Unsynced = Exclude<PageField, (typeof SYNCED_TABLES)[MirrorTable]['page']>;
const everyPageFieldSynced: [Unsynced] extends [never] ? true : Unsynced = true;
void everyPageFieldSynced;

/** A row's key in its table. */
export function keyOf(table: MirrorTable, row: object): MirrorKey {
  const { key } = SYNCED_TABLES[table];
  const fields = row as Record<string, number>;
  return typeof key === 'string'
    ? fields[key]!
    : (key.map((field) => fields[field]!) as [number, number]);
}

/** The keys of the rows of `table` a pull's page says are gone. */
export function pageRemovals(table: MirrorTable, page: MirrorPullResponse): MirrorKey[] {
  const field = (SYNCED_TABLES[table] as SyncedTable).removals;
  return field ? page[field].map((row) => keyOf(table, row)) : [];
}

/** The rows of `table` a pull's page carries (none when an older server left the field out). */
export function pageRows(
  table: MirrorTable,
  page: MirrorPullResponse,
): readonly { version: number }[] {
  const entry = SYNCED_TABLES[table] as SyncedTable;
  const value = page[entry.page];
  if (entry.rows) return entry.rows(value);
  return (value ?? []) as readonly { version: number }[];
}
