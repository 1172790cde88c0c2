import { expect, it } from 'vitest';
import { APP_MUTATORS } from '../../../src/client/data/local-data';
import type { Mutator } from '../../../src/client/data/mutators';
import { SYNC_WRITES, type SyncMutationName } from '../../../src/domain/sync';

// A device mutator is keyed by the write it is (src/domain/sync.ts): a name the domain does
// not declare does not compile, and every mutator the app registers is a declared write, once.

const misspelt: Pick<Mutator<{ betId: number }>, 'name' | 'push'> = {
  // @ts-expect-error: no write is called that: a misspelt name fails the type check, not a push.
  name: 'placeWagr',
  push: ({ betId }) => ({ params: { id: betId } }),
};

it('registers each declared write at most once, under its own name', () => {
  const names = APP_MUTATORS.map((mutator) => mutator.name);
  expect(new Set(names).size).toBe(names.length);
  for (const name of names) expect(Object.keys(SYNC_WRITES)).toContain(name);
  // Every write the app makes goes through the outbox; sharing a bet's link alone is asked
  // straight of the server (the link is wanted now, to be sent).
  const online: SyncMutationName[] = ['shareBet', 'stopSharingBet'];
  expect(
    Object.keys(SYNC_WRITES)
      .filter((name) => !names.includes(name as SyncMutationName))
      .sort(),
  ).toEqual(online.sort());
  expect(misspelt.name).toBe('placeWagr');
});
