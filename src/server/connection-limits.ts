import type { Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from 'fastify';
import type { ApiErrorBody } from '../domain/api-error';
import type { ConnectionLimits } from './config';
import { headersTooLarge, requestTimedOut } from './errors';

// Slow clients and connection floods. Without timeouts a client that trickles its request (a
// byte every few seconds) holds a connection for as long as it likes, and a thousand such
// connections from one address hold a thousand; so a request must arrive whole within
// REQUEST_TIMEOUT_MS (its headers within HEADERS_TIMEOUT_MS), a silent connection closes after
// IDLE_TIMEOUT_MS, and one address holds at most MAX_CONNECTIONS_PER_IP connections at once.
// Everyone else is served meanwhile: each limit costs a timer or a counter per connection.

/**
 * How often Node looks for requests past their time. Its default (30 s) would let a slow
 * request live up to 30 s beyond REQUEST_TIMEOUT_MS; the look only walks requests in progress.
 */
const checkingIntervalMs = (limits: ConnectionLimits) =>
  Math.max(10, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4)));

/** Fastify's options for the limits above, and the raw answer for a request that never arrived whole. */
export function connectionOptions(limits: ConnectionLimits): {
  requestTimeout: number;
  connectionTimeout: number;
  keepAliveTimeout: number;
  http: ServerOptions;
  clientErrorHandler: NonNullable<FastifyServerOptions['clientErrorHandler']>;
} {
  return {
    requestTimeout: limits.requestTimeoutMs,
    // Silence mid-request (socket inactivity) and between requests (keep-alive) alike. The
    // keep-alive default stays above the usual load balancer's 60 s, so the balancer closes first.
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.idleTimeoutMs,
    http: {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: checkingIntervalMs(limits),
    },
    clientErrorHandler: answerClientError,
  };
}

/** An HTTP/1.1 answer written straight to the socket: the request never reached Fastify. */
function rawAnswer(status: number, reason: string, body: ApiErrorBody): string {
  const json = JSON.stringify(body);
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(json)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${json}`
  );
}

/** Each connection's answers not yet written out, oldest first (see followAnswers). */
const unfinishedAnswers = new WeakMap<Socket, ServerResponse[]>();

/**
 * Keeps each connection's answers in progress, so a client error never writes into one already
 * on its way (answerClientError). Node keeps that answer on a socket field of its own; this
 * follows it through the public 'request' event and the response's own state instead.
 */
export function followAnswers(server: Server): void {
  server.on('request', (request, response: ServerResponse) => {
    const socket = request.socket;
    const answers =
      unfinishedAnswers.get(socket)?.filter((answer) => !answer.writableFinished) ?? [];
    answers.push(response);
    unfinishedAnswers.set(socket, answers);
  });
}

const isAnswerUnderWay = (socket: Socket) =>
  (unfinishedAnswers.get(socket) ?? []).some(
    (answer) => answer.headersSent && !answer.writableFinished,
  );

/**
 * Node's 'clientError': a request that timed out, had too many headers or could not be parsed.
 * Answered with the API's error body, as Fastify's default does with its own, then closed.
 */
function answerClientError(
  this: FastifyInstance,
  error: Error & { code?: string },
  socket: Socket,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  this.log.debug({ code: error.code }, 'client error');
  // As Node does: never write into an answer already on its way.
  if (socket.writable && !isAnswerUnderWay(socket)) {
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
      socket.write(rawAnswer(408, 'Request Timeout', requestTimedOut().toBody()));
    else if (error.code === 'HPE_HEADER_OVERFLOW')
      socket.write(rawAnswer(431, 'Request Header Fields Too Large', headersTooLarge().toBody()));
    else
      socket.write(
        rawAnswer(400, 'Bad Request', {
          message: 'The request could not be read.',
          code: 'bad_request',
        }),
      );
  }
  socket.destroy(error);
}

export interface ConnectionCapOptions {
  /** Open connections per address; 0 turns the cap off. */
  max: number;
  /** Connections from a trusted proxy carry many clients: they are never capped. */
  isTrustedPeer(address: string): boolean;
  logger: FastifyBaseLogger;
}

/**
 * Closes a connection at once when its address already holds `max`. Behind a load balancer
 * (TRUST_PROXY) every connection comes from the balancer, which limits its clients itself.
 */
export function capConnectionsPerAddress(server: Server, options: ConnectionCapOptions): void {
  if (options.max === 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (!address || options.isTrustedPeer(address)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > options.max) {
      options.logger.debug({ address }, 'connection refused: too many from this address');
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
