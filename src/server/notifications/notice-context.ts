import type { NotificationKind } from '../../domain/notifications';
import type { Database } from '../db/connect';
import type { NotificationRow } from '../db/schema';
import type { BusEventName, BusEventPayload } from '../events';
import type { NotificationEntry } from './notification-store';

// What the recorder's handlers (the *-notices.ts files) are given: each turns some of the bus's
// events into inbox entries through these steps, so none writes or announces on its own.

export interface NoticeContext {
  db: Database;
  now: () => Date;
  /** Writes entries of one kind and announces them; `quiet` ones (by user, or as it says) are never pushed. */
  save(
    kind: NotificationKind,
    entries: Omit<NotificationEntry, 'kind'>[],
    quiet?: ReadonlySet<number> | ((row: NotificationRow) => boolean),
  ): Promise<void>;
  /** Tells the owners of entries changed in place (read, taken back, a comment uncounted). */
  republish(rows: readonly NotificationRow[]): void;
  /** The group's current members but `except`, who did not mute the group (or the bet). */
  audience(groupId: number, betId: number | null, except: readonly number[]): Promise<number[]>;
}

/** A family's handlers, by the bus event each one hears. */
export type NoticeHandlers = {
  [E in BusEventName]?: (payload: BusEventPayload<E>) => Promise<void>;
};
