import { describe, expect, it } from 'vitest';
import { SYNC_MUTATION_ROUTES, toSyncMutation } from '../../src/domain/sync';

// A queued write's REST request names one pushed mutation (docs/architecture.md §8): every
// request maps to its own. (That the server has a write for each name is checked by the type
// checker: src/server/sync/sync-mutations.ts.)

describe('toSyncMutation', () => {
  it.each(Object.entries(SYNC_MUTATION_ROUTES))('maps %s’s route back to it', (name, route) => {
    const [method, pattern] = route;
    const path = `/api${pattern.replace(/:[A-Za-z]+/g, '7')}`;
    const mapped = toSyncMutation(method, path, { some: 'body' });
    expect(mapped?.name).toBe(name);
    const params = pattern.match(/:[A-Za-z]+/g)?.map((part) => part.slice(1)) ?? [];
    expect(mapped?.args.params).toEqual(
      params.length ? Object.fromEntries(params.map((param) => [param, 7])) : undefined,
    );
    expect(mapped?.args.body).toEqual({ some: 'body' });
  });

  it('keeps a body-less write body-less, and knows no other request', () => {
    expect(toSyncMutation('POST', '/api/bets/12/cancel')).toEqual({
      name: 'cancelBet',
      args: { params: { id: 12 } },
    });
    expect(toSyncMutation('PUT', '/api/bets/wagers/3', { points: 2 })).toEqual({
      name: 'updateWager',
      args: { params: { wagerId: 3 }, body: { points: 2 } },
    });
    expect(toSyncMutation('GET', '/api/bets/12')).toBeUndefined();
    expect(toSyncMutation('POST', '/api/groups/1/invite-code')).toBeUndefined();
    expect(toSyncMutation('POST', '/auth/logout')).toBeUndefined();
  });
});
