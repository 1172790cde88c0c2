import { beforeAll, describe, expect, it } from 'vitest';
import { API_ERROR_CODES } from '../../src/domain/api-error';
import { createUser, useTestServer } from './harness';

// No input of any shape produces a 500 (docs/architecture.md §6): every endpoint that
// takes a body gets every kind of garbage and must answer 4xx with the error body.

const MEGABYTE = 'x'.repeat(1024 * 1024);

const ENDPOINTS: Array<{ method: string; url: string; signedIn?: boolean }> = [
  { method: 'POST', url: '/auth/register' },
  { method: 'POST', url: '/auth/login' },
  { method: 'POST', url: '/auth/register-guest' },
  { method: 'POST', url: '/auth/refresh-token' },
  { method: 'POST', url: '/auth/revoke-token' },
  { method: 'POST', url: '/auth/forgot-password' },
  { method: 'POST', url: '/auth/reset-password' },
  { method: 'PUT', url: '/auth/users/me', signedIn: true },
];

const BODIES: Array<{ name: string; raw: string; contentType?: string; validFor?: string }> = [
  { name: 'invalid JSON', raw: '{"email": ' },
  { name: 'an empty body', raw: '' },
  { name: 'null', raw: 'null' },
  { name: 'an array', raw: '[{"email":"a@b.co"}]' },
  { name: 'a string', raw: '"hello"' },
  { name: 'a number', raw: '42' },
  { name: 'true', raw: 'true' },
  // An empty profile update changes nothing, and rightly succeeds.
  { name: 'an empty object', raw: '{}', validFor: '/auth/users/me' },
  {
    name: 'every field null',
    raw: JSON.stringify(
      Object.fromEntries(
        [
          'email',
          'password',
          'passwordConfirm',
          'displayName',
          'username',
          'firstName',
          'lastName',
          'appName',
          'isTemporary',
          'token',
          'refreshToken',
        ].map((k) => [k, null]),
      ),
    ),
  },
  {
    name: 'fields of the wrong types',
    raw: JSON.stringify({
      email: 42,
      password: ['x'],
      passwordConfirm: {},
      displayName: true,
      username: 1.5,
      firstName: [],
      lastName: {},
      appName: 7,
      isTemporary: 'yes',
      token: 1,
      refreshToken: false,
    }),
  },
  {
    name: 'nested objects',
    raw: JSON.stringify({
      email: { $ne: null },
      password: { $gt: '' },
      refreshToken: { toString: 1 },
      token: [1, 2],
    }),
  },
  {
    name: 'a 1 MB string',
    raw: JSON.stringify({
      email: MEGABYTE,
      password: MEGABYTE,
      refreshToken: MEGABYTE,
      displayName: MEGABYTE,
    }),
  },
  {
    name: 'a 60 KB string',
    raw: JSON.stringify({
      email: 'y'.repeat(60_000),
      password: 'y'.repeat(60_000),
      refreshToken: 'y'.repeat(60_000),
      token: 'y'.repeat(60_000),
      displayName: 'y'.repeat(60_000),
    }),
  },
  {
    name: 'extra keys',
    raw: JSON.stringify({
      email: 'a@b.co',
      password: 'Correct-horse-1',
      refreshToken: 'x',
      displayName: 'Extra',
      token: 'x',
      passwordConfirm: 'Correct-horse-1',
      extra: 1,
    }),
  },
  { name: 'a __proto__ key', raw: '{"__proto__": {"isAdmin": true}, "email": "a@b.co"}' },
  { name: 'a constructor key', raw: '{"constructor": {"prototype": {"x": 1}}}' },
  {
    name: 'a wrong content type',
    raw: 'email=a@b.co&password=x',
    contentType: 'application/x-www-form-urlencoded',
  },
  { name: 'text/plain', raw: '{"email":"a@b.co"}', contentType: 'text/plain' },
  {
    name: 'an unknown charset',
    raw: '{}',
    contentType: 'application/json; charset=klingon',
    validFor: '/auth/users/me',
  },
  { name: 'invalid UTF-8 escapes', raw: '{"email":"\\ud800","password":"\\udfff"}' },
];

