import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { isApiTokenCredential } from '../../domain/api-tokens';
import { authenticationRequired, invalidAccessToken } from '../errors';
import type { ApiTokenAuth } from './api-token-auth';
import type { SessionLiveness } from './session-liveness';
import type { AccessTokens, AuthUser } from './tokens';

// The Bearer-token check every signed-in route reuses:
//   app.get('/x', { onRequest: [app.authenticate] }, (request) => { const me = currentUser(request); … })
// It runs on onRequest so an anonymous caller gets 401 before their body is even parsed. A
// token passes only while its session lives (session-liveness.ts): signing out, a password
// change or reset and a deleted account end every right of the session's tokens at once, with
// the usual 401, so the client refreshes, which fails, and signs out.

declare module 'fastify' {
  interface FastifyInstance {
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    /** The bearer of a valid access token, set by app.authenticate; null on anonymous routes. */
    user: AuthUser | null;
    /**
     * When app.authenticate began (`performance.now()`): a read from memory that must cover
     * every commit before the request (the mirror's pull) fences from here, so it shares the
     * session check's fence (change-watermarks.ts).
     */
    arrivedAt: number;
  }
}

export function registerAuthenticate(
  app: FastifyInstance,
  accessTokens: AccessTokens,
  sessions: Pick<SessionLiveness, 'isLive'>,
  apiTokens: Pick<ApiTokenAuth, 'authenticate'>,
): void {
  app.decorateRequest('user', null);
  app.decorateRequest('arrivedAt', 0);
  app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
    request.arrivedAt = performance.now();
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw authenticationRequired();
    // A personal API token: live, within its limits and scopes (api-token-auth.ts).
    if (isApiTokenCredential(match[1]!)) return apiTokens.authenticate(request, reply, match[1]!);
    const user = await accessTokens.verify(match[1]!);
    if (!user || !(await sessions.isLive(user, request.arrivedAt))) throw invalidAccessToken();
    request.user = user;
  });
}

/** The routes requireSignIn guards: Fastify shows a route its own hooks only, not its plugin's. */
const signedInRoutes = new WeakSet<RouteOptions>();

/**
 * Every route the plugin `app` adds from now on is signed in: app.authenticate runs on its
 * onRequest, and isSignedInRoute says so (the OpenAPI document, openapi.ts). Call it before
 * the plugin's routes.
 */
export function requireSignIn(app: FastifyInstance): void {
  app.addHook('onRequest', app.authenticate);
  // onRoute is encapsulated: it hears this plugin's routes (and its children's) only.
  app.addHook('onRoute', (route) => {
    signedInRoutes.add(route);
  });
}

/** Whether app.authenticate guards `route`: its plugin's requireSignIn, or its own onRequest. */
export function isSignedInRoute(app: FastifyInstance, route: RouteOptions): boolean {
  return signedInRoutes.has(route) || [route.onRequest ?? []].flat().includes(app.authenticate);
}

/** The signed-in user of a route guarded by app.authenticate. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw authenticationRequired();
  return request.user;
}
