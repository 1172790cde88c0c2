import { and, asc, count, eq, lt, ne, or, sql } from 'drizzle-orm';
import type { SyncMutationError, SyncPullPart } from '../../domain/schemas/sync';
import { changedSince } from '../db/changes';
import type { Executor } from '../db/connect';
import { clientMutationOutcomes, clientMutations, users } from '../db/schema';
import { clientGroupNotYours } from '../errors';

// The statements of the push's bookkeeping (docs/architecture.md §8): each client's last
// mutation id and the outcomes a pull reports. Written only inside a mutation's transaction.

export interface ClientKey {
  userId: number;
  clientGroupId: string;
  clientId: string;
}

/** How long an outcome (a refusal, a created row's id) is kept for the pulls of its device. */
export const OUTCOME_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * How many client ids one user keeps. A browser mints a client id only when its local data is
 * cleared (a sign-out, another player signing in) and it then writes, so a player with a few
 * devices mints a few a week: 100 is months of that, while a script minting one per push meets
 * the bound after 100 rows (issue 41, finding 4).
 */
export const MAX_CLIENTS_PER_USER = 100;
/**
 * Past the bound, a new client takes the place of the user's least recently written one, once
 * that one has been idle this long (its outcomes are purged by then too); before, the push waits.
 */
export const CLIENT_EVICTION_IDLE_MS = OUTCOME_RETENTION_MS;

const clientRow = (key: ClientKey) =>
  and(
    eq(clientMutations.clientGroupId, key.clientGroupId),
    eq(clientMutations.clientId, key.clientId),
  );

/**
 * The client's row, made if new and locked: a mutation's transaction takes it first
 * (db/README.md, "Lock order"), so two pushes of one client run their mutations one at a time.
 * One statement: the insert, or on conflict an update that changes nothing but takes the row's
 * lock, and only of the caller's own row; it answers the last mutation id and whether another
 * user's device made the group (a refusal rolls the insert back).
 */
export async function lockClient(tx: Executor, key: ClientKey): Promise<number> {
  const [row] = await tx
    .insert(clientMutations)
    .values({ userId: key.userId, clientGroupId: key.clientGroupId, clientId: key.clientId })
    .onConflictDoUpdate({
      target: [clientMutations.clientGroupId, clientMutations.clientId],
      set: { lastMutationId: sql`${clientMutations.lastMutationId}` },
      setWhere: eq(clientMutations.userId, key.userId),
    })
    .returning({
      last: clientMutations.lastMutationId,
      othersInGroup: sql<boolean>`exists (select 1 from ${clientMutations} as other
        where other.client_group_id = ${key.clientGroupId} and other.user_id <> ${key.userId})`,
    });
  if (!row || row.othersInGroup) throw clientGroupNotYours();
  return row.last;
}

/**
 * In a new client's first mutation's transaction, after lockClient (its row, inserted, answered
 * last id 0: every committed row has applied or refused an id): makes room among the user's
 * clients. Past MAX_CLIENTS_PER_USER the least recently written one is deleted if idle for
 * CLIENT_EVICTION_IDLE_MS; otherwise answers the seconds until it will be (the push waits).
 * The account's row is locked first (db/README.md, "Lock order": after the client row), so
 * two new clients of one user count one after the other.
 */
export async function admitNewClient(
  tx: Executor,
  key: ClientKey,
  now: Date,
): Promise<number | undefined> {
  await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.id, key.userId))
    .for('no key update');
  const others = and(
    eq(clientMutations.userId, key.userId),
    or(
      ne(clientMutations.clientGroupId, key.clientGroupId),
      ne(clientMutations.clientId, key.clientId),
    ),
  );
  const [held] = await tx.select({ count: count() }).from(clientMutations).where(others);
  if ((held?.count ?? 0) < MAX_CLIENTS_PER_USER) return undefined;
  // A row another push holds is in use: never the one to go.
  const [oldest] = await tx
    .select({
      clientGroupId: clientMutations.clientGroupId,
      clientId: clientMutations.clientId,
      updatedAt: clientMutations.updatedAt,
    })
    .from(clientMutations)
    .where(others)
    .orderBy(asc(clientMutations.updatedAt))
    .limit(1)
    .for('update', { skipLocked: true });
  const idleSince = now.getTime() - CLIENT_EVICTION_IDLE_MS;
  if (!oldest || oldest.updatedAt.getTime() > idleSince) {
    const waitMs = oldest ? oldest.updatedAt.getTime() - idleSince : CLIENT_EVICTION_IDLE_MS;
    return Math.max(1, Math.ceil(waitMs / 1000));
  }
  const evicted: ClientKey = {
    ...key,
    clientGroupId: oldest.clientGroupId,
    clientId: oldest.clientId,
  };
  await tx
    .delete(clientMutationOutcomes)
    .where(
      and(
        eq(clientMutationOutcomes.clientGroupId, evicted.clientGroupId),
        eq(clientMutationOutcomes.clientId, evicted.clientId),
      ),
    );
  await tx.delete(clientMutations).where(clientRow(evicted));
  return undefined;
}

