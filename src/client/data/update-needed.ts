// The server no longer speaks this app's sync protocol (src/domain/sync-protocol.ts): the pull,
// the push or the socket's handshake answered `client_too_old`. The data layer only says so and
// keeps every write waiting; the app's lifecycle (src/client/pwa/protocol-update.ts) updates
// itself through the service worker, and the new version sends the outbox. Said once per
// page: a listener that comes later hears it at once.

type Listener = () => void;

const listeners = new Set<Listener>();
let isNeeded = false;

/** The server answered `client_too_old`; every listener hears it (again, for a later answer). */
export function reportUpdateNeeded(): void {
  isNeeded = true;
  for (const listener of [...listeners]) listener();
}

/** Calls `listener` on every report, and at once when one came before. Returns the unsubscribe. */
export function onUpdateNeeded(listener: Listener): () => void {
  listeners.add(listener);
  if (isNeeded) listener();
  return () => listeners.delete(listener);
}
