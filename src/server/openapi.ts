import { createHash } from 'node:crypto';
import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance, FastifyReply, FastifySchema } from 'fastify';
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { OpenAPIV3_1 } from 'openapi-types';
import { API_ERROR_CODES } from '../domain/api-error';
import { API_BASE, SYNC_PUSH_PATH } from '../domain/constants';
import { tokenScopeOf } from '../domain/policies/token-scopes';
import { SYNC_WRITES } from '../domain/sync';
import { SYNC_PROTOCOL_HEADER } from '../domain/sync-protocol';
import { webhookEventSchema } from '../domain/schemas/webhook-events';
import { WEBHOOK_EVENTS } from '../domain/webhooks';
import { isSignedInRoute } from './auth/authenticate';
import { z } from '../domain/schemas/zod';

// The API's OpenAPI 3.1 description, built from the routes' own zod schemas by @fastify/swagger
// and fastify-type-provider-zod's transform, served at GET /api/openapi.json (public, cached).
// What the schemas do not say is added from what the app really does, never declared per route:
// - security: a route is signed in when app.authenticate guards it (its own onRequest hook, or
//   its plugin's requireSignIn); it then takes the Bearer access token (auth/authenticate.ts),
//   and a personal API token with the scope domain/policies/token-scopes.ts names, if any;
// - error responses: every refusal is the one error body of errors.ts ({message, code,
//   fieldErrors?}, code one of API_ERROR_CODES), listed by what can refuse a route: its input,
//   its token, its method (CSRF, rate limits, rules), a path id, the database;
// - headers: Idempotency-Key on the writes of the push (idempotency/), X-XSRF-TOKEN on writes
//   (csrf.ts), X-Hunch-Protocol on the pull and the push (protocol-version.ts).
// Register before any route: the plugin records routes as they are added.

export const OPENAPI_PATH = `${API_BASE}/openapi.json`;

const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);
/** Answered without the database. */
const NO_DATABASE_PATHS = new Set(['/healthz', '/metrics', OPENAPI_PATH]);
/** The operators' routes; the rest is /auth, /api and the PWA's pages (client-app.ts). */
const OPERATIONS_PATHS = new Set(['/healthz', '/readyz', '/metrics', OPENAPI_PATH]);
const ERROR_SCHEMA = 'ApiError';
const BEARER = 'bearerAuth';
const API_TOKEN = 'apiToken';

const API_ERROR_JSON_SCHEMA: OpenAPIV3_1.SchemaObject = {
  type: 'object',
  description:
    'The body of every refusal: show `message`, branch on `code`; `fieldErrors` names the ' +
    'fields of a 400 with their message.',
  properties: {
    message: { type: 'string' },
    code: { type: 'string', enum: [...API_ERROR_CODES] },
    fieldErrors: { type: 'object', additionalProperties: { type: 'string' } },
  },
  required: ['message', 'code'],
};

/** Why each status may answer; added to an operation where the condition below holds. */
const ERROR_DESCRIPTIONS: Record<string, string> = {
  400: 'Invalid input: `validation_failed` (with `fieldErrors`), `invalid_json`, or a code naming the input.',
  401: 'No Bearer access token (`authentication_required`), or one that expired or whose session ended (`invalid_access_token`): refresh, then send again. An API token revoked or unknown: `invalid_api_token`.',
  403: 'Refused: not allowed for this user (`not_member`, `not_group_admin`, …), an API token whose scopes do not allow the route (`insufficient_scope`), or a browser that holds the `XSRF-TOKEN` cookie sent no matching `X-XSRF-TOKEN` (`csrf_mismatch`).',
  404: 'What the path names does not exist or is not visible to the caller.',
  409: 'A duplicate of something that exists (`wager_exists`, `group_name_taken`, …).',
  413: 'The body is over 100 KiB (`body_too_large`).',
  415: 'The body is not `application/json` (`unsupported_media_type`).',
  422: 'A rule of the game refused it (`insufficient_points`, `bet_closed`, …).',
  429: 'Too many requests (`rate_limited`); wait the `Retry-After` seconds.',
  426: 'The device speaks a sync protocol this server no longer does (`client_too_old`): update the app; nothing was applied.',
  503: 'The database is briefly away (`database_unavailable`), or the device speaks a newer sync protocol than this server (`server_too_old`); nothing was applied, send again.',
};

/** The pull and the push: they take the device's sync protocol (protocol-version.ts). */
const PROTOCOL_ROUTES = new Set([`get ${API_BASE}/member/state`, `post ${SYNC_PUSH_PATH}`]);

/** GET /metrics takes METRICS_TOKEN, not an access token (metrics.ts). */
const METRICS_TOKEN_ERRORS: Record<string, string> = {
  401: 'No `Authorization: Bearer <METRICS_TOKEN>`, or another token (`authentication_required`).',
  404: 'METRICS_TOKEN is not set: this port serves no metrics (`not_found`).',
};

