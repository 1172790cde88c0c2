import { and, eq, lt, sql } from 'drizzle-orm';
import type { SyncMutationError, SyncPullPart } from '../../domain/schemas/sync';
import { changedSince } from '../db/changes';
import type { Executor } from '../db/connect';
import { clientMutationOutcomes, clientMutations } from '../db/schema';
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
