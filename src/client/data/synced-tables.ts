import type { Table } from 'dexie';
import type { MirrorEnvelope } from '../../domain/mirror';
import { NOTIFICATION_RETENTION_MS, type NotificationSettings } from '../../domain/notifications';
import type {
  BetHistoryRow,
  BetRow,
  BetStatisticsRow,
  CommentRow,
  GroupRow,
  MembershipRow,
  MirrorKey,
  NotificationRow,
  NotificationSettingsRow,
  RoundRow,
  SeasonRow,
  WagerRow,
} from './db';

// The client's one list of synced tables (docs/architecture.md §8): for each table of the mirror,
// the field of the pull's page that carries its rows, its IndexedDB store (key and indexes), its
// row type, and what a group leaving the player's view or a reset does to it. The sync engine
// (sync-engine.ts), the rebaser (mutators.ts), the mutators' `put`/`remove` and the database's
// current schema (db.ts) read this list and name no table themselves. A table added here needs
// no Dexie version: Dexie 4 adds a store (or an index) the declared schema has and the installed
// one lacks, and the mirror's shape below changes, so every device's next pull starts over and
// brings the new table whole. A version is still needed to move data or to drop a table.
// The pull's answer as a device reads it (MirrorPullResponse) is typed from this list; a test
// holds it to the server's (tests/client/data/synced-tables.test.ts).

/** A stored row as the merge reads it. */
type StoredRow = Record<string, unknown> & { version?: number };

