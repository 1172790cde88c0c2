import type { SyncMutationArgs, SyncMutationName } from '../../domain/sync';
import type { ActiveGroupStore } from './active-group-store';
import { TEMP_IDS_KEY, type HunchDb, type MirrorKey, type OutboxEntry, type ShadowRow } from './db';
import { keyOf, MIRROR_TABLES, type MirrorTable } from './synced-tables';

// Writes as named mutators, rebased on every pull (docs/architecture.md §8; Replicache's model, as in
// rocicorp's todo-row-versioning `client/src/mutators.ts`). Each write the domain declares
// (src/domain/sync.ts) has its mutator here, under the same name (group-mutators.ts,
// bet-mutators.ts, …): each says what it pushes (the write's params and body), how it changes
// the mirror optimistically and what the player reads of it (its texts). The outbox stores
// `{mutator, args}` and pushes `{ name, args: push(args) }`; the rebaser keeps the
// server's copy of every row a pending mutator touched in `shadow` and, whenever server rows
// arrive (a pull, an event) or a write is answered or refused, puts the server's copies back,
// writes the server rows, and re-applies the mutators still pending, oldest first. So a pull
// never erases a pending change, and a refused write vanishes without a trace.

/** What a mutator's apply() may do: every write goes through put/remove, which keep the server's copy in `shadow`. */
export interface MutatorContext {
  db: HunchDb;
  /** The signed-in player (the entry's owner). */
  userId: number;
  userName: string;
  /** When the write was made (ISO). */
  now: string;
  /** The server's id for a temporary one once it is known, else the id itself. */
  idFor(id: number): number;
  put(table: MirrorTable, row: object): Promise<void>;
  remove(table: MirrorTable, key: MirrorKey): Promise<void>;
}

/** What afterAnswer may reach. */
export interface AnswerContext {
  db: HunchDb;
  userId: number;
  activeGroup: ActiveGroupStore;
}

/** What the player reads of a write. The outbox and the sync status sheet say it; no screen repeats it. */
export interface MutatorTexts {
  /** The toast when run() leaves the write for later ("You're offline. …"). */
  queued: string;
  /** A refusal's text when the server's answer carries no message of its own. */
  refused: string;
  /** How the sync status sheet and the held writes name it ("Wager"). */
  label: string;
  /**
   * How a refusal nobody waited for names it, given its bet's question quoted or "a bet":
   * "Your 2 points on 'Pizza Friday?' came back" (data/write-refusal.ts). Else its label.
   */
  refusedAs?: (bet: string) => string;
}

export interface Mutator<A = never, R = unknown> {
  /** The write it is, as the domain declares it (src/domain/sync.ts): an unknown name does not compile. */
  name: SyncMutationName;
  /** Its texts, or the texts for these arguments (a new wager or a changed one). */
  texts: MutatorTexts | ((args: A) => MutatorTexts);
  /** Queued without a word: the screen already says it (the inbox's bell). */
  isQuietWhenQueued?: boolean;
  /** The bet the write is about (a temporary id too): its question names a refusal. */
  betIdOf?(args: A): number | undefined;
  /** A few words for the sync status sheet ("Friends", "Will it rain?"). */
  describe?(args: A): string | undefined;
  /** What the push carries: the write's path parameters and body (its REST form is the domain's `restRequestOf`). */
  push(args: A): SyncMutationArgs;
  /** The optimistic change; runs again after every pull while the write is pending. Must not throw on missing rows. */
  apply(args: A, context: MutatorContext): Promise<void>;
  /** A created row's temporary id and the server's id for it, from the answer. */
  numbered?(args: A, response: R): [tempId: number, realId: number] | undefined;
  /** After the answer is recorded: what lives outside Dexie (the active group). */
  afterAnswer?(args: A, response: R, context: AnswerContext): void | Promise<void>;
}

// Mutators are stored by name; their argument types are each mutator's own business.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyMutator = Mutator<any, any>;
export type MutatorRegistry = Partial<Record<SyncMutationName, AnyMutator>>;

/** The registered mutator a stored entry names, if this version has it (an entry may name one it does not). */
export const mutatorOf = (mutators: MutatorRegistry, name: string): AnyMutator | undefined =>
  Object.hasOwn(mutators, name) ? mutators[name as SyncMutationName] : undefined;

/** The texts of `mutator` for `args`. */
export function textsOf<A>(mutator: Pick<Mutator<A>, 'texts'>, args: A): MutatorTexts {
  return typeof mutator.texts === 'function' ? mutator.texts(args) : mutator.texts;
}

const shadowId = (table: MirrorTable, key: MirrorKey) => `${table}:${JSON.stringify(key)}`;

/** A row without its pending mark. */
export function withoutMark<T extends object>(row: T): Omit<T, 'pendingWriteId'> {
  const { pendingWriteId: _mark, ...rest } = row as T & { pendingWriteId?: string };
  return rest;
}

/** `value` with every number that is a known temporary id replaced by the server's id. */
export function replaceIds<T>(value: T, ids: Readonly<Record<string, number>>): T {
  if (typeof value === 'number')
    return (value < 0 && ids[String(value)] !== undefined ? ids[String(value)] : value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => replaceIds(item, ids)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, replaceIds(item, ids)]),
    ) as T;
  }
  return value;
}

/** Statuses whose effect is drawn on top of the server's rows. */
export const isApplied = (entry: Pick<OutboxEntry, 'status'>) => entry.status !== 'failed';

