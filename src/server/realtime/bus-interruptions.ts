import type { Redis } from 'ioredis';

// While a connection of the Redis adapter is down (Redis restarting, the subscriber
// reconnecting), events between instances are lost without a trace: the subscriber hears
// nothing published meanwhile, and what the publisher could not send never arrives. Events are
// published after their commits, so a pull made once the bus is whole again sees everything
// missed: this says when that is (issue 41, finding 10).

/**
 * Calls `onResumed` once the adapter's connections are all ready again after one of them was
 * ready and lost (not at the first connection: nothing was missed before it); once per
 * interruption, however many of them it cut. The subscriber counts as ready once its
 * subscriptions are back: ioredis resubscribes on reconnecting, and a PING on the same
 * connection answers after them.
 */
export function watchBusInterruptions(
  { pub, sub }: { pub: Redis; sub: Redis },
  onResumed: () => void,
): void {
  const interrupted = new Set<Redis>();
  const resumed = (client: Redis) => {
    if (!interrupted.delete(client) || interrupted.size > 0) return;
    onResumed();
  };
  for (const client of [pub, sub]) {
    let wasReady = client.status === 'ready';
    client.on('close', () => {
      if (wasReady) interrupted.add(client);
    });
    client.on('ready', () => {
      wasReady = true;
      if (!interrupted.has(client)) return;
      if (client === pub) resumed(client);
      // Lost again before the PING answered: still interrupted, the next 'ready' tries again.
      else
        client.ping().then(
          () => resumed(client),
          () => undefined,
        );
    });
  }
}
