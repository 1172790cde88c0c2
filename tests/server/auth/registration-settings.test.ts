import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group } from '../../../src/domain/groups';
import {
  createUser,
  newAccount,
  startTestServer,
  useTestServer,
  type SignedInUser,
  type TestServer,
} from '../harness';
import { createGroup } from '../groups/group.factories';

// The operator decides who may join (REGISTRATION=open|invite|closed, GUESTS=on|off): the
// server refuses every other sign-up, and tells the sign-in screens what it accepts. The
// restricted servers share the open one's database, where the first accounts and the group
// were made (as an operator opens the server for themselves first).

const open = useTestServer();
const restricted: Record<string, TestServer> = {};
let owner: SignedInUser;
let group: Group;

async function withSettings(env: Record<string, string>): Promise<TestServer> {
  return startTestServer({ database: open.database, env });
}

beforeAll(async () => {
  owner = await createUser(open);
  group = await createGroup(open, owner, { privacy: 'private' });
  restricted.invite = await withSettings({ REGISTRATION: 'invite' });
  restricted.closed = await withSettings({ REGISTRATION: 'closed' });
  restricted.noGuests = await withSettings({ GUESTS: 'off' });
  restricted.inviteNoGuests = await withSettings({ REGISTRATION: 'invite', GUESTS: 'off' });
});
afterAll(async () => {
  for (const server of Object.values(restricted)) await server.close();
});

const invite = () => ({ groupId: group.id, inviteCode: group.inviteCode! });
const signUp = (server: TestServer, extra: Record<string, unknown> = {}) =>
  server.request('POST', '/auth/register', { body: { ...newAccount(), ...extra } });
const guest = (server: TestServer, extra: Record<string, unknown> = {}) =>
  server.request('POST', '/auth/register-guest', {
    body: { displayName: 'Guest Player', appName: 'hunch', ...extra },
  });

describe('GET /auth/registration', () => {
  it('tells the client what the server accepts, open with guests by default', async () => {
    expect((await open.request('GET', '/auth/registration')).body).toEqual({
      registration: 'open',
      guests: true,
    });
    expect((await restricted.inviteNoGuests!.request('GET', '/auth/registration')).body).toEqual({
      registration: 'invite',
      guests: false,
    });
  });
});

describe('REGISTRATION=closed', () => {
  it('refuses sign-ups and guests with 403 registration_closed, and existing accounts sign in', async () => {
    const server = restricted.closed!;
    for (const response of [await signUp(server, { invite: invite() }), await guest(server)]) {
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        code: 'registration_closed',
        message: 'This server is not taking new accounts. Sign in with an existing account.',
      });
    }
    const signIn = await server.request('POST', '/auth/login', {
      body: { email: owner.email, password: owner.password, appName: 'hunch' },
    });
    expect(signIn.status).toBe(200);
  });
});

describe('REGISTRATION=invite', () => {
  it('refuses a sign-up or a guest without an invite with 403 invite_required', async () => {
    for (const response of [await signUp(restricted.invite!), await guest(restricted.invite!)]) {
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('invite_required');
    }
  });

  it('refuses a wrong invite code with 403 invalid_invite_code, and creates nothing', async () => {
    const account = newAccount();
    const response = await restricted.invite!.request('POST', '/auth/register', {
      body: { ...account, invite: { groupId: group.id, inviteCode: 'WRONGCODE' } },
    });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('invalid_invite_code');
    const signIn = await open.request('POST', '/auth/login', {
      body: { email: account.email, password: account.password, appName: 'hunch' },
    });
    expect(signIn.status).toBe(401);
  });

  it('lets a sign-up and a guest in through a valid invite', async () => {
    expect((await signUp(restricted.invite!, { invite: invite() })).status).toBe(201);
    expect((await guest(restricted.invite!, { invite: invite() })).status).toBe(201);
  });
});

describe('GUESTS=off', () => {
  it('refuses guests with 403 guests_disabled, and still takes full sign-ups', async () => {
    const response = await guest(restricted.noGuests!);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      code: 'guests_disabled',
      message: 'This server does not allow guests.',
    });
    expect((await signUp(restricted.noGuests!)).status).toBe(201);
  });

  it('refuses guests even with a valid invite on an invite-only server', async () => {
    const response = await guest(restricted.inviteNoGuests!, { invite: invite() });
    expect(response.body.code).toBe('guests_disabled');
    expect((await signUp(restricted.inviteNoGuests!, { invite: invite() })).status).toBe(201);
  });
});

describe('the settings', () => {
  it('stop start-up naming the variable when they hold anything else', async () => {
    await expect(withSettings({ REGISTRATION: 'maybe', GUESTS: 'yes' })).rejects.toThrow(
      /REGISTRATION: must be one of open, invite, closed[\s\S]*GUESTS: must be on or off/,
    );
  });
});
