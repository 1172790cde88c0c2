import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import type { MemberStateResponse } from '../../../src/domain/member-state';
import { MIRROR_START_CURSOR } from '../../../src/domain/mirror';
import type { SyncPushRequest } from '../../../src/domain/schemas/sync';
import {
  OLDEST_SYNC_PROTOCOL_VERSION,
  SYNC_PROTOCOL_HEADER,
  SYNC_PROTOCOL_VERSION,
} from '../../../src/domain/sync-protocol';
import { createGroup, createPlayer } from '../groups/group.factories';
import { useTestServer } from '../harness';
import { connectionRefusal, connectSocket } from '../realtime/test-socket';

// The sync protocol's version (docs/architecture.md §8, "Protocol version"): the pull, the push
// and the socket's handshake carry it; a server that no longer speaks it answers 426
// `client_too_old` and applies nothing, a device newer than the server gets 503
// `server_too_old`, and the versions it speaks, or none (an app from before the header, version
// 1), are answered as always.

const server = useTestServer();

const TOO_OLD = OLDEST_SYNC_PROTOCOL_VERSION - 1;
const TOO_NEW = SYNC_PROTOCOL_VERSION + 1;

const versionHeader = (version: number | string | undefined): Record<string, string> =>
  version === undefined ? {} : { [SYNC_PROTOCOL_HEADER]: String(version) };

function pull(user: AuthResponse, version: number | string | undefined) {
  return server.request('GET', `/api/member/state?cursor=${MIRROR_START_CURSOR}`, {
    token: user.accessToken,
    headers: versionHeader(version),
  });
}

function pushGroup(user: AuthResponse, version: number | undefined, name: string) {
  const body: SyncPushRequest = {
    clientGroupID: randomUUID(),
    clientID: randomUUID(),
    mutations: [
      {
        id: 1,
        name: 'createGroup',
        args: { body: { name, privacy: 'private', defaultPoints: 100 } },
      },
    ],
  };
  return server.request('POST', '/api/sync/push', {
    token: user.accessToken,
    headers: versionHeader(version),
    body,
  });
}

async function groupNames(user: AuthResponse): Promise<string[]> {
  const response = await server.request<MemberStateResponse>('GET', '/api/member/state', {
    token: user.accessToken,
  });
  expect(response.status, response.text).toBe(200);
  return Object.values(response.body.groups).map((group) => group.name ?? '');
}

describe('the pull', () => {
  it('answers the versions the server speaks, and a device that sends none', async () => {
    const player = await createPlayer(server);
    await createGroup(server, player, { name: 'Spoken' });
    for (const version of [SYNC_PROTOCOL_VERSION, OLDEST_SYNC_PROTOCOL_VERSION, undefined]) {
      const response = await pull(player, version);
      expect(response.status, response.text).toBe(200);
    }
  });

  it('refuses an older version with 426 client_too_old', async () => {
    const player = await createPlayer(server);
    const response = await pull(player, TOO_OLD);
    expect(response.status).toBe(426);
    expect(response.body).toMatchObject({ code: 'client_too_old' });
  });

  it('answers a newer version 503 server_too_old', async () => {
    const player = await createPlayer(server);
    const response = await pull(player, TOO_NEW);
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ code: 'server_too_old' });
  });

  it('refuses a version that is no number with 400', async () => {
    const player = await createPlayer(server);
    const response = await pull(player, 'v2');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'validation_failed' });
  });
});

describe('the push', () => {
  it('applies the writes of a version the server speaks', async () => {
    const player = await createPlayer(server);
    const response = await pushGroup(player, SYNC_PROTOCOL_VERSION, 'Current');
    expect(response.status, response.text).toBe(200);
    expect(await groupNames(player)).toEqual(['Current']);
  });

  it('refuses an older version with 426 client_too_old and applies nothing', async () => {
    const player = await createPlayer(server);
    const response = await pushGroup(player, TOO_OLD, 'Too old');
    expect(response.status).toBe(426);
    expect(response.body).toMatchObject({ code: 'client_too_old' });
    expect(await groupNames(player)).toEqual([]);
  });

  it('answers a newer version 503 server_too_old and applies nothing', async () => {
    const player = await createPlayer(server);
    const response = await pushGroup(player, TOO_NEW, 'Too new');
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ code: 'server_too_old' });
    expect(await groupNames(player)).toEqual([]);
  });
});

describe('the socket', () => {
  it('admits the version the server speaks', async () => {
    const player = await createPlayer(server);
    const client = await connectSocket(server, player.accessToken, {
      auth: { token: player.accessToken, protocol: SYNC_PROTOCOL_VERSION },
    });
    client.close();
  });

  it('refuses an older version with client_too_old in the refusal', async () => {
    const player = await createPlayer(server);
    const refusal = await connectionRefusal(server, {
      auth: { token: player.accessToken, protocol: TOO_OLD },
    });
    expect(refusal.data).toEqual({ code: 'client_too_old' });
    expect(refusal.message).toMatch(/^Connection failed: /);
  });

  it('refuses a newer version with server_too_old in the refusal', async () => {
    const player = await createPlayer(server);
    const refusal = await connectionRefusal(server, {
      auth: { token: player.accessToken, protocol: TOO_NEW },
    });
    expect(refusal.data).toEqual({ code: 'server_too_old' });
  });
});

describe('the API description', () => {
  it('names the header and the 426 on the pull and the push', async () => {
    const response = await server.request<{
      paths: Record<
        string,
        Record<string, { parameters?: { $ref?: string }[]; responses: object }>
      >;
    }>('GET', '/api/openapi.json');
    for (const [path, method] of [
      ['/api/member/state', 'get'],
      ['/api/sync/push', 'post'],
    ] as const) {
      const operation = response.body.paths[path]![method]!;
      expect(operation.parameters).toContainEqual({ $ref: '#/components/parameters/SyncProtocol' });
      expect(operation.responses).toHaveProperty('426');
    }
  });
});
