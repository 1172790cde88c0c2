import { eq, sql } from 'drizzle-orm';
import type { MemberStateResponse } from '../../domain/member-state';
import { MIRROR_PAGE_ROWS, MIRROR_START_CURSOR } from '../../domain/mirror';
import type { AuthUser } from '../auth/tokens';
import { readBetQueues } from '../bets/bet-mirror';
import { EARLIEST_SNAPSHOT } from '../db/changes';
import type { Database, Executor } from '../db/connect';
import { prepared } from '../db/prepared';
import { users } from '../db/schema';
import { activeGroupIdsSql, readOwnMemberships } from '../groups/group-mirror';
import type { SyncPullPart } from '../../domain/schemas/sync';
import { readSyncPull } from '../sync/client-mutations';
import type { ChangeWatermarks } from './change-watermarks';
import { decodeCursor, encodeCursor, type MirrorCursor } from './mirror-cursor';
import {
  changesExistSql,
  countGroupRows,
  emptyPage,
  readPage,
  type MirrorPullResponse,
} from './synced-tables';

// The local mirror's pull (docs/architecture.md §8; GET /member/state?cursor=…). One statement asks,
// under one snapshot, which groups the caller is in and whether anything they can see changed
// since the cursor: a reconnect with nothing new ends there. Otherwise one REPEATABLE READ
// transaction reads, under one snapshot, what changed in the groups the device holds and the
// whole of the groups it does not, a page of them at a time; that snapshot is the next cursor.
// Without a cursor the route answers the spec's member state (memberState), read by the same
// feature readers and decided by the same policies.

export interface MirrorServiceDeps {
  db: Database;
  /** Rows per page of a first sync (tests make it small). */
  pageRows?: number;
  /** The clock that says which bets have closed (their picks are sent) and counts the inbox's 30 days. */
  now?: () => Date;
  /** This instance's change notifications: a pull with nothing new is answered from them. */
  watermarks?: ChangeWatermarks;
}

export type MirrorService = ReturnType<typeof createMirrorService>;

interface Head {
  snapshot: string;
  groupIds: number[];
  changed: boolean;
}

// Every pull starts here, so it is prepared once (db/prepared.ts). Anchored on the caller's
// user row: one row, whatever the caller's memberships.
const userId = sql`${sql.placeholder('userId')}`;
const known = sql`${sql.placeholder('known')}::integer[]`;
const since = sql`${sql.placeholder('snapshot')}`;
const headStatement = prepared<Head[], { userId: number; known: number[]; snapshot: string }>(
  'mirrorHead',
  (tx) =>
    tx
      .select({
        snapshot: sql<string>`pg_current_snapshot()::text`,
        groupIds: sql<number[]>`array(${activeGroupIdsSql(userId)} order by 1)`,
        changed: sql<boolean>`${changesExistSql({ viewerId: userId, groupIds: known, since })}`,
      })
      .from(users)
      .where(eq(users.id, userId)),
);

/** The caller's groups and, for a cursor, whether anything it holds changed, under one snapshot. */
async function readHead(
  tx: Executor,
  callerId: number,
  cursor: MirrorCursor | null,
): Promise<Head> {
  const [head] = await headStatement(tx, {
    userId: callerId,
    known: cursor?.groupIds ?? [],
    snapshot: cursor?.snapshot ?? EARLIEST_SNAPSHOT,
  });
  if (!head) return { snapshot: EARLIEST_SNAPSHOT, groupIds: [], changed: false };
  return { snapshot: head.snapshot, groupIds: head.groupIds.map(Number), changed: head.changed };
}

function emptyAnswer(cursor: string, reset: boolean): MirrorPullResponse {
  return { cursor, reset, hasMore: false, ...emptyPage(), removedGroupIds: [] };
}

