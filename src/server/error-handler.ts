import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiErrorBody } from '../domain/api-error';
import { isConnectionLost, isTransactionConflict } from './db/transaction-retry';
import {
  AppError,
  alreadyExists,
  databaseUnavailable,
  emailOrUsernameTaken,
  groupNameTaken,
  internalError,
  validationFailed,
  wagerExists,
} from './errors';

// How a thrown error becomes the API's answer (errors.ts holds the vocabulary): an AppError as
// it is, a schema's refusal as 400 with a message per field, a unique violation as the conflict
// the service would have thrown, Fastify's own 4xx with a stable code, a lost database as 503.

/**
 * The constraint named by PostgreSQL's unique_violation (23505), whether raised by pg or PGlite
 * or wrapped by Drizzle; undefined when the error is something else.
 */
function uniqueViolation(error: unknown): { constraint: string } | undefined {
  for (
    let e: unknown = error, depth = 0;
    e && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    if (typeof e === 'object' && (e as { code?: unknown }).code === '23505') {
      return { constraint: String((e as { constraint?: unknown }).constraint ?? '') };
    }
  }
  return undefined;
}

// A race the services' own checks cannot close (two sign-ups with one email at once) ends at
// a unique constraint; these answer with the error the service would have thrown.
const CONFLICTS: Record<string, () => AppError> = {
  users_email_unique: emailOrUsernameTaken,
  users_username_unique: emailOrUsernameTaken,
  groups_public_name_unique: groupNameTaken,
  wagers_bet_user_unique: () => wagerExists(),
};

/**
 * The refusal a write's error stands for, as handleError would answer it: an AppError below 500,
 * or a unique violation's conflict; undefined for anything else (a 5xx, a crash). A push
 * (src/server/sync) records these as the write's outcome.
 */
export function refusalOf(error: unknown): AppError | undefined {
  if (error instanceof AppError) return error.statusCode < 500 ? error : undefined;
  const violation = uniqueViolation(error);
  return violation ? (CONFLICTS[violation.constraint] ?? alreadyExists)() : undefined;
}

// Fastify's own 4xx errors (bad JSON, wrong content type, body too large, …) keep their status
// and get a stable code instead of Fastify's FST_ERR_* names.
const FASTIFY_CODES: Record<string, ApiErrorBody> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    code: 'invalid_json',
    message: 'The request body is not valid JSON.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid_json', message: 'The request body is empty.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    message: 'Send the request body as application/json.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'invalid_content_length',
    message: 'The request body length does not match Content-Length.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'body_too_large', message: 'The request body is too large.' },
};

function fieldOf(path: string): string {
  return path.replace(/^\//, '').replaceAll('/', '.');
}

/** Turns every thrown error into the API's error body; bad input is never a 500. */
export function handleError(
  this: unknown,
  error: FastifyError | AppError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error instanceof AppError) {
    return reply.status(error.statusCode).send(error.toBody());
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of error.validation) {
      const params = issue.params as { keys?: unknown };
      // An unknown key has no path of its own: name the key, as the client shows per field.
      const fields =
        Array.isArray(params.keys) && issue.instancePath === '/'
          ? params.keys.map(String)
          : [fieldOf(issue.instancePath)];
      for (const field of fields) {
        if (field && !(field in fieldErrors)) fieldErrors[field] = issue.message ?? 'Invalid input';
      }
    }
    const first = error.validation[0]!;
    const body = validationFailed(
      first.message ?? 'Invalid input',
      Object.keys(fieldErrors).length ? fieldErrors : undefined,
    );
    return reply.status(400).send(body.toBody());
  }
  const violation = uniqueViolation(error);
  if (violation) {
    return reply.status(409).send((CONFLICTS[violation.constraint] ?? alreadyExists)().toBody());
  }
  const status = (error as FastifyError).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const known = FASTIFY_CODES[(error as FastifyError).code ?? ''];
    const body: ApiErrorBody = known ?? { message: error.message, code: 'bad_request' };
    return reply.status(status).send(body);
  }
  if (isConnectionLost(error)) {
    // Logged without the error object: a driver error can carry the statement's parameters.
    request.log.warn(
      { code: 'database_unavailable' },
      'database connection lost during the request',
    );
    return reply.status(503).send(databaseUnavailable().toBody());
  }
  if (isTransactionConflict(error)) {
    // Still a deadlock or serialization failure after every retry (db/transaction-retry.ts):
    // it was rolled back whole, so the client may simply send it again.
    request.log.warn(
      { code: 'database_unavailable' },
      'transaction conflict outlasted its retries',
    );
    return reply.status(503).send(databaseUnavailable().toBody());
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).send(internalError().toBody());
}
