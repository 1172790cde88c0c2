import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasControlCharacter, maskControlCharacters, TEXT_MESSAGES } from '../domain/text-rules';
import { validationFailed } from './errors';
import { MAX_BODY_DEPTH } from './json-body';

// Text fields never hold control characters (the rule: src/domain/text-rules.ts): PostgreSQL
// refuses a NUL byte in text (a 500 before this), and the others only ever arrive by mistake or
// on purpose. Checked once for every route, in the body, the query string and the path
// parameters, values and keys alike, before anything else reads them.

/** The dotted path of the first string (or key) holding a control character, or undefined. */
function findControlCharacter(value: unknown, path: string[] = [], depth = 0): string | undefined {
  if (typeof value === 'string')
    return hasControlCharacter(value) ? path.join('.') || 'body' : undefined;
  if (!value || typeof value !== 'object' || depth > MAX_BODY_DEPTH) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (hasControlCharacter(key)) return [...path, maskControlCharacters(key)].join('.');
    const found = findControlCharacter(item, [...path, key], depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function check(request: FastifyRequest): void {
  for (const part of [request.params, request.query, request.body]) {
    const field = findControlCharacter(part);
    if (field !== undefined)
      throw validationFailed(`${field}: ${TEXT_MESSAGES.controlCharacter}`, {
        [field]: TEXT_MESSAGES.controlCharacter,
      });
  }
}

/** Registers the check on the root app; call before the routes and the idempotency hooks. */
export function registerControlCharacterGuard(app: FastifyInstance): void {
  // Callback style: every request passes here, and an async hook costs a promise each time.
  app.addHook('preValidation', (request, _reply, done) => {
    try {
      check(request);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
}
