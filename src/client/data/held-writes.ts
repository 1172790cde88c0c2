import type { HeldWrite, HunchDb, OutboxEntry } from './db';
import { replaceIds, type Rebaser } from './mutators';
import type { SessionStore } from './session-store';

// The writes held when a session ended (session-end.ts), as their player finds them at their
// next sign-in: each is sent only when they say so, back through the outbox with its own
// Idempotency-Key (a write that did reach the server before the end is not applied twice),
// or discarded. Only the signed-in player's own are ever listed or sent.

export interface HeldWritesOptions {
  db: HunchDb;
  session: Pick<SessionStore, 'user'>;
  rebaser: Rebaser;
  /** After a held write went back into the outbox: send it (the local data's sync). */
  onQueued: () => Promise<void>;
}

export type HeldWrites = ReturnType<typeof createHeldWrites>;

export function createHeldWrites({ db, session, rebaser, onQueued }: HeldWritesOptions) {
  return {
    /** The player's held writes, oldest first. */
    list(userId: number): Promise<HeldWrite[]> {
      return db.held.where('userId').equals(userId).sortBy('createdAt');
    },

    /**
     * Back into the outbox, drawn at once, then sent. It keeps its place (its first
     * createdAt): older than anything written since, it goes first, as it would have.
     */
    async send(id: string): Promise<void> {
      const userId = session.user?.id;
      if (userId === undefined) return;
      const isQueued = await db.transaction('rw', [db.held, ...rebaser.tables()], async () => {
        const held = await db.held.get(id);
        if (!held || held.userId !== userId) return false;
        await db.held.delete(id);
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
        await rebaser.applyEntry(entry);
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
