import { describe, expect, it } from 'vitest';
import { createPlayer } from './groups/group.factories';
import { useTestServer } from './harness';

// Ids are PostgreSQL integers (audit item 11): one from 2^31 up used to pass validation and
// overflow the column (500). Every id, in a path, a query or a body, is bounded: 400.

const server = useTestServer();

const TOO_BIG = ['2147483648', '4294967296', '9007199254740991'];

describe('ids beyond the integer columns', () => {
  it.each(TOO_BIG)('%s is a 400 wherever an id goes', async (id) => {
    const { accessToken: token } = await createPlayer(server);
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `/api/groups/${id}`],
      ['GET', `/api/groups/${id}/membership`],
      ['GET', `/api/groups/1/membership?user=${id}`],
      ['GET', `/api/groups/${id}/leaderboard`],
      ['GET', `/api/groups/${id}/bets`],
      ['POST', `/api/groups/${id}/members`, { userId: 1 }],
      ['POST', '/api/groups/1/members', { userId: Number(id) }],
      ['DELETE', `/api/groups/1/members/${id}`],
      ['POST', '/api/groups/1/admins', { userId: Number(id) }],
      ['POST', '/api/groups/join-private', { groupId: Number(id), inviteCode: 'abcdef' }],
      ['POST', '/api/groups/join-private', { groupId: id, inviteCode: 'abcdef' }],
      ['GET', `/api/bets/${id}`],
      ['GET', `/api/bets/group/${id}`],
      ['GET', `/api/bets/user/wagers?group=${id}`],
      ['PUT', `/api/bets/${id}/resolve`, { correctAnswer: 'yes' }],
      ['POST', '/api/bets/wagers', { betId: Number(id), prediction: 'yes', points: 1 }],
      ['PUT', `/api/bets/wagers/${id}`, { prediction: 'yes', points: 1 }],
      [
        'POST',
        '/api/bets',
        {
          title: 'Big',
          betType: 'yes_no',
          betTypeConfig: {},
          baseWagerAmount: 1,
          expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
          groupId: Number(id),
        },
      ],
      ['GET', `/auth/users/ids?ids=${id.length <= 10 ? id : '4294967295'}`],
    ];
    for (const [method, path, body] of calls) {
      const response = await server.request(method, path, { token, body });
      expect(response.status, `${method} ${path}: ${response.text}`).toBe(400);
      expect(response.body.code).toBe('validation_failed');
    }
  });
});
