import type { AuthResponse } from '../../../src/domain/auth';
import type { Group } from '../../../src/domain/groups';
import { DAY, expiresIn } from '../bets/bet.factories';
import { createGroup, joinGroup } from '../groups/group.factories';
import type { TestResponse, TestServer } from '../harness';

// What the race tests of db/concurrency.test.ts share: their answers' statuses and 5xx, and a
// group, a season started or ended in one call.

export function statusesOf(responses: readonly TestResponse[]): number[] {
  return responses.map((response) => response.status);
}

export function failuresOf(responses: readonly TestResponse[]): string[] {
  return responses.filter((response) => response.status >= 500).map((response) => response.text);
}

export async function groupOf(
  server: TestServer,
  owner: AuthResponse,
  members: readonly AuthResponse[],
): Promise<Group> {
  const group = await createGroup(server, owner, { defaultPoints: 1000 });
  for (const member of members) await joinGroup(server, member, group);
  return group;
}

export function startSeason(server: TestServer, admin: AuthResponse, group: Group, name: string) {
  return server.request('POST', `/api/groups/${group.id}/seasons`, {
    token: admin.accessToken,
    body: { name, endsAt: expiresIn(server, 5 * DAY), resetPoints: true },
  });
}

export function endSeason(server: TestServer, admin: AuthResponse, group: Group, seasonId: number) {
  return server.request('POST', `/api/groups/${group.id}/seasons/${seasonId}/end`, {
    token: admin.accessToken,
  });
}
