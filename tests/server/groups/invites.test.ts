import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { createGroup, createPlayer, joinGroup } from './group.factories';

// Issue #24, the invited friend: a signed-out visitor's invite link names the group and who
// invited them, only for the right code; and an invite code counts whatever its case.

const server = useTestServer();

function preview(body: unknown) {
  return server.request('POST', '/api/invites/preview', { body });
}

/** Each letter's case flipped where `flips` says so. */
function flipCase(code: string, flips: readonly boolean[]): string {
  return [...code]
    .map((char, index) =>
      flips[index] ? (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase()) : char,
    )
    .join('');
}

describe('invite preview (POST /api/invites/preview)', () => {
  it('names the group and the creator who invited, signed out, for the right code in any case', async () => {
    const owner = await createPlayer(server, 'Ana');
    const group = await createGroup(server, owner, { privacy: 'private', name: 'Thursday Crew' });
    const code = group.inviteCode!;
    const response = await preview({ groupId: String(group.id), inviteCode: code.toUpperCase() });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      groupName: 'Thursday Crew',
      inviterName: owner.user.displayName,
    });
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('names the longest-standing admin once the creator is gone', async () => {
    const owner = await createPlayer(server, 'Ana');
    const group = await createGroup(server, owner, { privacy: 'private' });
    const bea = await createPlayer(server, 'Bea');
    await joinGroup(server, bea, group);
    await server.request('POST', `/api/groups/${group.id}/admins`, {
      token: owner.accessToken,
      body: { userId: bea.user.id },
    });
    const deleted = await server.request('DELETE', '/auth/users/me', {
      token: owner.accessToken,
      body: {},
    });
    expect(deleted.status).toBe(200);
    const response = await preview({ groupId: group.id, inviteCode: group.inviteCode });
    expect(response.body).toEqual({ groupName: group.name, inviterName: bea.user.displayName });
  });

  it('tells nothing for a wrong code, an unknown group or a public group: one answer for all', async () => {
    const owner = await createPlayer(server, 'Ana');
    const group = await createGroup(server, owner, { privacy: 'private' });
    const publicGroup = await createGroup(server, owner);
    const refusals = await Promise.all([
      preview({ groupId: group.id, inviteCode: `${group.inviteCode}x` }),
      preview({ groupId: group.id + 100_000, inviteCode: group.inviteCode }),
      preview({ groupId: publicGroup.id, inviteCode: group.inviteCode }),
    ]);
    for (const response of refusals) {
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        message: 'Invalid invite code. Check the code and try again.',
        code: 'invalid_invite_code',
      });
    }
    expect(JSON.stringify(refusals.map((r) => r.body))).not.toContain(group.name);
  });

  it('validates its body with 400 and its message', async () => {
    const response = await preview({ groupId: '', inviteCode: 'abc123' });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe('Group ID is required');
    expect((await preview({ groupId: 3 })).status).toBe(400);
  });
});

describe('invite codes without case', () => {
  it('lets a friend join with the code in any case, and no other code', async () => {
    const owner = await createPlayer(server, 'Ana');
    const group = await createGroup(server, owner, { privacy: 'private' });
    const code = group.inviteCode!;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.boolean(), { minLength: code.length, maxLength: code.length }),
        async (flips) => {
          const friend = await createPlayer(server, 'Friend');
          const typed = flipCase(code, flips);
          const response = await server.request('POST', '/api/groups/join-private', {
            token: friend.accessToken,
            body: { groupId: group.id, inviteCode: ` ${typed} ` },
          });
          expect(response.status).toBe(200);
          expect(response.body.id).toBe(group.id);
        },
      ),
      { numRuns: 8 },
    );
    const stranger = await createPlayer(server, 'Stranger');
    const wrong = await server.request('POST', '/api/groups/join-private', {
      token: stranger.accessToken,
      body: {
        groupId: group.id,
        // Another last character in any case (codes match without case: z and Z are one).
        inviteCode: `${code.slice(0, -1)}${/z$/i.test(code) ? 'Y' : 'Z'}`,
      },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body.code).toBe('invalid_invite_code');
  });

  it('matches a chosen mixed-case code typed in lower case', async () => {
    const owner = await createPlayer(server, 'Ana');
    const group = await createGroup(server, owner, {
      privacy: 'private',
      inviteCode: 'Thurs-Crew_7',
    });
    const friend = await createPlayer(server, 'Friend');
    const response = await server.request('POST', '/api/groups/join-private', {
      token: friend.accessToken,
      body: { groupId: group.id, inviteCode: 'thurs-crew_7' },
    });
    expect(response.status).toBe(200);
  });
});

describe('invite preview rate limit', () => {
  const limited = useTestServer({ rateLimits: { joinPrivatePerIp: 2 } });

  it('answers 429 after as many tries per IP as invite-code joins allow', async () => {
    const owner = await createPlayer(limited, 'Ana');
    const group = await createGroup(limited, owner, { privacy: 'private' });
    const body = { groupId: group.id, inviteCode: 'wrong-code' };
    for (let i = 0; i < 2; i++)
      expect((await limited.request('POST', '/api/invites/preview', { body })).status).toBe(403);
    const response = await limited.request('POST', '/api/invites/preview', {
      body: { groupId: group.id, inviteCode: group.inviteCode },
    });
    expect(response.status).toBe(429);
    expect(response.body.code).toBe('rate_limited');
  });
});
