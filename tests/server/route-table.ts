import type { FastifyInstance } from 'fastify';
import type { TestServer } from './harness';

// Every route the app serves, read from Fastify's own route tree, so a test that must hold
// "on every route" also covers routes added after it was written.

export interface AppRoute {
  method: string;
  /** The route's URL with each parameter filled with a plausible value (ids 1). */
  url: string;
  /** The route as registered, e.g. `/api/groups/:id` (for messages). */
  pattern: string;
}

/** Parameters that are not numeric ids. */
const PARAMETER_VALUES: Record<string, string> = {
  deviceId: 'device-1',
  token: 'token-1',
};

/**
 * Parses `printRoutes({ commonPrefix: false })`: one line per node, four characters of tree
 * per level, the node's path below its parent's and its methods in parentheses.
 */
export function listRoutes(app: FastifyInstance): AppRoute[] {
  const parents: string[] = [];
  const routes: AppRoute[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const start = line.search(/[^│├└─\s]/u);
    if (start < 0) continue;
    const depth = Math.floor(start / 4);
    const match = /^(\S+)(?: \(([^)]*)\))?/.exec(line.slice(start));
    if (!match) continue;
    const pattern = (parents[depth - 1] ?? '') + match[1]!;
    parents[depth] = pattern;
    parents.length = depth + 1;
    if (!match[2] || pattern.includes('*')) continue;
    const url = pattern.replace(/:(\w+)/g, (_all, name: string) => PARAMETER_VALUES[name] ?? '1');
    for (const method of match[2].split(',').map((m) => m.trim())) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      routes.push({ method, url, pattern });
    }
  }
  return routes;
}

/** The routes that answer 401 `authentication_required` to a request without a token: every signed-in route. */
export async function listSignedInRoutes(server: TestServer): Promise<AppRoute[]> {
  const signedIn: AppRoute[] = [];
  for (const route of listRoutes(server.app)) {
    const response = await server.request(route.method, route.url, {
      body: route.method === 'GET' ? undefined : {},
    });
    if (response.status === 401 && response.body?.code === 'authentication_required')
      signedIn.push(route);
  }
  return signedIn;
}

/** The signed-in routes that did not answer 401 to `token`, as `METHOD pattern → status` (empty when all refused it). */
export async function routesAccepting(
  server: Pick<TestServer, 'request'>,
  routes: readonly AppRoute[],
  token: string,
): Promise<string[]> {
  const accepted: string[] = [];
  for (const route of routes) {
    const response = await server.request(route.method, route.url, {
      token,
      body: route.method === 'GET' ? undefined : {},
    });
    if (response.status !== 401)
      accepted.push(`${route.method} ${route.pattern} → ${response.status}`);
  }
  return accepted;
}
