import type { FastifyInstance } from 'fastify';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet, { type HelmetOptions } from 'helmet';

// Helmet's security headers (CSP, HSTS, nosniff, frame and referrer rules…). They depend only
// on the configuration, never on the request (no CSP nonces here), so helmet runs once at
// start-up against a response that is never sent and every reply gets the recorded headers:
// @fastify/helmet rebuilt the helmet middleware, CSP parsing included, on every request.

type HeaderValue = string | number | readonly string[];

/**
 * The headers helmet sets for `options`, computed once: helmet's middleware runs against a real
 * (unsent) Node response, and the headers it set are read back with the response's public
 * `getHeaders()`.
 */
function helmetHeaders(options: Readonly<HelmetOptions>): Record<string, HeaderValue> {
  const request = new IncomingMessage(new Socket());
  const response = new ServerResponse(request);
  let failure: unknown;
  helmet(options)(request, response, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  const headers: Record<string, HeaderValue> = {};
  for (const [name, value] of Object.entries(response.getHeaders()))
    if (value !== undefined) headers[name] = value;
  return headers;
}

/** Where the JSON API lives: its answers are never documents. */
const API_PREFIXES = ['/api/', '/auth/'];

/**
 * The headers a JSON API answer needs (OWASP's REST Security cheat sheet): it is never
 * rendered, so of helmet's document headers only what stops it being sniffed, framed, leaked
 * in a Referer or read cross-origin is kept, with a CSP that allows nothing at all, and it is
 * never stored by a cache. Fewer
 * headers is less to write and for Node to validate on every signed-in call.
 */
function apiHeaders(
  documentHeaders: Readonly<Record<string, HeaderValue>>,
): Record<string, HeaderValue> {
  const kept = [
    'x-content-type-options',
    'referrer-policy',
    'cross-origin-resource-policy',
    'strict-transport-security',
  ];
  const headers: Record<string, HeaderValue> = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-frame-options': 'DENY',
    // Answers are the caller's own (points, picks, tokens): no browser, proxy or service worker
    // cache keeps them. Every signed-in route lives under these prefixes, so this covers them
    // all, refusals included; the app reads them through its own mirror, never an HTTP cache.
    'cache-control': 'no-store',
  };
  for (const name of kept)
    if (documentHeaders[name] !== undefined) headers[name] = documentHeaders[name];
  return headers;
}

/**
 * Sends helmet's headers (see helmetHeaders) on every response from the first hook on, as
 * @fastify/helmet did; answers of the JSON API get the lean set of apiHeaders instead.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  options: Readonly<HelmetOptions>,
): void {
  const documentHeaders = helmetHeaders(options);
  const forDocuments = Object.entries(documentHeaders);
  const forApi = Object.entries(apiHeaders(documentHeaders));
  app.addHook('onRequest', (request, reply, done) => {
    const headers = API_PREFIXES.some((prefix) => request.url.startsWith(prefix))
      ? forApi
      : forDocuments;
    for (const [name, value] of headers) reply.header(name, value);
    done();
  });
}

/** The app's headers: a strict Content-Security-Policy that lets live updates reach PUBLIC_URL, HSTS over https. */
export function securityHeaderOptions(publicUrl: string): HelmetOptions {
  const isHttps = publicUrl.startsWith('https://');
  const websocketOrigin = publicUrl.replace(/^http/, 'ws');
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", websocketOrigin],
        manifestSrc: ["'self'"],
        workerSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(isHttps ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // HSTS only means something when we are served over HTTPS.
    strictTransportSecurity: isHttps ? { maxAge: 15552000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  };
}