type Operation = OpenAPIV3_1.OperationObject;

const isMetricsToken = (operation: Operation) =>
  (operation.security ?? []).some((entry) => 'metricsToken' in entry);

/** Which errors an operation can answer, from what it takes and who may call it. */
function errorStatuses(method: string, path: string, operation: Operation): string[] {
  const isWrite = WRITE_METHODS.has(method);
  const isSignedIn = (operation.security ?? []).some((entry) => BEARER in entry);
  const parameters = (operation.parameters ?? []) as OpenAPIV3_1.ParameterObject[];
  const hasInput = parameters.length > 0 || operation.requestBody !== undefined;
  const statuses: string[] = [];
  if (isMetricsToken(operation)) statuses.push('401', '404');
  if (hasInput || isWrite) statuses.push('400');
  if (isSignedIn) statuses.push('401');
  if (isSignedIn || isWrite) statuses.push('403');
  if (parameters.some((parameter) => parameter.in === 'path')) statuses.push('404');
  if (isWrite) statuses.push('409', '413', '415', '422', '429');
  if (!NO_DATABASE_PATHS.has(path)) statuses.push('503');
  return statuses;
}

/** The writes that take an Idempotency-Key (the push's), as `method path` of this document. */
const KEYED_WRITES = new Set(
  Object.values(SYNC_WRITES).map(
    ({ method, path }) => `${method.toLowerCase()} ${API_BASE}${path.replace(/:(\w+)/g, '{$1}')}`,
  ),
);

const HEADER_PARAMETERS: Record<string, OpenAPIV3_1.ParameterObject> = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'A key the client makes (a UUID): the same key from the same user gets the first answer ' +
      'again (with `Idempotent-Replayed: true`) and applies nothing twice.',
    schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
  },
  SyncProtocol: {
    name: SYNC_PROTOCOL_HEADER,
    in: 'header',
    required: false,
    description:
      'The sync protocol the device speaks (a whole number; none counts as 1). One the server ' +
      'no longer speaks is refused 426 `client_too_old`, a newer one 503 `server_too_old`.',
    schema: { type: 'string', pattern: '^\\d{1,6}$' },
  },
  XsrfToken: {
    name: 'X-XSRF-TOKEN',
    in: 'header',
    required: false,
    description:
      'The `XSRF-TOKEN` cookie echoed back; needed only when the request carries that cookie (a browser).',
    schema: { type: 'string' },
  },
};

/** Adds the error responses and headers every route has by the app's own hooks. */
function completeDocument(document: OpenAPIV3_1.Document): OpenAPIV3_1.Document {
  const paths = document.paths ?? {};
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, value] of Object.entries(item ?? {})) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const operation = value as Operation;
      const statuses = errorStatuses(method, path, operation);
      const isSignedIn = (operation.security ?? []).some((entry) => BEARER in entry);
      if (WRITE_METHODS.has(method)) {
        const isKeyed = isSignedIn && KEYED_WRITES.has(`${method} ${path}`);
        const headers = isKeyed ? ['IdempotencyKey', 'XsrfToken'] : ['XsrfToken'];
        operation.parameters = [
          ...(operation.parameters ?? []),
          ...headers.map((name) => ({ $ref: `#/components/parameters/${name}` })),
        ];
      }
      if (PROTOCOL_ROUTES.has(`${method} ${path}`)) {
        operation.parameters = [
          ...(operation.parameters ?? []),
          { $ref: '#/components/parameters/SyncProtocol' },
        ];
        statuses.push('426');
      }
      const responses = (operation.responses ??= {});
      for (const response of Object.values(responses))
        if ('description' in response && response.description === 'Default Response')
          response.description = 'Done.';
      for (const status of statuses) {
        responses[status] ??= {
          description: (isMetricsToken(operation) ? METRICS_TOKEN_ERRORS : ERROR_DESCRIPTIONS)[
            status
          ]!,
          content: {
            'application/json': { schema: { $ref: `#/components/schemas/${ERROR_SCHEMA}` } },
          },
        };
      }
    }
  }
  return { ...document, webhooks: webhookDescriptions() };
}

