import { describe, expect, it, vi } from 'vitest';
import { createEventEmitter } from '../../../src/client/data/event-emitter';
import type { SessionEvents } from '../../../src/client/data/session-store';

// start-pwa.ts: push follows the session, but its code loads only once someone is signed in
// (a visitor on the landing page never downloads it), and it is started once.

const startPushSession = vi.fn();
vi.mock('../../../src/client/push/push-session', () => ({ startPushSession }));

const { startPwa } = await import('../../../src/client/pwa/start-pwa');

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** The two things startPwa reads of the session: who is signed in, and its events. */
function fakeSession(user: { id: number } | null) {
  return { user: user as never, events: createEventEmitter<SessionEvents>() };
}

describe('startPwa and push', () => {
  it('starts push at once for a restored session', async () => {
    startPushSession.mockClear();
    startPwa(fakeSession({ id: 1 }));
    await settle();
    expect(startPushSession).toHaveBeenCalledTimes(1);
  });

  it('waits for a sign-in before loading push, then starts it once', async () => {
    startPushSession.mockClear();
    const session = fakeSession(null);
    startPwa(session);
    await settle();
    expect(startPushSession).not.toHaveBeenCalled();
    session.events.emit('login', undefined as never);
    session.events.emit('restored', undefined as never);
    await settle();
    expect(startPushSession).toHaveBeenCalledTimes(1);
  });
});
