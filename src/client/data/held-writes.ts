import { SYNC_LAST_IDS_KEY, type HeldWrite, type HunchDb, type OutboxEntry } from './db';
import { replaceIds, type Rebaser } from './mutators';
import type { SessionStore } from './session-store';
import { numberWaitingWrites, type ClientGroupOf } from './sync-client';

// The writes held when a session ended (session-end.ts), as their player finds them at their
// next sign-in: each is sent only when they say so, or discarded. Only the signed-in player's
// own are ever listed or sent. A held write keeps the client and mutation id it was pushed
// under; before it goes, a pull reports that client's last applied id: at or below it, the write
// did reach the server before the end (it goes silently, never applied twice); above it, it never
// arrived and goes back into the outbox numbered under the current client (no gap, no double).

export interface HeldWritesOptions {
  db: HunchDb;
  session: Pick<SessionStore, 'user'>;
  rebaser: Rebaser;
  /** After a held write went back into the outbox: send it (the local data's sync). */
  onQueued: () => Promise<void>;
  /** A pull, which records each client's last applied mutation id (sync-engine.ts). */
  pull: () => Promise<void>;
  clientGroupOf: ClientGroupOf;
}

export type HeldWrites = ReturnType<typeof createHeldWrites>;

export function createHeldWrites({
  db,
  session,
  rebaser,
  onQueued,
  pull,
  clientGroupOf,
}: HeldWritesOptions) {
  /** Whether the server applied the held write already (a pull first says how far its client got). */
  const hasArrived = async ({ clientID, mutationID }: HeldWrite) => {
    if (clientID === undefined || mutationID === undefined) return false;
    await pull();
    const lastIds = (await db.meta.get(SYNC_LAST_IDS_KEY))?.value as
      Record<string, number> | undefined;
    return mutationID <= (lastIds?.[clientID] ?? 0);
  };

  return {
    /** The player's held writes, oldest first. */
    list(userId: number): Promise<HeldWrite[]> {
      return db.held.where('userId').equals(userId).sortBy('createdAt');
    },

    /**
     * Back into the outbox, drawn at once, then sent, unless a pull says it arrived before the
     * session ended (then it just goes: the mirror holds it). It keeps its first createdAt
     * (drawn in its place) and is numbered after the writes already queued.
     */
    async send(id: string): Promise<void> {
      const userId = session.user?.id;
      if (userId === undefined) return;
      const first = await db.held.get(id);
      if (!first || first.userId !== userId) return;
      const arrived = await hasArrived(first);
      const isQueued = await db.transaction('rw', [db.held, ...rebaser.tables()], async () => {
        const held = await db.held.get(id);
        if (!held || held.userId !== userId || session.user?.id !== userId) return false;
        await db.held.delete(id);
        if (arrived) return false;
        const entry: OutboxEntry = {
          id: held.id,
          userId,
          mutator: held.mutator,
          args: replaceIds(held.args, await rebaser.readTempIds()),
          createdAt: held.createdAt,
          status: 'pending',
          attempts: 0,
        };
        await db.outbox.put(entry);
        await numberWaitingWrites(db, userId, clientGroupOf(userId));
        await rebaser.applyEntry((await db.outbox.get(entry.id)) ?? entry);
        return true;
      });
      if (isQueued) await onQueued();
    },

    /** Forgets one of the player's held writes. */
    async discard(id: string): Promise<void> {
      const userId = session.user?.id;
      if (userId === undefined) return;
      await db.transaction('rw', db.held, async () => {
        if ((await db.held.get(id))?.userId === userId) await db.held.delete(id);
      });
    },
  };
}
