import { describe, expect, it } from 'vitest';
import { writeOfRequest } from '../../src/client/data/legacy-request';
import { restRequestOf, SYNC_WRITES, type SyncMutationName } from '../../src/domain/sync';

// Every write is declared once in the domain (docs/architecture.md §8): its name and its REST
// method and path. The REST form of a pushed write is derived from that declaration, and a
// REST request stored by an old app is read back to the same write. (That the server has a
// `run` for each name, and that a device mutator names only declared writes, is the type
// checker's: src/server/sync/sync-mutations.ts, tests/client/data/mutator-names.test.ts.)

describe('the declared writes', () => {
  it.each(Object.entries(SYNC_WRITES))('%s’s REST form reads back as it', (name, write) => {
    const params = Object.fromEntries(
      (write.path.match(/:[A-Za-z]+/g) ?? []).map((part) => [part.slice(1), 7]),
    );
    const request = restRequestOf({
      name: name as SyncMutationName,
      args: { params, body: { some: 'body' } },
    });
    expect(request.method).toBe(write.method);
    expect(request.body).toEqual({ some: 'body' });
    expect(writeOfRequest(request.method, `/api${request.path}`)).toEqual({ name, params });
  });

  it('fills in the path parameters, keeps a body-less write body-less, and knows no other request', () => {
    expect(restRequestOf({ name: 'cancelBet', args: { params: { id: 12 } } })).toEqual({
      method: 'POST',
      path: '/bets/12/cancel',
    });
    expect(
      restRequestOf({
        name: 'addBackMember',
        args: { params: { id: 3, userId: 9 } },
      }).path,
    ).toBe('/groups/3/members/9/add-back');
    expect(() => restRequestOf({ name: 'cancelBet', args: {} })).toThrow(/"id"/);
    expect(writeOfRequest('PUT', '/api/bets/wagers/3')).toEqual({
      name: 'updateWager',
      params: { wagerId: 3 },
    });
    expect(writeOfRequest('GET', '/api/bets/12')).toBeUndefined();
    expect(writeOfRequest('POST', '/auth/logout')).toBeUndefined();
  });
});
