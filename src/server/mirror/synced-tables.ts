import { sql, type SQL } from 'drizzle-orm';
import type { MirrorPullResponse } from '../../domain/mirror';
import type { Executor } from '../db/connect';
import { readHistoryMirror } from '../bets/bet-history';
import { betChangesExistSql, countBets, readBetMirror } from '../bets/bet-mirror';
import {
  commentChangesExistSql,
  countComments,
  readCommentMirror,
} from '../comments/comment-mirror';
import {
  countActiveMembers,
  groupChangesExistSql,
  readGroupMirror,
  type MirrorScope,
} from '../groups/group-mirror';
import {
  notificationChangesExistSql,
  readNotificationMirror,
} from '../notifications/notification-mirror';
import { readSeasonMirror, seasonChangesExistSql } from '../seasons/season-mirror';

// The server's one list of what a pull sends (docs/architecture.md §8), the counterpart of the
// client's src/client/data/synced-tables.ts. Each entry is one feature's reader: the fields of the
// page it fills, the clause of the pull's first statement that says whether any of its rows
// changed for the viewer, how many rows a group sent whole brings, and the read itself, which
// presents every row as the viewer may see it. mirror.service.ts walks this list and names no
// table: a new synced table is a reader here (and the migration's change triggers, see README).

/** The fields of a pull's page that carry rows or rows gone (everything but the envelope). */
export type PageFields = Omit<
  MirrorPullResponse,
  'cursor' | 'reset' | 'hasMore' | 'removedGroupIds' | 'lastMutationIDChanges' | 'mutationOutcomes'
>;
type PageField = keyof PageFields;

/** SQL values of the pull's first statement: the viewer (integer), their groups held (integer[]), the cursor's snapshot. */
export interface ChangeCheck {
  viewerId: SQL;
  groupIds: SQL;
  since: SQL;
}

export interface SyncedReader<F extends PageField> {
  /** Its fields with nothing in them: the answer to a pull with nothing new. */
  empty(): Pick<PageFields, F>;
  /**
   * Whether a row it would send changed since the snapshot, as the viewer sees it. None: its
   * rows change only with a change another reader's check sees.
   */
  changed?(check: ChangeCheck): SQL;
  /** Rows each group sent whole brings (a first sync's page is sized by rows). */
  count?(tx: Executor, groupIds: readonly number[]): Promise<Map<number, number>>;
  /** Its rows for the scope, each presented as the viewer may see it. */
  read(tx: Executor, scope: MirrorScope): Promise<Pick<PageFields, F>>;
}

const reader = <F extends PageField>(entry: SyncedReader<F>): SyncedReader<F> => entry;

export const SYNCED_READERS = [
  // Groups as a member sees them; every member's row, another's with total points only and
  // moved by its public stamp (domain/groups.ts membershipAsSeenBy: a wager tells no one).
  reader({
    empty: () => ({ groups: [], memberships: [], removedMemberships: [] }),
    changed: ({ viewerId, groupIds, since }) => groupChangesExistSql(viewerId, groupIds, since),
    count: countActiveMembers,
    read: readGroupMirror,
  }),
  // Bets in every state (bet.presenter.ts presentBet; who picked what only once betting closed,
  // bet-queries.ts loadPicks), the viewer's own wagers only, a resolved bet's statistics.
  reader({
    empty: () => ({ bets: [], wagers: [], statistics: [] }),
    changed: ({ viewerId, groupIds, since }) => betChangesExistSql(viewerId, groupIds, since),
    count: countBets,
    read: readBetMirror,
  }),
  // Live comments, deletions as tombstones.
  reader({
    empty: () => ({ comments: [] }),
    changed: ({ groupIds, since }) => commentChangesExistSql(groupIds, since),
    count: countComments,
    read: readCommentMirror,
  }),
  // A history line is written with a change of its bet, so the bets' check sees it.
  reader({ empty: () => ({ betHistory: [] }), read: readHistoryMirror }),
  reader({
    empty: () => ({ seasons: [] }),
    changed: ({ groupIds, since }) => seasonChangesExistSql(groupIds, since),
    read: readSeasonMirror,
  }),
  // The viewer's own inbox and settings, whatever the group.
  reader({
    empty: () => ({ notifications: [], notificationSettings: null }),
    changed: ({ viewerId, since }) => notificationChangesExistSql(viewerId, since),
    read: readNotificationMirror,
  }),
];

// Every field of the page has its reader: a new one does not compile without.
type KeysOf<T> = T extends unknown ? keyof T : never;
type Unread = Exclude<PageField, KeysOf<ReturnType<(typeof SYNCED_READERS)[number]['empty']>>>;
const everyPageFieldRead: [Unread] extends [never] ? true : Unread = true;
void everyPageFieldRead;

/** Every field of the page, empty. */
export function emptyPage(): PageFields {
  return Object.assign({}, ...SYNCED_READERS.map((entry) => entry.empty())) as PageFields;
}

/** Whether anything the viewer holds changed since the snapshot: one SQL condition. */
export function changesExistSql(check: ChangeCheck): SQL {
  const clauses = SYNCED_READERS.flatMap((entry) => (entry.changed ? [entry.changed(check)] : []));
  return sql`(${sql.join(clauses, sql` or `)})`;
}

/** How many rows each of `groupIds` brings when sent whole (at least its own row). */
export async function countGroupRows(
  tx: Executor,
  groupIds: readonly number[],
): Promise<Map<number, number>> {
  const sizes = new Map(groupIds.map((id) => [id, 1]));
  if (groupIds.length === 0) return sizes;
  // In turn: a transaction is one connection, which runs one query at a time anyway (pg only
  // warns about overlapping queries on one client today, and will refuse them).
  for (const entry of SYNCED_READERS) {
    if (!entry.count) continue;
    for (const [id, rows] of await entry.count(tx, groupIds))
      sizes.set(id, (sizes.get(id) ?? 1) + rows);
  }
  return sizes;
}

/** Every reader's rows for the scope, as one page. */
export async function readPage(tx: Executor, scope: MirrorScope): Promise<PageFields> {
  const page = emptyPage();
  for (const entry of SYNCED_READERS) Object.assign(page, await entry.read(tx, scope));
  return page;
}
