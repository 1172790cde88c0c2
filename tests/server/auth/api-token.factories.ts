import { expect } from 'vitest';
import type { ApiTokenScope, CreatedApiToken } from '../../../src/domain/api-tokens';
import type { AuthResponse } from '../../../src/domain/auth';
import type { TestServer } from '../harness';

// Factories for the personal API token tests.

export const BOTH_SCOPES: ApiTokenScope[] = ['read', 'play'];

/** Makes a token through the API, as the Profile screen does. */
export async function makeToken(
  server: Pick<TestServer, 'request'>,
  user: AuthResponse,
  scopes: ApiTokenScope[] = BOTH_SCOPES,
  name = 'My script',
  expiresAt?: string,
): Promise<CreatedApiToken> {
  const response = await server.request<CreatedApiToken>('POST', '/api/tokens', {
    token: user.accessToken,
    body: { name, scopes, ...(expiresAt === undefined ? {} : { expiresAt }) },
  });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

export function revokeToken(server: Pick<TestServer, 'request'>, user: AuthResponse, id: number) {
  return server.request('DELETE', `/api/tokens/${id}`, { token: user.accessToken });
}
