import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from './errors';

// Serves the built PWA (dist/client) on the same port as the API. Client routes (/dashboard,
// /group/3, …) get index.html so the React router can take over; unknown API paths get a
// JSON 404. Hashed files under /assets are cached for a year, everything else (index.html,
// the service worker, the manifest) is revalidated on every load so updates arrive.

const API_PREFIXES = ['/auth', '/api', '/socket.io'];

const FALLBACK_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Hunch</title></head>
<body><main><h1>Hunch</h1><p>The server is running, but the client has not been built yet. Run <code>npm run build</code>.</p></main></body></html>
`;

function isApiPath(url: string): boolean {
  return API_PREFIXES.some(
    (prefix) => url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`),
  );
}

/**
 * A client route: GET/HEAD, not an API path, not a file, and not a caller that asked for JSON
 * only. Browsers send text/html; curl and fetch send no Accept or * / *, and get the page too.
 */
function isClientRoute(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = request.url.split('?')[0] ?? '/';
  if (isApiPath(pathname)) return false;
  if (path.posix.extname(pathname) !== '') return false;
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html') || !accept.includes('application/json');
}

export function registerClientApp(app: FastifyInstance, options: { clientDir: string }): void {
  const hasBuild = existsSync(path.join(options.clientDir, 'index.html'));

  if (hasBuild) {
    app.register(fastifyStatic, {
      root: options.clientDir,
      preCompressed: true,
      cacheControl: false,
      // Source maps hold the whole source: built for our own debugging, never served (audit item 18).
      allowedPath: (pathName: string) => !pathName.endsWith('.map'),
      setHeaders: (reply: FastifyReply, filePath: string) => {
        const isHashedAsset = filePath.startsWith(
          path.join(options.clientDir, 'assets') + path.sep,
        );
        reply.header(
          'cache-control',
          isHashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  } else {
    app.get('/', (_request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(FALLBACK_PAGE),
    );
  }

  app.setNotFoundHandler((request, reply) => {
    if (!isClientRoute(request)) return reply.status(404).send(notFound('Route').toBody());
    if (!hasBuild)
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(FALLBACK_PAGE);
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