export interface SyncedTable<W = unknown, F extends string = string, S extends string = string> {
  /** The page's field with its rows (an older server may leave it out: no rows). */
  page: F;
  /**
   * The IndexedDB store, in Dexie's words: the primary key first (`id`, or `[a+b]` for a
   * compound one), then the indexes screens query by. Never change a table's primary key.
   */
  store: S;
  /**
   * Raise it when the rows a device holds must be fetched again (a field they lack, a row the
   * server now shows differently): the mirror's shape changes and every device starts over.
   */
  revision?: number;
  /** The page's value as rows, when it is not a list (a single row or null). */
  rows?: (value: W) => readonly { version: number }[];
  /** The page's field listing rows gone while their group stays in view, each by its key's fields (deleted before the merge). */
  removals?: string;
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

/** The key of the player's one notification settings row. */
export const SETTINGS_ROW_ID = 1;

/**
 * An entry of the list: `Row` is what the table stores (the page's rows, marked while pending),
 * `Wire` what the page's field holds (its rows unless said).
 */
const synced =
  <Row extends object, Wire = Row[]>() =>
  <F extends string, S extends string, R extends string = never>(
    entry: SyncedTable<Wire, F, S> & { removals?: R },
  ) =>
    entry as SyncedTable<Wire, F, S> & {
      readonly row?: Row;
      /** The page's field's type (a phantom: boxed, so a null in it stays). */
      readonly wire?: [Wire];
      removals?: R;
    };

export const SYNCED_TABLES = {
  groups: synced<GroupRow>()({
    page: 'groups',
    store: '&id, name',
    ofGroup: { index: 'id' },
    // A public group viewed from outside (GET /groups/{id}) is stored without a version.
    keepsOnReset: (group) => group.version === undefined,
  }),
  memberships: synced<MembershipRow>()({
    page: 'memberships',
    store: '&[groupId+userId], groupId, userId',
    // Other members who left or were removed.
    removals: 'removedMemberships',
    ofGroup: { index: 'groupId' },
  }),
  // The dashboard walks the active bets by close time and a group's bets by creator
  // (bets/use-bets.ts), so its reads cost what they show, not how many bets are held.
  bets: synced<BetRow>()({
    page: 'bets',
    store: 'id, groupId, state, expiresAt, createdBy, [state+expiresAt], [groupId+createdBy]',
    ofGroup: { index: 'groupId' },
  }),
  wagers: synced<WagerRow>()({
    page: 'wagers',
    store: 'id, betId, userId, [betId+userId]',
    ofGroup: { index: 'betId', of: 'bets' },
  }),
  betStatistics: synced<BetStatisticsRow>()({
    page: 'statistics',
    store: '&betId',
    ofGroup: { index: 'betId', of: 'bets' },
  }),
  /** A deleted comment arrives as a tombstone and is kept as one (db.ts CommentRow): a late older copy never revives it. */
  comments: synced<CommentRow>()({
    page: 'comments',
    store: 'id, betId, groupId',
    ofGroup: { index: 'groupId' },
  }),
  betHistory: synced<BetHistoryRow>()({
    page: 'betHistory',
    store: 'id, betId, groupId',
    ofGroup: { index: 'groupId' },
  }),
  // Newest activity first.
  notifications: synced<NotificationRow>()({
    page: 'notifications',
    store: 'id, updatedAt',
    // Entries past 30 days go: the server prunes them without tombstones.
    afterMerge: async (table) => {
      const cutoff = new Date(Date.now() - NOTIFICATION_RETENTION_MS).toISOString();
      await table.where('updatedAt').below(cutoff).delete();
    },
  }),
  notificationSettings: synced<NotificationSettingsRow, NotificationSettings | null>()({
    page: 'notificationSettings',
    store: '&id',
    // The player's one settings row; null: unchanged (or never made: the defaults).
    rows: (settings) => (settings ? [{ ...settings, id: SETTINGS_ROW_ID }] : []),
  }),
  seasons: synced<SeasonRow>()({
    page: 'seasons',
    store: 'id, groupId',
    ofGroup: { index: 'groupId' },
  }),
  rounds: synced<RoundRow>()({
    page: 'rounds',
    store: 'id, groupId',
    ofGroup: { index: 'groupId' },
  }),
};

/** The tables a pull writes and a mutator may touch. */
export type MirrorTable = keyof typeof SYNCED_TABLES;
export const MIRROR_TABLES = Object.keys(SYNCED_TABLES) as readonly MirrorTable[];

type Entry<T extends MirrorTable> = (typeof SYNCED_TABLES)[T];

/** The fields of a pull's page as this list reads them: each table's rows, and the keys of rows gone. */
export type MirrorPage = {
  [T in MirrorTable as Entry<T>['page']]: NonNullable<Entry<T>['wire']>[0];
} & {
  [T in MirrorTable as NonNullable<Entry<T>['removals']>]: Record<string, number>[];
};

/** A pull's answer. */
export type MirrorPullResponse = MirrorEnvelope & MirrorPage;

/** The fields of a page this list reads: where each table's rows arrive, and rows gone. */
export const PAGE_FIELDS: readonly string[] = MIRROR_TABLES.flatMap((table) => {
  const { page, removals } = SYNCED_TABLES[table] as SyncedTable;
  return removals ? [page, removals] : [page];
});

/** What `table` stores. */
export type SyncedRow<T extends MirrorTable> = NonNullable<Entry<T>['row']>;

/** The type of `table`'s primary key: a pair for a compound one. */
export type SyncedKey<T extends MirrorTable> = Entry<T>['store'] extends
  `[${string}` | `&[${string}`
  ? [number, number]
  : number;

/** The primary key's field (or fields, in order) of a store declaration: `&[groupId+userId], …` → both. */
export function primaryKeyOf(store: string): string | readonly string[] {
  const first = store
    .split(',')[0]!
    .trim()
    .replace(/^(\+\+|&)/, '');
  return first.startsWith('[') ? first.slice(1, -1).split('+') : first;
}

const KEYS = Object.fromEntries(
  MIRROR_TABLES.map((table) => [table, primaryKeyOf(SYNCED_TABLES[table].store)]),
) as Record<MirrorTable, string | readonly string[]>;

/** Each synced table's store, for the database's current schema (db.ts). */
export const SYNCED_STORES = Object.fromEntries(
  MIRROR_TABLES.map((table) => [table, SYNCED_TABLES[table].store]),
) as Record<MirrorTable, string>;

/**
 * The mirror's shape: its tables and their revisions. A cursor stored under another shape is
 * not used (sync-engine.ts): the next pull starts over and brings every table whole.
 */
export const MIRROR_SHAPE = MIRROR_TABLES.map((table) => {
  const { revision } = SYNCED_TABLES[table] as SyncedTable;
  return revision ? `${table}@${revision}` : table;
}).join(',');

/** A row's key in its table. */
export function keyOf(table: MirrorTable, row: object): MirrorKey {
  const key = KEYS[table];
  const fields = row as Record<string, number>;
  return typeof key === 'string'
    ? fields[key]!
    : (key.map((field) => fields[field]!) as [number, number]);
}

/** The keys of the rows of `table` a pull's page says are gone. */
export function pageRemovals(table: MirrorTable, page: MirrorPullResponse): MirrorKey[] {
  const field = (SYNCED_TABLES[table] as SyncedTable).removals;
  const gone = field ? (page as unknown as Record<string, object[] | undefined>)[field] : undefined;
  return (gone ?? []).map((row) => keyOf(table, row));
}

/** The rows of `table` a pull's page carries (none when an older server left the field out). */
export function pageRows(
  table: MirrorTable,
  page: MirrorPullResponse,
): readonly { version: number }[] {
  const entry = SYNCED_TABLES[table] as SyncedTable;
  const value = (page as unknown as Record<string, unknown>)[entry.page];
  if (entry.rows) return entry.rows(value);
  return (value ?? []) as readonly { version: number }[];
}
