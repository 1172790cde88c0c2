import type { AuthResponse } from '../../../src/domain/auth';
import type { Bet, CreateBetRequest, Wager } from '../../../src/domain/bets';
import type { Group } from '../../../src/domain/groups';
import { runBetExpiry } from '../../../src/server/jobs/bet-expiry.job';
import type { TestServer } from '../harness';

// Factories for the bets tests: everything goes through HTTP, as a client would.

export const HOUR = 60 * 60 * 1000;
export const DAY = 24 * HOUR;

/** A test server whose expiry timer is off: the tests run the job themselves. */
export const NO_EXPIRY_TIMER = { env: { BET_EXPIRY_INTERVAL_MS: '0' } };

/** An ISO expiry `ms` from the server's clock. */
export function expiresIn(server: TestServer, ms: number): string {
  return new Date(server.clock.now().getTime() + ms).toISOString();
}

/** A POST /bets body: a yes/no bet in `group` closing in a day, with `overrides`. */
export function betRequest(
  server: TestServer,
  group: Pick<Group, 'id'>,
  overrides: Partial<CreateBetRequest> = {},
): CreateBetRequest {
  return {
    title: 'Will it rain tomorrow?',
    betType: 'yes_no',
    betTypeConfig: {},
    baseWagerAmount: 1,
    expiresAt: expiresIn(server, DAY),
    groupId: group.id,
    ...overrides,
  };
}

export async function createBet(
  server: TestServer,
  creator: AuthResponse,
  group: Group,
  overrides: Partial<CreateBetRequest> = {},
): Promise<Bet> {
  const body = betRequest(server, group, overrides);
  const response = await server.request<Bet>('POST', '/api/bets', {
    token: creator.accessToken,
    body,
  });
  if (response.status !== 201)
    throw new Error(`createBet failed: ${response.status} ${response.text}`);
  return response.body;
}

/** The raw response (a wager or an error body), for tests of refusals. */
export function postWager(
  server: TestServer,
  user: AuthResponse,
  bet: Pick<Bet, 'id'>,
  prediction: string,
  points: number,
) {
  return server.request('POST', '/api/bets/wagers', {
    token: user.accessToken,
    body: { betId: bet.id, prediction, points },
  });
}

export async function placeWager(
  server: TestServer,
  user: AuthResponse,
  bet: Pick<Bet, 'id'>,
  prediction: string,
  points: number,
): Promise<Wager> {
  const response = await postWager(server, user, bet, prediction, points);
  if (response.status !== 201)
    throw new Error(`placeWager failed: ${response.status} ${response.text}`);
  return response.body as Wager;
}

export function resolve(
  server: TestServer,
  user: AuthResponse,
  bet: Pick<Bet, 'id'>,
  correctAnswer: string,
) {
  return server.request('PUT', `/api/bets/${bet.id}/resolve`, {
    token: user.accessToken,
    body: { correctAnswer },
  });
}

export function cancel(server: TestServer, user: AuthResponse, bet: Pick<Bet, 'id'>) {
  return server.request('POST', `/api/bets/${bet.id}/cancel`, { token: user.accessToken });
}

/** The user's points in the group, as the membership call answers them. */
export async function pointsOf(
  server: TestServer,
  user: AuthResponse,
  group: Pick<Group, 'id'>,
): Promise<{ total: number; available: number }> {
  const response = await server.request('GET', `/api/groups/${group.id}/membership`, {
    token: user.accessToken,
  });
  if (response.status !== 200)
    throw new Error(`membership failed: ${response.status} ${response.text}`);
  return { total: response.body.totalPoints, available: response.body.availablePoints };
}

/** Runs the expiry job on the app's database and bus, at the server's clock unless told otherwise. */
export function expireDueBets(server: TestServer, at: Date = server.clock.now()) {
  return runBetExpiry({ db: server.database.db, events: server.app.events }, at);
}
