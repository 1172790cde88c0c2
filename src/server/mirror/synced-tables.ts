import { sql, type SQL } from 'drizzle-orm';
import { versionedCommentSchema } from '../../domain/schemas/comments';
import { versionedBetHistoryEntrySchema } from '../../domain/schemas/fair-resolution';
import {
  mirrorBetSchema,
  mirrorEnvelopeSchema,
  mirrorGroupSchema,
  mirrorMembershipSchema,
  mirrorStatisticsSchema,
  mirrorWagerSchema,
  removedMembershipSchema,
} from '../../domain/schemas/mirror';
import { notificationSchema, notificationSettingsSchema } from '../../domain/schemas/notifications';
import { mirrorRoundSchema } from '../../domain/schemas/rounds';
import { versionedSeasonSchema } from '../../domain/schemas/seasons';
import { z } from '../../domain/schemas/zod';
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
import { readRoundMirror, roundChangesExistSql } from '../rounds/round-mirror';
import { readSeasonMirror, seasonChangesExistSql } from '../seasons/season-mirror';

// The server's one list of what a pull sends (docs/architecture.md §8), the counterpart of the
// client's src/client/data/synced-tables.ts. Each entry is one feature's reader: the fields of the
// page it fills with their schemas (the pull's answer is declared here and nowhere else), the
// clause of the pull's first statement that says whether any of its rows changed for the viewer,
// how many rows a group sent whole brings, and the read itself, which presents every row as the
// viewer may see it. mirror.service.ts walks this list and names no table: a new synced table is
// a reader here (and the migration's change triggers, see README).

/** SQL values of the pull's first statement: the viewer (integer), their groups held (integer[]), the cursor's snapshot. */
export interface ChangeCheck {
  viewerId: SQL;
  groupIds: SQL;
  since: SQL;
}

/** A reader's fields of the page: each one's schema (a list of rows, or a single row or null). */
type FieldSchemas = Record<string, z.ZodType>;
type FieldsOf<S extends FieldSchemas> = { [K in keyof S]: z.output<S[K]> };

export interface SyncedReader<S extends FieldSchemas> {
  /** The page's fields it fills, with their schemas. Empty (`[]` or null): nothing new. */
  fields: S;
  /**
   * Whether a row it would send changed since the snapshot, as the viewer sees it. None: its
   * rows change only with a change another reader's check sees.
   */
  changed?(check: ChangeCheck): SQL;
  /** Rows each group sent whole brings (a first sync's page is sized by rows). */
  count?(tx: Executor, groupIds: readonly number[]): Promise<Map<number, number>>;
  /** Its rows for the scope, each presented as the viewer may see it. */
  read(tx: Executor, scope: MirrorScope): Promise<FieldsOf<S>>;
}

const reader = <S extends FieldSchemas>(entry: SyncedReader<S>): SyncedReader<S> => entry;

export const SYNCED_READERS = [
  // Groups as a member sees them; every member's row, another's with total points only and
  // moved by its public stamp (domain/groups.ts membershipAsSeenBy: a wager tells no one).
  reader({
    fields: {
      groups: z.array(mirrorGroupSchema),
      memberships: z.array(mirrorMembershipSchema),
      // Other members who left or were removed from a group still in view.
      removedMemberships: z.array(removedMembershipSchema),
    },
    changed: ({ viewerId, groupIds, since }) => groupChangesExistSql(viewerId, groupIds, since),
    count: countActiveMembers,
    read: readGroupMirror,
  }),
  // Bets in every state (bet.presenter.ts presentBet; who picked what only once betting closed,
  // bet-queries.ts loadPicks), the viewer's own wagers only, a resolved bet's statistics.
  reader({
    fields: {
      bets: z.array(mirrorBetSchema),
      wagers: z.array(mirrorWagerSchema),
      statistics: z.array(mirrorStatisticsSchema),
    },
    changed: ({ viewerId, groupIds, since }) => betChangesExistSql(viewerId, groupIds, since),
    count: countBets,
    read: readBetMirror,
  }),
  // Live comments of a group sent whole; changed ones of a held group, deletions as tombstones
  // (`deletedAt` set).
  reader({
    fields: { comments: z.array(versionedCommentSchema) },
    changed: ({ groupIds, since }) => commentChangesExistSql(groupIds, since),
    count: countComments,
    read: readCommentMirror,
  }),
  // A group's whole history when sent whole, new lines of a held group. A line is written with
  // a change of its bet, so the bets' check sees it.
  reader({
    fields: { betHistory: z.array(versionedBetHistoryEntrySchema) },
    read: readHistoryMirror,
  }),
  // Each with its final standings once ended: a group's all when sent whole, changed ones of a
  // held group.
  reader({
    fields: { seasons: z.array(versionedSeasonSchema) },
    changed: ({ groupIds, since }) => seasonChangesExistSql(groupIds, since),
    read: readSeasonMirror,
  }),
  // Tipping rounds with their matches: a group's all when sent whole, made or rescored ones of a
  // held group. Results and tips are the matches' bets'.
  reader({
    fields: { rounds: z.array(mirrorRoundSchema) },
    changed: ({ groupIds, since }) => roundChangesExistSql(groupIds, since),
    read: readRoundMirror,
  }),
  // The viewer's own inbox and settings, whatever the group: the last 30 days' entries on a sync
  // from nothing, else those changed (read, gathered, new); the settings on a sync from nothing
  // and whenever they changed, else null (null too when none were made yet: the defaults).
  reader({
    fields: {
      notifications: z.array(notificationSchema),
      notificationSettings: notificationSettingsSchema.nullable(),
    },
    changed: ({ viewerId, since }) => notificationChangesExistSql(viewerId, since),
    read: readNotificationMirror,
  }),
];

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (
  x: infer I,
) => void
  ? I
  : never;

/** Every field of a pull's page that carries rows (or rows gone), with its schema. */
export const MIRROR_PAGE_FIELDS = Object.assign(
  {},
  ...SYNCED_READERS.map((entry) => entry.fields),
) as UnionToIntersection<(typeof SYNCED_READERS)[number]['fields']>;

/** GET /api/member/state?cursor=…: the envelope and every reader's fields. */
export const mirrorPullResponseSchema = mirrorEnvelopeSchema.extend(MIRROR_PAGE_FIELDS);

/** A pull's answer. */
export type MirrorPullResponse = z.output<typeof mirrorPullResponseSchema>;

/** The fields of a pull's page that carry rows or rows gone (everything but the envelope). */
export type PageFields = FieldsOf<typeof MIRROR_PAGE_FIELDS>;

/**
 * Each field of the page and whether it is empty as null (a single row) or as a list: worked
 * out once, since an empty page answers every quiet pull.
 */
const EMPTY_FIELDS = Object.entries(MIRROR_PAGE_FIELDS).map(
  ([field, schema]: [string, z.ZodType]) => [field, schema.safeParse(null).success] as const,
);

/** Every field of the page, empty: a list with no rows, or null. */
export function emptyPage(): PageFields {
  const page: Record<string, unknown[] | null> = {};
  for (const [field, isSingle] of EMPTY_FIELDS) page[field] = isSingle ? null : [];
  return page as unknown as PageFields;
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
