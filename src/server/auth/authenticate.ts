import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticationRequired, invalidAccessToken } from '../errors';
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
  }
}

export function registerAuthenticate(
  app: FastifyInstance,
  accessTokens: AccessTokens,
  sessions: Pick<SessionLiveness, 'isLive'>,
): void {
  app.decorateRequest('user', null);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw authenticationRequired();
    const user = await accessTokens.verify(match[1]!);
    if (!user || !(await sessions.isLive(user))) throw invalidAccessToken();
    request.user = user;
  });
}

/** The signed-in user of a route guarded by app.authenticate. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw authenticationRequired();
  return request.user;
}