/** OpenAPI 3.1 `webhooks`: each event a group's hook may get (docs/integrations.md). */
function webhookDescriptions(): Record<string, OpenAPIV3_1.PathItemObject> {
  const header = (name: string, description: string): OpenAPIV3_1.ParameterObject => ({
    name,
    in: 'header',
    required: true,
    description,
    schema: { type: 'string' },
  });
  const parameters = [
    header('webhook-id', 'The event id: the same on every try; drop a repeat.'),
    header('webhook-timestamp', 'When this try was sent, in Unix seconds.'),
    header(
      'webhook-signature',
      '`v1,<base64 HMAC-SHA256 of id.timestamp.body>`, keyed with the secret after `whsec_`, ' +
        'base64-decoded; two, space-separated, while a rotated-out secret still signs.',
    ),
  ];
  return Object.fromEntries(
    WEBHOOK_EVENTS.map((type) => [
      type,
      {
        post: {
          summary: `${type} (Standard Webhooks)`,
          parameters,
          requestBody: {
            content: {
              'application/json': {
                schema: z.toJSONSchema(webhookEventSchema(type)) as OpenAPIV3_1.SchemaObject,
              },
            },
          },
          responses: { 200: { description: 'Any 2xx within 5 seconds: delivered.' } },
        },
      } as OpenAPIV3_1.PathItemObject,
    ]),
  );
}

const TAGS: [prefix: string, tag: string][] = [
  ['/auth/', 'accounts'],
  [`${API_BASE}/`, 'game'],
];

export interface OpenApiOptions {
  /** The origin the document names as its server (PUBLIC_URL). */
  publicUrl: string;
}

/** Registers the document's plugin and GET /api/openapi.json; call after registerAuthenticate. */
export async function registerOpenApi(
  app: FastifyInstance,
  { publicUrl }: OpenApiOptions,
): Promise<void> {
  const zodTransform = createJsonSchemaTransform({ skipList: [] });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Hunch API',
        version: '1',
        description:
          'The accounts API (`/auth`) and the game API (`/api`) of Hunch. Signed-in routes take ' +
          'the access token of `POST /auth/login` (or `/auth/register`, `/auth/register-guest`, ' +
          '`/auth/refresh-token`) as `Authorization: Bearer <token>`; no cookie authenticates. ' +
          'A program may instead send a personal API token (`hk_…`, made in the app or with ' +
          '`POST /api/tokens`): each operation lists the scope it needs under `apiToken`; ' +
          'one without it is refused to tokens (403 `insufficient_scope`). ' +
          'Every refusal is `{message, code, fieldErrors?}` (`ApiError`). Live updates use ' +
          'socket.io at `/socket.io`, outside this document.',
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          [BEARER]: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'The access token (15 minutes); valid only while its session lives.',
          },
          [API_TOKEN]: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'hk_ + 43 characters (base64url)',
            description:
              'A personal API token. Its scopes: `read` (what the player sees) and `play` (bets, ' +
              'wagers, comments). The operation names the one it needs; no CSRF header needed.',
          },
          metricsToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'METRICS_TOKEN, for GET /metrics (src/server/metrics.ts).',
          },
        },
        schemas: { [ERROR_SCHEMA]: API_ERROR_JSON_SCHEMA },
        parameters: HEADER_PARAMETERS,
      },
    },
    transform: (input) => {
      const { schema, url } = zodTransform(input);
      const tag = OPERATIONS_PATHS.has(url)
        ? 'operations'
        : TAGS.find(([prefix]) => url.startsWith(prefix))?.[1];
      // The PWA's pages (client-app.ts) are HTML for browsers, not the API.
      if (!tag) return { schema: { hide: true }, url };
      const extra: FastifySchema = { tags: [tag] };
      if (isSignedInRoute(app, input.route)) {
        // The scope a personal API token needs here, from the one table (token-scopes.ts).
        const scope = tokenScopeOf([input.route.method].flat()[0]!, url);
        extra.security = [{ [BEARER]: [] }, ...(scope ? [{ [API_TOKEN]: [scope] }] : [])];
      }
      return { schema: { ...schema, ...extra }, url };
    },
    transformObject: (input) =>
      completeDocument(jsonSchemaTransformObject(input) as OpenAPIV3_1.Document),
  });

  // Built on the first request (every route is known by then) and kept: routes never change
  // while the process runs.
  let built: { body: string; etag: string } | undefined;
  const document = () => {
    if (!built) {
      const body = JSON.stringify(app.swagger());
      built = { body, etag: `"${createHash('sha256').update(body).digest('base64url')}"` };
    }
    return built;
  };
  const schema = {
    response: {
      200: z.looseObject({ openapi: z.literal('3.1.0') }).describe('This document.'),
      304: z.null().describe('Not modified: the ETag sent in If-None-Match still matches.'),
    },
  };
  // No cookie rides on an answer shared caches keep: the CSRF cookie (csrf.ts) comes with the
  // caller's next request. A route's onSend runs after the cookie plugin's, which sets it.
  const onSend = async (_request: unknown, reply: FastifyReply, payload: unknown) => {
    reply.removeHeader('set-cookie');
    return payload;
  };
  app.get(OPENAPI_PATH, { schema, onSend }, async (request, reply) => {
    const { body, etag } = document();
    // Public and the same for everyone: caches may keep it, and revalidate by its ETag.
    reply.header('cache-control', 'public, max-age=300').header('etag', etag);
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    return reply.type('application/json; charset=utf-8').send(body);
  });
}
