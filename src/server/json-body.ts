import type { FastifyInstance } from 'fastify';
import { bodyTooDeep } from './errors';

// JSON bodies, parsed once for every route: Fastify's own parser (prototype poisoning refused),
// then a depth limit, before any hook or schema walks the body. The size limit (Fastify's
// bodyLimit, 413 before parsing) keeps a body small, but 100 KB of brackets still nests 50,000
// levels deep, and a recursive walk over that (the Idempotency-Key's canonical form) overflowed
// the stack: a 500. No request of Hunch nests deeper than a handful of levels.

/** The deepest nesting of objects and arrays a JSON body may have (the body itself is level 1). */
export const MAX_BODY_DEPTH = 32;

/** Whether `value` nests objects or arrays deeper than `maxDepth`; iterative, so never a stack overflow. */
export function isNestedDeeperThan(value: unknown, maxDepth: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (!item || typeof item !== 'object') continue;
    if (depth > maxDepth) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

/** Replaces the application/json parser with Fastify's own plus the depth limit. */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser<string>(
    'application/json',
    { parseAs: 'string' },
    (request, body, done) => {
      // Fastify's default parser answers through its callback (it returns nothing to await).
      void parseJson(request, body, (error, value) => {
        if (error) return done(error, undefined);
        if (isNestedDeeperThan(value, MAX_BODY_DEPTH)) return done(bodyTooDeep(), undefined);
        done(null, value);
      });
    },
  );
}
