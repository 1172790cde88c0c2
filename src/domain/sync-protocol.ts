// Which sync protocol a device speaks (docs/architecture.md §8, "Protocol version"). An installed
// app can be weeks older than its server, and during a rolling deploy a fresh app can meet an
// instance still running the last release: the pull, the push and the socket's handshake carry
// the device's version, and a server that cannot answer it says so with a typed code instead of
// misreading it (tldraw's sync answers `clientTooOld` / `serverTooOld` the same way).

/**
 * The version this build speaks. Bump it when a pull's answer, a push's request or answer, a
 * write's args, or a socket event changes so that an app built before would misread it or be
 * misread (a field renamed or its meaning changed; a new optional field is no reason). Raise
 * OLDEST_SYNC_PROTOCOL_VERSION with it only once the server no longer speaks the old one.
 */
export const SYNC_PROTOCOL_VERSION = 1;

/**
 * The oldest version this server still speaks; an older device is answered `client_too_old`
 * and updates itself. Version 1 is also every app from before the version was sent (a request
 * without it counts as 1).
 */
export const OLDEST_SYNC_PROTOCOL_VERSION = 1;

/** The request header of the pull and the push (the socket's handshake sends `auth.protocol`). */
export const SYNC_PROTOCOL_HEADER = 'X-Hunch-Protocol';

export type ProtocolVerdict = 'spoken' | 'client_too_old' | 'server_too_old';

/**
 * Whether a server speaking `oldest`..`current` answers a device of `version` (undefined: an
 * app from before the version was sent, version 1).
 */
export function protocolVerdict(
  version: number | undefined,
  { oldest = OLDEST_SYNC_PROTOCOL_VERSION, current = SYNC_PROTOCOL_VERSION } = {},
): ProtocolVerdict {
  const spoken = version ?? 1;
  if (spoken < oldest) return 'client_too_old';
  if (spoken > current) return 'server_too_old';
  return 'spoken';
}

/** A header's or handshake's version as a number; null when it is no whole number ≥ 0. */
export function parseProtocolVersion(raw: unknown): number | undefined | null {
  if (raw === undefined) return undefined;
  const text = typeof raw === 'number' ? String(raw) : raw;
  if (typeof text !== 'string' || !/^\d{1,6}$/.test(text.trim())) return null;
  return Number(text.trim());
}
