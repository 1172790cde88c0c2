import type { Transaction } from 'dexie';
import { SYNC_WRITES, type SyncMutationArgs, type SyncMutationName } from '../../domain/sync';
import type { LegacyRequestArgs } from './db';

// Writes stored by an older app, made the writes of this one (db.ts, version 15): every queued
// or held write names a write the domain declares (src/domain/sync.ts) and carries its
// mutator's arguments, so it is pushed, drawn and named as a write made today is.
// - Before version 15 a mutator could stand for two writes (`joinGroup` public or private,
//   `placeWager` new or changed, `readNotifications` some or all) or use a name of its own
//   (`setFloorTopUp`, `addComment`): each becomes the one write it was.
// - A version 4 entry kept its REST request (the `request` mutator, db.ts upgradeToMirror): its
//   path names the write, once, here; its params and body become that mutator's arguments.

/** A stored write: the mutator it names and its arguments. */
interface StoredWrite {
  mutator: string;
  args: unknown;
}

type Fields = Record<string, unknown>;
const fieldsOf = (value: unknown): Fields =>
  value && typeof value === 'object' ? (value as Fields) : {};

/** A temporary id for a row a version 4 write creates (drawn until the server numbers it). */
const newTempId = () => -(Math.floor(Math.random() * 2 ** 31) + 1);

/** The declared write a REST request (under /api) is, with its path parameters; undefined for none. */
export function writeOfRequest(
  method: string,
  path: string,
): { name: SyncMutationName; params: NonNullable<SyncMutationArgs['params']> } | undefined {
  const parts = path.replace(/^\/api(?=\/)/, '').split('/');
  for (const [name, write] of Object.entries(SYNC_WRITES)) {
    const wanted = write.path.split('/');
    if (write.method !== method || wanted.length !== parts.length) continue;
    const params: Record<string, number | string> = {};
    const matches = wanted.every((part, index) => {
      const actual = decodeURIComponent(parts[index]!);
      if (!part.startsWith(':')) return part === actual;
      params[part.slice(1)] = /^-?\d{1,15}$/.test(actual) ? Number(actual) : actual;
      return actual !== '';
    });
    if (matches) return { name: name as SyncMutationName, params };
  }
  return undefined;
}

type Params = NonNullable<SyncMutationArgs['params']>;

/** Each write version 4 queued (its seven kinds), its mutator's arguments from its params and body. */
const ARGS_OF_REQUEST: Partial<
  Record<SyncMutationName, (params: Params, body: unknown) => object>
> = {
  createGroup: (_params, body) => ({ tempId: newTempId(), input: body }),
  createBet: (_params, body) => ({ tempId: newTempId(), request: body }),
  joinPublicGroup: (_params, body) => ({
    privacy: 'public',
    groupName: fieldsOf(body).groupName,
  }),
  joinPrivateGroup: (_params, body) => ({
    privacy: 'private',
    groupId: fieldsOf(body).groupId,
    inviteCode: fieldsOf(body).inviteCode,
  }),
  placeWager: (_params, body) => ({ ...fieldsOf(body) }),
  updateWager: (params, body) => ({ ...fieldsOf(body), wagerId: params.wagerId }),
  resolveBet: (params, body) => ({
    betId: params.id,
    correctAnswer: fieldsOf(body).correctAnswer,
  }),
  cancelBet: (params) => ({ betId: params.id }),
};

/** A version 4 request as the mutator of the write it is. */
function fromRequest({ method, path, body }: LegacyRequestArgs): StoredWrite | undefined {
  const write = writeOfRequest(method, path);
  const argsOf = write && ARGS_OF_REQUEST[write.name];
  return argsOf && { mutator: write.name, args: argsOf(write.params, body) };
}

/** The write a stored entry is in this version's names; unchanged when it already is one (or is unknown). */
export function namedWriteOf(stored: StoredWrite): StoredWrite {
  const args = fieldsOf(stored.args);
  switch (stored.mutator) {
    case 'request':
      return fromRequest(stored.args as LegacyRequestArgs) ?? stored;
    case 'joinGroup':
      return {
        mutator: args.privacy === 'public' ? 'joinPublicGroup' : 'joinPrivateGroup',
        args: stored.args,
      };
    case 'placeWager':
      return args.wagerId === undefined ? stored : { mutator: 'updateWager', args: stored.args };
    case 'setFloorTopUp':
      return { mutator: 'updateGroupSettings', args: stored.args };
    case 'addComment':
      return { mutator: 'postComment', args: stored.args };
    case 'readNotifications':
      return args.upTo !== undefined
        ? { mutator: 'markAllNotificationsRead', args: { upTo: args.upTo } }
        : { mutator: 'markNotificationsRead', args: { ids: args.ids ?? [] } };
    default:
      return stored;
  }
}

/**
 * Version 14 → 15 in place: every queued and held write names its write (`namedWriteOf`). Its
 * client and mutation id stay, so one already pushed is known to the server as the same write.
 */
export async function upgradeToNamedWrites(tx: Transaction): Promise<void> {
  for (const table of ['outbox', 'held'])
    await tx
      .table(table)
      .toCollection()
      .modify((entry: StoredWrite) => {
        const named = namedWriteOf(entry);
        entry.mutator = named.mutator;
        entry.args = named.args;
      });
}
