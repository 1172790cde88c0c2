import {
  cancelBetMutator,
  createBetMutator,
  placeWagerMutator,
  resolveBetMutator,
} from './bet-mutators';
import type { LegacyRequestArgs, OutboxKind } from './db';
import { createGroupMutator, joinGroupMutator } from './group-mutators';
import { textsOf, type AnyMutator, type Mutator } from './mutators';

// A version 4 outbox entry (db.ts upgradeToMirror) survives as the `request` mutator: its stored
// request, sent unchanged. It named the kind of write it was, one of the seven that version 4
// had: it reads as that write's mutator does.

/** The mutator each stored kind stands for, with the arguments its texts read (a changed wager names its wager). */
const MUTATOR_OF_KIND: Record<OutboxKind, [AnyMutator, object]> = {
  createGroup: [createGroupMutator, {}],
  joinGroup: [joinGroupMutator, {}],
  createBet: [createBetMutator, {}],
  placeWager: [placeWagerMutator, {}],
  updateWager: [placeWagerMutator, { wagerId: 0 }],
  resolveBet: [resolveBetMutator, {}],
  cancelBet: [cancelBetMutator, {}],
};

/** The stored body's fields (a wager's points, its bet), which that write's texts read. */
const fieldsOf = (body: unknown): object => (body && typeof body === 'object' ? body : {});

/** Sends a version 4 outbox entry's request unchanged: no optimistic rows. */
export const legacyRequest: Mutator<LegacyRequestArgs> = {
  name: 'request',
  texts: ({ kind, body }) => {
    const [mutator, args] = MUTATOR_OF_KIND[kind];
    return textsOf(mutator, { ...fieldsOf(body), ...args });
  },
  betIdOf: ({ body }) => {
    const { betId } = fieldsOf(body) as { betId?: unknown };
    return typeof betId === 'number' ? betId : undefined;
  },
  request: ({ method, path, body }) => ({ method, path, body }),
  apply: async () => undefined,
};