/** The client's last mutation id without a lock (0 for a client never seen); 403 for another user's group. */
export async function readLastMutationId(tx: Executor, key: ClientKey): Promise<number> {
  // One statement over the group's clients (a handful of tabs): this one's id, and whether
  // another user's device made the group.
  const [row] = await tx
    .select({
      last: sql<
        number | null
      >`max(case when ${clientMutations.clientId} = ${key.clientId} then ${clientMutations.lastMutationId} end)`,
      othersInGroup: sql<boolean | null>`bool_or(${clientMutations.userId} <> ${key.userId})`,
    })
    .from(clientMutations)
    .where(eq(clientMutations.clientGroupId, key.clientGroupId));
  if (row?.othersInGroup) throw clientGroupNotYours();
  return row?.last == null ? 0 : Number(row.last);
}

export interface MutationOutcome {
  createdId?: number | null;
  error?: SyncMutationError | null;
}

/** In the mutation's transaction, after lockClient: `id` is applied (or refused), with its outcome if any. */
export async function recordMutation(
  tx: Executor,
  key: ClientKey,
  id: number,
  outcome: MutationOutcome,
  at: Date,
): Promise<void> {
  const recorded = tx
    .update(clientMutations)
    .set({ lastMutationId: id, updatedAt: at })
    .where(clientRow(key));
  if (outcome.createdId == null && !outcome.error) {
    await recorded;
    return;
  }
  // With its outcome: both in one statement.
  const updated = tx.$with('recorded').as(recorded.returning({ id: clientMutations.clientId }));
  await tx
    .with(updated)
    .insert(clientMutationOutcomes)
    .values({
      userId: key.userId,
      clientGroupId: key.clientGroupId,
      clientId: key.clientId,
      mutationId: id,
      createdId: outcome.createdId ?? null,
      error: outcome.error ?? null,
      createdAt: at,
    });
}

/** The outcome recorded for one applied id (a replay's answer), if any. */
export async function findOutcome(
  tx: Executor,
  key: ClientKey,
  id: number,
): Promise<MutationOutcome | undefined> {
  const [row] = await tx
    .select({ createdId: clientMutationOutcomes.createdId, error: clientMutationOutcomes.error })
    .from(clientMutationOutcomes)
    .where(
      and(
        eq(clientMutationOutcomes.clientGroupId, key.clientGroupId),
        eq(clientMutationOutcomes.clientId, key.clientId),
        eq(clientMutationOutcomes.mutationId, id),
      ),
    );
  return row;
}

/**
 * What a pull tells the device `clientGroupId` of its writes: every client's last mutation id
 * (a handful of tabs), and the outcomes written since `snapshot` (all kept ones without one).
 * Another user's client group reads as empty.
 */
export async function readSyncPull(
  tx: Executor,
  {
    userId,
    clientGroupId,
    snapshot,
  }: { userId: number; clientGroupId: string; snapshot: string | null },
): Promise<SyncPullPart> {
  const clients = await tx
    .select({ clientId: clientMutations.clientId, last: clientMutations.lastMutationId })
    .from(clientMutations)
    .where(
      and(eq(clientMutations.clientGroupId, clientGroupId), eq(clientMutations.userId, userId)),
    );
  const outcomes = await tx
    .select({
      clientID: clientMutationOutcomes.clientId,
      id: clientMutationOutcomes.mutationId,
      createdId: clientMutationOutcomes.createdId,
      error: clientMutationOutcomes.error,
    })
    .from(clientMutationOutcomes)
    .where(
      and(
        eq(clientMutationOutcomes.clientGroupId, clientGroupId),
        eq(clientMutationOutcomes.userId, userId),
        snapshot === null ? undefined : changedSince(clientMutationOutcomes.changeTxid, snapshot),
      ),
    )
    .orderBy(clientMutationOutcomes.clientId, clientMutationOutcomes.mutationId);
  return {
    lastMutationIDChanges: Object.fromEntries(clients.map((row) => [row.clientId, row.last])),
    mutationOutcomes: outcomes,
  };
}

/** Deletes outcomes older than OUTCOME_RETENTION_MS; answers how many. */
export async function purgeOldOutcomes(tx: Executor, now: Date): Promise<number> {
  const gone = await tx
    .delete(clientMutationOutcomes)
    .where(lt(clientMutationOutcomes.createdAt, new Date(now.getTime() - OUTCOME_RETENTION_MS)))
    .returning({ id: clientMutationOutcomes.mutationId });
  return gone.length;
}
