import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { API_ERROR_CODES } from '../../src/domain/api-error';
import { tokenScopeOf } from '../../src/domain/policies/token-scopes';
import { useTestServer } from './harness';
import { listRoutes, listSignedInRoutes } from './route-table';

// GET /api/openapi.json (src/server/openapi.ts) against the routes the server really registers:
// every route is there with its method, path, schemas, success and error answers, and the
// security it really asks for; nothing is documented that the server does not serve.

const server = useTestServer();

/** The PWA's pages (client-app.ts), not the API: served as HTML, left out of the document. */
const PWA_PAGES = new Set(['/']);

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

interface Operation {
  parameters?: { in?: string; name?: string; $ref?: string }[];
  requestBody?: unknown;
  responses: Record<string, { description: string; content?: Record<string, unknown> }>;
  security?: Record<string, string[]>[];
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties: { code: { enum: string[] } } }> };
}

/** Fastify's `/api/groups/:id` as OpenAPI's `/api/groups/{id}`. */
const openApiPath = (pattern: string) => pattern.replace(/:(\w+)/g, '{$1}');

async function fetchDocument(): Promise<Document> {
  const response = await server.request('GET', '/api/openapi.json');
  expect(response.status).toBe(200);
  return response.body as Document;
}

function operations(document: Document): { key: string; path: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, path, operation })),
  );
}

describe('GET /api/openapi.json', () => {
  it('is public, cacheable and carries no cookie', async () => {
    const response = await server.request('GET', '/api/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(response.headers.get('set-cookie')).toBeNull();
    const etag = response.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);

    const again = await server.request('GET', '/api/openapi.json', {
      headers: { 'if-none-match': etag! },
    });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const document = await fetchDocument();
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents every route the server registers, and nothing else', async () => {
    const document = await fetchDocument();
    const served = new Set(
      listRoutes(server.app)
        .filter((route) => !PWA_PAGES.has(route.pattern))
        .map((route) => `${route.method} ${openApiPath(route.pattern)}`),
    );
    const documented = new Set(operations(document).map(({ key }) => key));
    expect(served.size).toBeGreaterThan(50);
    expect([...served].filter((key) => !documented.has(key))).toEqual([]);
    expect([...documented].filter((key) => !served.has(key))).toEqual([]);
  });

  it('names each path parameter, and takes the body a write route reads', async () => {
    const document = await fetchDocument();
    for (const { key, path, operation } of operations(document)) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      const declared = (operation.parameters ?? [])
        .filter((parameter) => parameter.in === 'path')
        .map((parameter) => parameter.name);
      expect(declared.sort(), key).toEqual(inPath.sort());
    }
    const wager = document.paths['/api/bets/wagers']!.post!;
    expect(wager.requestBody).toMatchObject({
      required: true,
      content: { 'application/json': { schema: { type: 'object' } } },
    });
    const wagers = document.paths['/api/bets/user/wagers']!.get!;
    expect(wagers.parameters).toContainEqual(expect.objectContaining({ in: 'query' }));
  });

  it('gives every operation its success answer and errors in the API error body', async () => {
    const document = await fetchDocument();
    expect(document.components.schemas.ApiError!.properties.code.enum).toEqual([
      ...API_ERROR_CODES,
    ]);
    for (const { key, path, operation } of operations(document)) {
      const statuses = Object.keys(operation.responses);
      expect(
        statuses.some((status) => /^2/.test(status)),
        key,
      ).toBe(true);
      // A write can always be refused (input, CSRF, rules): its refusals are documented.
      if (!key.startsWith('GET ')) expect(statuses, key).toEqual(expect.arrayContaining(['400']));
      for (const status of statuses.filter((s) => /^[45]/.test(s))) {
        if (path === '/readyz' && status === '503') continue; // its own body: not_ready
        expect(operation.responses[status]!.content, `${key} ${status}`).toEqual({
          'application/json': { schema: { $ref: '#/components/schemas/ApiError' } },
        });
      }
    }
    const bet = document.paths['/api/bets/{id}']!.get!;
    expect(bet.responses['200']!.content!['application/json']).toMatchObject({
      schema: { type: 'object' },
    });
  });

  it('asks for the Bearer token exactly where the server answers 401 without one', async () => {
    const document = await fetchDocument();
    const signedIn = new Set(
      (await listSignedInRoutes(server)).map(
        (route) => `${route.method} ${openApiPath(route.pattern)}`,
      ),
    );
    const withBearer = operations(document)
      .filter(({ operation }) => operation.security?.some((entry) => 'bearerAuth' in entry))
      .map(({ key }) => key);
    expect(signedIn.size).toBeGreaterThan(40);
    expect(withBearer.sort()).toEqual([...signedIn].sort());
    for (const { key, operation } of operations(document)) {
      if (signedIn.has(key)) expect(Object.keys(operation.responses), key).toContain('401');
    }
  });

  it('documents the shared bet read as public, and the share writes as signed-in', async () => {
    const document = await fetchDocument();
    const read = document.paths['/api/shared-bets/{token}']!.get!;
    expect(read.security ?? []).toEqual([]);
    expect(read.responses['200']!.content!['application/json']).toMatchObject({
      schema: { type: 'object' },
    });
    for (const method of ['post', 'delete']) {
      const write = document.paths['/api/bets/{id}/share']![method]!;
      expect(write.security, method).toContainEqual({ bearerAuth: [] });
    }
  });

  it('names the scope a personal API token needs, as the server applies it', async () => {
    const document = await fetchDocument();
    const scopes = Object.fromEntries(
      operations(document).map(({ key, operation }) => [
        key,
        operation.security?.find((entry) => 'apiToken' in entry)?.apiToken ?? null,
      ]),
    );
    for (const { method, pattern } of listRoutes(server.app)) {
      const key = `${method} ${openApiPath(pattern)}`;
      if (key in scopes)
        expect(scopes[key], key).toEqual(
          tokenScopeOf(method, pattern) ? [tokenScopeOf(method, pattern)] : null,
        );
    }
    expect(scopes['GET /api/groups/{id}/bets']).toEqual(['read']);
    expect(scopes['POST /api/bets/wagers']).toEqual(['play']);
    expect(scopes['POST /api/sync/push']).toEqual(['play']);
    expect(scopes['PUT /auth/users/me']).toBeNull();
    expect(scopes['POST /api/tokens']).toBeNull();
  });
});

describe('the personal API tokens in the description', () => {
  it('declares the optional expiresAt of POST /api/tokens and of every listed token', async () => {
    const document = (await fetchDocument()) as unknown as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const tokens = document.paths['/api/tokens']!;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- read as JSON
    const post = tokens.post as any;
    const body = post.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties)).toEqual(['name', 'scopes', 'expiresAt']);
    expect(body.required).toEqual(['name', 'scopes']);
    expect(JSON.stringify(body.properties.expiresAt)).toContain('date-time');
    expect(body.properties.expiresAt.description).toMatch(/omitted: never/);
    const created = post.responses['201'].content['application/json'].schema;
    expect(created.required).toContain('expiresAt');
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- read as JSON
    const listed = (tokens.get as any).responses['200'].content['application/json'].schema;
    expect(listed.items.required).toContain('expiresAt');
    expect(JSON.stringify(listed.items.properties.expiresAt)).toContain('null');
  });
});
