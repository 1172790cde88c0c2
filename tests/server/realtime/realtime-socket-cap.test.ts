import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../../src/domain/auth';
import { hangGuard } from '../../hang-guard';
import { createGuest, useTestServer } from '../harness';
import { connectSocket, syncSockets, type TestSocket } from './test-socket';

// One user opened a thousand sockets (audit): each held a connection and its rooms. A user
// keeps at most MAX_SOCKETS_PER_USER sockets on an instance; a new one closes the user's
// oldest, as the server's own decision (the client does not reconnect by itself), and nobody
// else's sockets are touched.

const CAP = 3;
const server = useTestServer({ env: { MAX_SOCKETS_PER_USER: String(CAP) } });
const opened: TestSocket[] = [];
afterEach(() => {
  for (const client of opened.splice(0)) client.close();
});

/** The reason `client` is disconnected for; fails if it stays connected. */
function disconnection(client: TestSocket): Promise<string> {
  return hangGuard(
    new Promise((resolve) => client.socket.once('disconnect', resolve)),
    5_000,
    () => 'the socket was not disconnected',
  );
}

async function open(user: AuthResponse): Promise<TestSocket> {
  const client = await connectSocket(server, user.accessToken);
  opened.push(client);
  return client;
}

describe('sockets per user', () => {
  it('closes the oldest of a user’s sockets when one more opens', async () => {
    const user = await createGuest(server);
    const first = await open(user);
    const rest = [await open(user), await open(user)];
    const closing = disconnection(first);
    const newest = await open(user);
    expect(await closing).toBe('io server disconnect');
    await syncSockets(
      server,
      ...[...rest, newest].map((client) => ({ client, userId: user.user.id })),
    );
  });

  it('keeps every user to the cap, closing each one’s oldest first and nobody else’s (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(0, 1), { minLength: 1, maxLength: 2 * CAP + 2 }),
        async (whoOpens) => {
          const users = [await createGuest(server, 'One'), await createGuest(server, 'Two')];
          // What must be open, per user, oldest first.
          const model: TestSocket[][] = [[], []];
          for (const who of whoOpens) {
            const mine = model[who]!;
            const oldest = mine.length === CAP ? mine.shift() : undefined;
            const closing = oldest ? disconnection(oldest) : undefined;
            mine.push(await open(users[who]!));
            if (closing) expect(await closing).toBe('io server disconnect');
            // Every socket the model holds open still hears its user's room.
            await syncSockets(
              server,
              ...model.flatMap((clients, index) =>
                clients.map((client) => ({ client, userId: users[index]!.user.id })),
              ),
            );
          }
          for (const client of opened.splice(0)) client.close();
        },
      ),
      { numRuns: 10 },
    );
  });
});
