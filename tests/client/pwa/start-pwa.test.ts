import { describe, expect, it, vi } from 'vitest';
import { createEventEmitter } from '../../../src/client/data/event-emitter';
import type { SessionEvents } from '../../../src/client/data/session-store';

// start-pwa.ts: push follows the session, but its code loads only once someone is signed in
// (a visitor on the landing page never downloads it), and it is started once.

const startPushSession = vi.fn();
vi.mock('../../../src/client/push/push-session', () => ({ startPushSession }));

const { startPwa } = await import('../../../src/client/pwa/start-pwa');

/** The two things startPwa reads of the session: who is signed in, and its events. */
function fakeSession(user: { id: number } | null) {
  return { user: user as never, events: createEventEmitter<SessionEvents>() };
}

/**
 * Push's chunk, its loads counted: startPwa asks for it in the same turn as what decides it (the
 * start, a sign-in), so what was or was not asked for is known at once, with no waiting.
 */
const countedLoader = () => vi.fn(async () => ({ startPushSession }) as never);

describe('startPwa and push', () => {
  it('starts push at once for a restored session', async () => {
    startPushSession.mockClear();
    startPwa(fakeSession({ id: 1 }));
    // Through the real lazy import (push-session is mocked above).
    await vi.waitFor(() => expect(startPushSession).toHaveBeenCalledTimes(1));
  });

  it('waits for a sign-in before loading push, then starts it once', async () => {
    startPushSession.mockClear();
    const loadPush = countedLoader();
    const session = fakeSession(null);
    startPwa(session, loadPush);
    expect(loadPush).not.toHaveBeenCalled();
    session.events.emit('login', undefined as never);
    session.events.emit('restored', undefined as never);
    expect(loadPush).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(startPushSession).toHaveBeenCalledTimes(1));
  });
});
