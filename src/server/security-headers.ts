import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

// Helmet's security headers (CSP, HSTS, nosniff, frame and referrer rules…). They depend only
// on the configuration, never on the request (no CSP nonces here), so helmet runs once at
// start-up against a recording response and every reply gets the recorded headers:
// @fastify/helmet rebuilt the helmet middleware, CSP parsing included, on every request.

type HeaderValue = string | number | readonly string[];

/** The headers helmet sets for `options`, computed once. */
export function helmetHeaders(options: Readonly<HelmetOptions>): Record<string, HeaderValue> {
  const headers: Record<string, HeaderValue> = {};
  const recorder = {
    setHeader(name: string, value: HeaderValue) {
      headers[name.toLowerCase()] = value;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
    getHeader(name: string) {
      return headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({ headers: {} } as never, recorder as never, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return headers;
}

/** Sends helmet's headers (see helmetHeaders) on every response, from the first hook on, as @fastify/helmet did. */
export function registerSecurityHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const headers = Object.entries(helmetHeaders(options));
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.header(name, value);
    done();
  });
}