describe('malformed bodies', () => {
  const server = useTestServer();
  let token: string;
  beforeAll(async () => {
    token = (await createUser(server)).accessToken;
  });

  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.method} ${endpoint.url} answers every malformed body with a 4xx error body`, async () => {
      for (const body of BODIES.filter((b) => b.validFor !== endpoint.url)) {
        const response = await server.request(endpoint.method, endpoint.url, {
          rawBody: body.raw,
          token: endpoint.signedIn ? token : undefined,
          headers: { 'content-type': body.contentType ?? 'application/json' },
        });
        expect(
          response.status,
          `${body.name}: ${response.text.slice(0, 200)}`,
        ).toBeGreaterThanOrEqual(400);
        expect(response.status, `${body.name}: ${response.text.slice(0, 200)}`).toBeLessThan(500);
        expect(response.body, body.name).toEqual(
          expect.objectContaining({ message: expect.any(String), code: expect.any(String) }),
        );
        expect(API_ERROR_CODES, body.name).toContain(response.body.code);
      }
    });
  }

  it('refuses a body over the limit with 413', async () => {
    const response = await server.request('POST', '/auth/login', {
      rawBody: JSON.stringify({ email: MEGABYTE }),
    });
    expect(response.status).toBe(413);
    expect(response.body.code).toBe('body_too_large');
  });

  it('refuses a deeply nested body with 400 body_too_deep, Idempotency-Key or not', async () => {
    // 20,000 levels fit the size limit and once overflowed the stack of the key's canonical
    // form: a 500 before validation ran.
    const nested = '['.repeat(20_000) + ']'.repeat(20_000);
    for (const headers of [{ 'idempotency-key': 'deep-body-1' }, {} as Record<string, string>]) {
      const response = await server.request('POST', '/api/groups', {
        rawBody: `{"name":"Deep","extra":${nested}}`,
        token,
        headers,
      });
      expect(response.status, JSON.stringify(headers)).toBe(400);
      expect(response.body.code).toBe('body_too_deep');
    }
  });

  it('takes a body nested as deep as the limit allows', async () => {
    const response = await server.request('POST', '/api/groups', {
      rawBody: JSON.stringify({ name: 'Shallow enough', description: null }),
      token,
      headers: { 'idempotency-key': 'shallow-body-1' },
    });
    expect(response.status).toBe(201);
  });

  it('refuses invalid JSON with 400 invalid_json', async () => {
    const response = await server.request('POST', '/auth/login', { rawBody: '{nope' });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('invalid_json');
  });

  it('refuses a form-encoded body with 415', async () => {
    const response = await server.request('POST', '/auth/login', {
      rawBody: 'a=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(415);
  });

  it('answers malformed query strings on GET /auth/users/ids with 400', async () => {
    for (const query of [
      '?ids[]=1',
      '?ids=1&ids=2',
      '?ids=%00',
      '?ids=' + '1'.repeat(5000),
      '?ids=1%2C2%2C',
    ]) {
      const response = await server.request('GET', `/auth/users/ids${query}`, { token });
      expect(response.status, query).toBeGreaterThanOrEqual(400);
      expect(response.status, query).toBeLessThan(500);
    }
  });

  it('answers malformed Authorization headers with 401', async () => {
    for (const authorization of [
      'Bearer',
      'Bearer ',
      'Basic abc',
      'Bearer a.b.c',
      'Bearer ' + 'x'.repeat(5000),
      'bearer x y',
    ]) {
      const response = await server.request('GET', '/auth/users/me', {
        headers: { authorization },
      });
      expect(response.status, authorization).toBe(401);
    }
  });
});