export function createMirrorService({
  db,
  pageRows = MIRROR_PAGE_ROWS,
  now = () => new Date(),
  watermarks,
}: MirrorServiceDeps) {
  /** The first groups of `fresh` whose rows fit in a page (always at least one). */
  async function pageOf(tx: Executor, fresh: readonly number[]): Promise<number[]> {
    if (fresh.length === 0) return [];
    const sizes = await countGroupRows(tx, fresh);
    const page: number[] = [];
    let rows = 0;
    for (const id of fresh) {
      const size = sizes.get(id) ?? 1;
      if (page.length > 0 && rows + size > pageRows) break;
      page.push(id);
      rows += size;
    }
    return page;
  }

  return {
    /**
     * GET /member/state without a cursor (docs/groups-and-bets.md §3): the caller's groups, their
     * memberships there, and the bets of those groups they may wager on and may resolve.
     */
    async memberState(caller: AuthUser): Promise<MemberStateResponse> {
      const mine = await readOwnMemberships(db, caller.id);
      const state: MemberStateResponse = {
        groups: {},
        currentUserMemberships: {},
        ...(await readBetQueues(
          db,
          caller.id,
          mine.map((row) => row.membership),
          now(),
        )),
      };
      for (const { group, membership } of mine) {
        state.groups[String(group.id)] = { id: group.id, name: group.name };
        state.currentUserMemberships[String(group.id)] = membership;
      }
      return state;
    },

    /**
     * With `clientGroupId` (a device's, src/server/sync) the answer also says which of its
     * writes are applied, read under the same snapshot as the rows: a write the answer reports
     * applied is in its rows, so the device drops it exactly then. `arrivedAt` is the
     * request's (authenticate.ts): an answer from memory covers every commit before it.
     */
    async pull(
      caller: AuthUser,
      cursorText: string,
      clientGroupId?: string,
      arrivedAt?: number,
    ): Promise<MirrorPullResponse> {
      const decoded = cursorText === MIRROR_START_CURSOR ? null : decodeCursor(cursorText);
      const cursor = decoded && decoded.userId === caller.id ? decoded : null;
      const reset = cursor === null;
      // Nothing new, known from memory (change-watermarks.ts); any doubt reads the database.
      const quiet =
        cursor?.position &&
        watermarks?.follows(cursor.position) &&
        (await watermarks.fence(arrivedAt)) &&
        watermarks.quietSince(cursor.position, caller.id, cursor.groupIds);
      const remembered =
        quiet && clientGroupId !== undefined
          ? watermarks!.writesNow(caller.id, clientGroupId)
          : undefined;
      if (quiet && remembered !== null) {
        return {
          ...emptyAnswer(encodeCursor({ ...cursor!, position: quiet }), false),
          ...remembered,
        };
      }
      // Read before the database: a change the read misses is notified after it.
      const at = watermarks?.position() ?? null;
      const remember = (writes: SyncPullPart | Record<string, never>) => {
        if (at && clientGroupId !== undefined && 'lastMutationIDChanges' in writes)
          watermarks!.rememberWrites(at, caller.id, clientGroupId, writes.lastMutationIDChanges);
        return writes;
      };
      const syncPart = (tx: Executor) =>
        clientGroupId === undefined
          ? {}
          : readSyncPull(tx, {
              userId: caller.id,
              clientGroupId,
              snapshot: cursor?.snapshot ?? null,
            });

      // Alone, the head is one statement; with the device's writes, one snapshot for both.
      const { quick, writes } =
        clientGroupId === undefined
          ? { quick: await readHead(db, caller.id, cursor), writes: {} }
          : await db.transaction(
              async (tx) => ({
                quick: await readHead(tx, caller.id, cursor),
                writes: remember(await syncPart(tx)),
              }),
              { isolationLevel: 'repeatable read', accessMode: 'read only' },
            );
      const known = new Set(cursor?.groupIds ?? []);
      const sameGroups =
        quick.groupIds.length === known.size && quick.groupIds.every((id) => known.has(id));
      if (!reset && sameGroups && !quick.changed) {
        return {
          ...emptyAnswer(
            encodeCursor({
              userId: caller.id,
              snapshot: quick.snapshot,
              groupIds: quick.groupIds,
              ...(at && { position: at }),
            }),
            false,
          ),
          ...writes,
        };
      }

      return db.transaction(
        async (tx) => {
          const head = await readHead(tx, caller.id, null);
          const mine = new Set(head.groupIds);
          const deltaIds = head.groupIds.filter((id) => known.has(id));
          const fullIds = await pageOf(
            tx,
            head.groupIds.filter((id) => !known.has(id)),
          );
          const rows = await readPage(tx, {
            viewerId: caller.id,
            fullIds,
            deltaIds,
            snapshot: cursor?.snapshot ?? head.snapshot,
            isReset: reset,
            now: now(),
          });
          const held = [...deltaIds, ...fullIds].sort((a, b) => a - b);
          const hasMore = held.length < head.groupIds.length;
          return {
            cursor: encodeCursor({
              userId: caller.id,
              snapshot: head.snapshot,
              groupIds: held,
              ...(at && !hasMore && { position: at }),
            }),
            reset,
            hasMore,
            ...rows,
            ...remember(await syncPart(tx)),
            removedGroupIds: [...known].filter((id) => !mine.has(id)).sort((a, b) => a - b),
          };
        },
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
    },
  };
}
