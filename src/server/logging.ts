import {
  LogController,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import type { Config } from './config';

// What the logs may hold (docs/security.md): no credentials, no personal data a query
// carried. Database errors carry the statement's parameters (Drizzle's "params: …", the
// driver's `params` and `detail`): an argon2 hash, an email. Errors are logged by name, code,
// message and stack with those cut out.

interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
  code?: string;
  statusCode?: number;
  cause?: LoggedError;
}

/** Drizzle appends "\nparams: …" to a failed query's message: keep the statement, drop the values. */
function withoutParams(text: string): string {
  const at = text.indexOf('\nparams:');
  return at === -1 ? text : text.slice(0, at);
}

/** pino's `err` serializer: the error's kind and where it happened, never the values a query carried. */
export function serializeError(error: unknown, depth = 0): LoggedError {
  if (typeof error !== 'object' || error === null)
    return { type: typeof error, message: withoutParams(String(error)), stack: '' };
  const source = error as {
    name?: unknown;
    message?: unknown;
    stack?: unknown;
    code?: unknown;
    statusCode?: unknown;
    cause?: unknown;
  };
  const message = withoutParams(String(source.message ?? ''));
  const logged: LoggedError = {
    type: typeof source.name === 'string' ? source.name : 'Error',
    message,
    stack:
      typeof source.stack === 'string'
        ? withoutParams(source.stack.replace(String(source.message ?? ''), message))
        : '',
  };
  if (typeof source.code === 'string' || typeof source.code === 'number')
    logged.code = String(source.code);
  if (typeof source.statusCode === 'number') logged.statusCode = source.statusCode;
  if (source.cause !== undefined && depth < 3)
    logged.cause = serializeError(source.cause, depth + 1);
  return logged;
}

// Secrets that travel in a path: the tokens of mailed links (/reset-password/<token>,
// /confirm-email/<token>, the pages they open). Query strings can hold anything a client put
// there: never logged.
const SECRET_PATHS = /^(\/(?:reset-password|confirm-email)\/)[^/?#]+/;

/** The URL as logs may show it: a mailed link's token replaced, the query string dropped. */
export function redactUrl(url: string): string {
  const [pathname = '', query] = url.split('?', 2);
  return (
    pathname.replace(SECRET_PATHS, '$1[redacted]') + (query === undefined ? '' : '?[redacted]')
  );
}

interface LoggedRequest {
  method?: string;
  url?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** What every logger of the app redacts and how it writes errors and requests (tests log through the same). */
export const safeLogging = {
  redact: ['req.headers.authorization', 'req.headers.cookie'],
  serializers: {
    err: (error: unknown) => serializeError(error),
    error: (error: unknown) => serializeError(error),
    req: (request: LoggedRequest) => ({
      method: request.method,
      url: redactUrl(request.url ?? ''),
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    }),
  },
};

/** The logger options of the app: pino at the configured level, redacted headers, safe errors. */
export function loggerOptions(
  config: Pick<Config, 'logLevel'>,
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level: config.logLevel,
    ...safeLogging,
    // Pretty in a terminal, JSON lines everywhere else (docs/architecture.md §3).
    ...(process.stdout.isTTY
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
}

/**
 * One line per request, once answered, instead of Fastify's two ("incoming request", "request
 * completed"): method, path as redactUrl shows it, status, milliseconds; pino adds the request
 * id (reqId). Nothing of the body or the headers. Fastify's other lines (errors, 404s) stay;
 * "incoming request" only at debug.
 */
export class OneLineRequestLog extends LogController {
  /** At debug only (LOG_LEVEL=debug): a request in flight, before its answer. */
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ method: request.method, url: redactUrl(request.url) }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const url = redactUrl(request.url);
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    const line = {
      method: request.method,
      url,
      statusCode: reply.statusCode,
      responseTime: ms,
      remoteAddress: request.ip,
    };
    const message = `${request.method} ${url} ${reply.statusCode} ${ms} ms`;
    if (error) request.log.error({ ...line, err: error }, message);
    else request.log.info(line, message);
  }
}
