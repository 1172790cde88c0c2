import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SHARED_BET_PATH, sharedBetPath } from '../domain/bet-shares';
import { publicPageFile } from '../domain/public-pages';
import { betIdParamsSchema } from '../domain/schemas/bets';
import { notFound } from './errors';
import {
  betLinkPreviewTags,
  sharedBetPreviewTags,
  withHeadTags,
  type PublicBetPreview,
} from './link-preview';

// Serves the built PWA (dist/client) on the same port as the API. Client routes (/dashboard,
// /group/3, …) get index.html so the React router can take over; unknown API paths get a
// JSON 404. Hashed files under /assets are cached for a year, everything else (index.html,
// the service worker, the manifest) is revalidated on every load so updates arrive. A bet's
// page (/bets/:id) and a shared bet's public link (/s/:token) get Open Graph tags in their head,
// for the preview chat apps show of a link.
// The public pages (/landing, /about, …, and / for the landing) get the HTML the build drew for
// them, with no React (src/domain/public-pages.ts), when the build has it.

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

/** The pre-rendered page of a path (/landing → pages/landing.html), if the build drew one. */
function publicPageOfPath(clientDir: string, pathname: string): string | null {
  const file = publicPageFile(pathname);
  return file && existsSync(path.join(clientDir, file)) ? file : null;
}

/** The bet id of a bet page's path (/bets/12), or null for any other path. */
function betIdOfPath(pathname: string): number | null {
  const match = /^\/bets\/([^/]+)\/?$/.exec(pathname);
  if (!match) return null;
  const parsed = betIdParamsSchema.safeParse({ id: match[1] });
  return parsed.success ? parsed.data.id : null;
}

/** The token of a shared bet's public link (/s/abc), or null for any other path. */
function shareTokenOfPath(pathname: string): string | null {
  if (!pathname.startsWith(`${SHARED_BET_PATH}/`)) return null;
  const token = pathname.slice(SHARED_BET_PATH.length + 1).replace(/\/$/, '');
  return token && !token.includes('/') ? token : null;
}

export interface ClientAppOptions {
  clientDir: string;
  /** Origin of the absolute URLs in link previews (PUBLIC_URL). */
  publicUrl: string;
  /** A public group's bet, as a link preview may show it; null for anything else. */
  findBetPreview: (betId: number) => Promise<PublicBetPreview | null>;
  /** The bet a live share token opens, as its link's preview shows it; null for anything else. */
  findSharedBetPreview: (token: string) => Promise<PublicBetPreview | null>;
}

export function registerClientApp(app: FastifyInstance, options: ClientAppOptions): void {
  const hasBuild = existsSync(path.join(options.clientDir, 'index.html'));
  const indexFile = path.join(options.clientDir, 'index.html');

  /** The preview of a link, or null when its look-up failed: the page matters more than its preview. */
  function previewOrGeneric(request: FastifyRequest, lookUp: Promise<PublicBetPreview | null>) {
    return lookUp.catch((error: unknown) => {
      request.log.warn({ err: error }, 'bet link preview failed');
      return null;
    });
  }

  /** index.html with a link's preview tags; read each time, like sendFile, so a new build shows at once. */
  async function previewPage(request: FastifyRequest, pathname: string): Promise<string | null> {
    const betId = betIdOfPath(pathname);
    const token = betId === null ? shareTokenOfPath(pathname) : null;
    const { publicUrl } = options;
    let tags: string;
    if (betId !== null) {
      const bet = await previewOrGeneric(request, options.findBetPreview(betId));
      tags = betLinkPreviewTags({ publicUrl, betId, bet });
    } else if (token !== null) {
      const bet = await previewOrGeneric(request, options.findSharedBetPreview(token));
      tags = sharedBetPreviewTags({ publicUrl, path: sharedBetPath(token), bet });
    } else return null;
    return withHeadTags(await readFile(indexFile, 'utf8'), tags);
  }

  if (hasBuild) {
    app.register(fastifyStatic, {
      root: options.clientDir,
      preCompressed: true,
      cacheControl: false,
      // "/" is not index.html: the not-found handler below gives it the landing page.
      index: false,
      // Source maps hold the whole source: built for our own debugging, never served (audit item 18).
      // A folder ("/", "/pages/") is never a file: with `index: false` the plugin would answer a
      // request without Accept-Encoding 403 (with one, not found); the not-found handler below
      // gives it the page instead, whatever the headers (issue 41, finding 8).
      allowedPath: (pathName: string) => !pathName.endsWith('.map') && !pathName.endsWith('/'),
      // The installed @fastify/static (9.x) hands over the raw response, not Fastify's reply.
      setHeaders: (response, filePath) => {
        const isHashedAsset = filePath.startsWith(
          path.join(options.clientDir, 'assets') + path.sep,
        );
        response.setHeader(
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

  app.setNotFoundHandler(async (request, reply) => {
    if (!isClientRoute(request)) return reply.status(404).send(notFound('Route').toBody());
    if (!hasBuild)
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(FALLBACK_PAGE);
    const pathname = request.url.split('?')[0] ?? '/';
    const publicPage = publicPageOfPath(options.clientDir, pathname);
    if (publicPage) return reply.header('cache-control', 'no-cache').sendFile(publicPage);
    const page = await previewPage(request, pathname);
    if (page !== null)
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page);
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
