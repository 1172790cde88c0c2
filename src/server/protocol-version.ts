import type { FastifyRequest } from 'fastify';
import {
  SYNC_PROTOCOL_HEADER,
  parseProtocolVersion,
  protocolVerdict,
} from '../domain/sync-protocol';
import { clientTooOld, serverTooOld, validationFailed, type AppError } from './errors';

// The device's sync protocol (docs/architecture.md §8, "Protocol version"): the pull and the
// push carry it in a header, the socket's handshake in `auth.protocol`. A version this server
// no longer speaks is refused before anything is read or applied, 426 `client_too_old` (the
// app updates itself, its writes kept); a newer one, 503 `server_too_old` (a rolling deploy
// has not reached this instance: the device tries again, as after any 503).

const HEADER = SYNC_PROTOCOL_HEADER.toLowerCase();

/** Why a device of this version is not answered, or undefined when it is. */
export function protocolRefusal(raw: unknown): AppError | undefined {
  const version = parseProtocolVersion(raw);
  if (version === null)
    return validationFailed(`${SYNC_PROTOCOL_HEADER} must be a whole number.`, {
      [SYNC_PROTOCOL_HEADER]: 'must be a whole number',
    });
  const verdict = protocolVerdict(version);
  if (verdict === 'client_too_old') return clientTooOld();
  if (verdict === 'server_too_old') return serverTooOld();
  return undefined;
}

/** An onRequest hook of the pull and the push. */
export async function requireSpokenProtocol(request: FastifyRequest): Promise<void> {
  const refusal = protocolRefusal(request.headers[HEADER]);
  if (refusal) throw refusal;
}
