import type { AuthResponse } from '../../../src/domain/auth';
import type { Group } from '../../../src/domain/groups';
import type { Round } from '../../../src/domain/schemas/rounds';
import type { TestServer } from '../harness';

// Factories for the tipping rounds' tests, through HTTP as a client would.

/** A CSV line `date,time,home,away` for a kick-off `ms` from the server's clock (UTC). */
export function csvLine(server: TestServer, ms: number, home: string, away: string, id?: number) {
  const at = new Date(server.clock.now().getTime() + ms).toISOString();
  return [at.slice(0, 10), at.slice(11, 16), home, away, ...(id ? [id] : [])].join(',');
}

export function postRound(
  server: TestServer,
  user: AuthResponse,
  group: Pick<Group, 'id'>,
  body: Record<string, unknown>,
) {
  return server.request<
    Round & { code?: string; message?: string; fieldErrors?: Record<string, string> }
  >('POST', `/api/groups/${group.id}/rounds`, { token: user.accessToken, body });
}

export async function createRound(
  server: TestServer,
  user: AuthResponse,
  group: Pick<Group, 'id'>,
  body: Record<string, unknown>,
): Promise<Round> {
  const response = await postRound(server, user, group, body);
  if (response.status !== 201)
    throw new Error(`createRound failed: ${response.status} ${response.text}`);
  return response.body;
}

export async function getRound(
  server: TestServer,
  user: AuthResponse,
  round: Round,
): Promise<Round> {
  const response = await server.request<Round>(
    'GET',
    `/api/groups/${round.groupId}/rounds/${round.id}`,
    { token: user.accessToken },
  );
  if (response.status !== 200)
    throw new Error(`getRound failed: ${response.status} ${response.text}`);
  return response.body;
}

export function tip(
  server: TestServer,
  user: AuthResponse,
  betId: number,
  prediction: string,
  points = 0,
) {
  return server.request('POST', '/api/bets/wagers', {
    token: user.accessToken,
    body: { betId, prediction, points },
  });
}