export interface RebaserOptions {
  db: HunchDb;
  mutators: MutatorRegistry;
  /** The signed-in player's name, for rows that show it (a new membership). */
  userName: () => string;
  /**
   * Whether `userId` is still the one signed in. Server rows for a session that has ended (an
   * event handled, an answer read, just after the sign-out) are not written: the mirror was
   * emptied on purpose (session-end.ts). Always true by default.
   */
  isSignedIn?: (userId: number) => boolean;
}

export type Rebaser = ReturnType<typeof createRebaser>;

export function createRebaser({ db, mutators, userName, isSignedIn = () => true }: RebaserOptions) {
  /** Every table a rebase may write, for the transactions that hold one. */
  const tables = () => [
    db.meta,
    db.outbox,
    db.shadow,
    ...MIRROR_TABLES.map((name) => db.table(name)),
  ];

  const readTempIds = async (): Promise<Record<string, number>> =>
    ((await db.meta.get(TEMP_IDS_KEY))?.value as Record<string, number> | undefined) ?? {};

  const contextFor = (entry: OutboxEntry, ids: Record<string, number>): MutatorContext => {
    const saveShadow = async (table: MirrorTable, key: MirrorKey) => {
      const id = shadowId(table, key);
      if (await db.shadow.get(id)) return;
      const current = (await db.table(table).get(key)) as object | undefined;
      await db.shadow.put({ id, table, key, value: current ? withoutMark(current) : null });
    };
    // An answered write is still drawn until the pull that holds it lands, but no longer pending.
    const mark = entry.status === 'answered' ? {} : { pendingWriteId: entry.id };
    return {
      db,
      userId: entry.userId,
      userName: userName(),
      now: new Date(entry.createdAt).toISOString(),
      idFor: (id) => (id < 0 ? (ids[String(id)] ?? id) : id),
      async put(table, row) {
        const key = keyOf(table, row);
        await saveShadow(table, key);
        await db.table(table).put({ ...withoutMark(row), ...mark });
      },
      async remove(table, key) {
        await saveShadow(table, key);
        await db.table(table).delete(key);
      },
    };
  };

  /** Applies one entry's mutator (inside the caller's transaction). A broken mutator is logged, never fatal. */
  const applyEntry = async (entry: OutboxEntry, ids?: Record<string, number>) => {
    const mutator = mutatorOf(mutators, entry.mutator);
    if (!mutator) return;
    const known = ids ?? (await readTempIds());
    try {
      await mutator.apply(replaceIds(entry.args as never, known), contextFor(entry, known));
    } catch (error) {
      console.warn(`Applying ${entry.mutator} failed`, error);
    }
  };

  /** Puts every shadowed row back to the server's copy (inside the caller's transaction); true if there were any. */
  const restoreShadows = async (): Promise<boolean> => {
    const shadows: ShadowRow[] = await db.shadow.toArray();
    for (const shadow of shadows) {
      const table = db.table(shadow.table);
      if (shadow.value === null) await table.delete(shadow.key);
      else await table.put(shadow.value);
    }
    if (shadows.length > 0) await db.shadow.clear();
    return shadows.length > 0;
  };

  /** Re-applies the player's applied entries, oldest first (inside the caller's transaction). */
  const reapply = async (userId: number) => {
    const entries = (await db.outbox.where('userId').equals(userId).sortBy('createdAt')).filter(
      isApplied,
    );
    if (entries.length === 0) return;
    const ids = await readTempIds();
    for (const entry of entries) await applyEntry(entry, ids);
  };

  /**
   * The server numbered a row made under `temp` by write `by` (inside the caller's
   * transaction): kept, and the player's other queued writes naming it (a wager on a bet
   * created offline) name the server's.
   */
  const recordTempId = async (userId: number, temp: number, real: number, by: string) => {
    const ids = { ...(await readTempIds()), [String(temp)]: real };
    await db.meta.put({ key: TEMP_IDS_KEY, value: ids });
    await db.outbox
      .where('userId')
      .equals(userId)
      .modify((queued) => {
        if (queued.id !== by) queued.args = replaceIds(queued.args, ids);
      });
  };

  /** A write's answer (or a replay's created id): the row it made keeps the server's id (inside the caller's transaction). */
  const recordCreated = async (entry: OutboxEntry, response: unknown) => {
    const mutator = mutatorOf(mutators, entry.mutator);
    const args = replaceIds(entry.args as never, await readTempIds());
    const numbered = mutator?.numbered?.(args, response as never);
    if (numbered) await recordTempId(entry.userId, numbered[0], numbered[1], entry.id);
  };

  return {
    tables,
    readTempIds,
    recordCreated,
    applyEntry,
    /**
     * Runs `write` (server rows into the mirror) in ONE transaction between putting the server's
     * copies back and re-applying the pending mutators: the rebase. With nothing pending it is
     * just `write`. Nothing is written (undefined) once the player's session has ended.
     */
    async serverWrite<T>(userId: number, write: () => Promise<T>): Promise<T | undefined> {
      return db.transaction('rw', tables(), async () => {
        // Asked inside the transaction: one made after the session's end sees it ended.
        if (!isSignedIn(userId)) return undefined;
        await restoreShadows();
        const result = await write();
        await reapply(userId);
        return result;
      });
    },
    /** A rebase with no new server rows: after an answer or a refusal, a retry or a discard. */
    async rebase(userId: number): Promise<void> {
      await db.transaction('rw', tables(), async () => {
        await restoreShadows();
        await reapply(userId);
      });
    },
  };
}
