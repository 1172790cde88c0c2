import type { FastifyInstance, FastifyRequest } from 'fastify';
import { validationFailed } from './errors';

// Text fields never hold control characters (audit item 6): PostgreSQL refuses a NUL byte in
// text (a 500 before this), and the other C0 controls and DEL only ever arrive by mistake or
// on purpose. Tab, line feed and carriage return stay allowed (a description has lines).
// Checked once for every route, in the body, the query string and the path parameters,
// values and keys alike, before anything else reads them.

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const CONTROL_CHARACTER_MESSAGE = 'Must not contain control characters';

/** The dotted path of the first string (or key) holding a control character, or undefined. */
function findControlCharacter(value: unknown, path: string[] = [], depth = 0): string | undefined {
  if (typeof value === 'string')
    return CONTROL_CHARACTER.test(value) ? path.join('.') || 'body' : undefined;
  if (!value || typeof value !== 'object' || depth > 20) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (CONTROL_CHARACTER.test(key))
      return [...path, key.replace(CONTROL_CHARACTER, '?')].join('.');
    const found = findControlCharacter(item, [...path, key], depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function check(request: FastifyRequest): void {
  for (const part of [request.params, request.query, request.body]) {
    const field = findControlCharacter(part);
    if (field !== undefined)
      throw validationFailed(`${field}: ${CONTROL_CHARACTER_MESSAGE}`, {
        [field]: CONTROL_CHARACTER_MESSAGE,
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
