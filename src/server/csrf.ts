import { randomBytes, timingSafeEqual } from 'node:crypto';
import type {} from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import { isApiTokenCredential } from '../domain/api-tokens';
import { csrfMismatch } from './errors';

// The double-submit cookie of docs/accounts-and-shell.md §4 and docs/architecture.md §6. Every response to a request
// without the cookie sets one; the client reads it with JavaScript and echoes it in
// X-XSRF-TOKEN on its non-GET requests. A request that carries the cookie (so it comes from a
// browser that has visited us) must echo it: another site can make the browser send our
// cookie but cannot read it. Requests without the cookie (curl, API clients with Bearer
// tokens, a browser's very first call) pass: Bearer tokens are not ambient credentials. A
// request with a personal API token (`hk_…`) passes even with the cookie.

const CSRF_COOKIE = 'XSRF-TOKEN';
const CSRF_HEADER = 'x-xsrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
function isApiTokenBearer(authorization: string | undefined): boolean {
  const credential = /^Bearer\s+(\S+)/i.exec(authorization ?? '')?.[1];
  return credential !== undefined && isApiTokenCredential(credential);
}

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Needs @fastify/cookie registered first. */
export function registerCsrfProtection(
  app: FastifyInstance,
  options: { secureCookie: boolean },
): void {
  app.addHook('onRequest', async (request, reply) => {
    const cookie = request.cookies[CSRF_COOKIE];
    if (!cookie) {
      reply.setCookie(CSRF_COOKIE, randomBytes(24).toString('base64url'), {
        path: '/',
        sameSite: 'strict',
        secure: options.secureCookie,
        httpOnly: false,
      });
      return;
    }
    if (SAFE_METHODS.has(request.method)) return;
    // A personal API token is sent on purpose by a program; no other site can make a browser add it.
    if (isApiTokenBearer(request.headers.authorization)) return;
    const header = request.headers[CSRF_HEADER];
    if (typeof header !== 'string' || !sameToken(header, cookie)) throw csrfMismatch();
  });
}
