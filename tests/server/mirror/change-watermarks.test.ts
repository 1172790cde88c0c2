import { describe, expect, it, vi } from 'vitest';
import type { Listener } from '../../../src/server/db/connect';
import { createChangeWatermarks } from '../../../src/server/mirror/change-watermarks';

// The memory behind a quiet pull (src/server/mirror/change-watermarks.ts), against a listening
// connection played by the test: it holds notifications in commit order and delivers them when
// told, as a busy network does.

function fakeConnection() {
  const queue: string[] = [];
  let deliver: ((payload: string) => void) | null = null;
  let lose: ((error?: Error) => void) | null = null;
  return {
    listen: async (
      _channel: string,
      onPayload: (payload: string) => void,
      onLost: (error?: Error) => void,
    ): Promise<Listener> => {
      deliver = onPayload;
      lose = onLost;
      return {
        notify: async (payload) => void queue.push(payload),
        stop: async () => {
          deliver = null;
        },
      };
    },
    /** A commit elsewhere: its notification is on its way. */
    commit: (payload: string) => queue.push(payload),
    /** Everything on its way arrives, in order. */
    flush: () => {
      for (const payload of queue.splice(0)) deliver?.(payload);
    },
    lose: () => lose?.(new Error('connection reset')),
  };
}

const settled = async () => new Promise((resolve) => setImmediate(resolve));

/** Starts `watermarks` on `connection` and lets its own first notification through. */
async function listening(
  watermarks: ReturnType<typeof createChangeWatermarks>,
  connection: ReturnType<typeof fakeConnection>,
) {
  const started = watermarks.start();
  await settled();
  connection.flush();
  await started;
  expect(watermarks.position()).not.toBeNull();
}

describe('change watermarks', () => {
  it('waits for a fence, so a change committed before the pull is counted first', async () => {
    const connection = fakeConnection();
    const watermarks = createChangeWatermarks(connection);
    await listening(watermarks, connection);
    const at = watermarks.position()!;
    expect(watermarks.quietSince(at, 5, [1, 2])).not.toBeNull();

    connection.commit('g2');
    let isFenced = false;
    const fence = watermarks.fence().then((ok) => (isFenced = ok));
    await settled();
    expect(isFenced).toBe(false);
    connection.flush();
    await fence;
    expect(isFenced).toBe(true);
    expect(watermarks.quietSince(at, 5, [1, 2])).toBeNull();
    expect(watermarks.quietSince(at, 5, [1])).not.toBeNull();
    await watermarks.stop();
  });

  it('answers nothing from memory once the connection is lost, nor for a cursor of before', async () => {
    const connection = fakeConnection();
    const watermarks = createChangeWatermarks(connection);
    await listening(watermarks, connection);
    const at = watermarks.position()!;
    const waiting = watermarks.fence();
    connection.lose();
    expect(await waiting).toBe(false);
    expect(watermarks.position()).toBeNull();
    expect(watermarks.follows(at)).toBe(false);
    expect(watermarks.quietSince(at, 5, [])).toBeNull();
    expect(await watermarks.fence()).toBe(false);
    await watermarks.stop();
  });

  it('keeps a client group’s ids only until its user’s rows change', async () => {
    const connection = fakeConnection();
    const watermarks = createChangeWatermarks(connection);
    await listening(watermarks, connection);
    watermarks.rememberWrites(watermarks.position()!, 5, 'device', { tab: 3 });
    expect(watermarks.writesNow(5, 'device')).toEqual({
      lastMutationIDChanges: { tab: 3 },
      mutationOutcomes: [],
    });
    expect(watermarks.writesNow(6, 'device')).toBeNull();
    connection.commit('u5');
    connection.flush();
    expect(watermarks.writesNow(5, 'device')).toBeNull();
    await watermarks.stop();
  });

  it('shares a fence with a later ask about the same request, never with a later request', async () => {
    const connection = fakeConnection();
    const watermarks = createChangeWatermarks(connection);
    await listening(watermarks, connection);
    const arrived = performance.now();
    const first = watermarks.fence(arrived);
    connection.flush();
    expect(await first).toBe(true);
    // The same request asks again (its pull after its session check): covered already.
    let isFenced = false;
    const again = watermarks.fence(arrived).then((ok) => (isFenced = ok));
    await settled();
    expect(isFenced).toBe(true);
    await again;
    // A request that arrived after that fence was sent waits for a fence of its own, and a
    // change committed before it is counted first.
    const at = watermarks.position()!;
    connection.commit('s7');
    const later = watermarks.fence(performance.now());
    let isLaterFenced = false;
    void later.then((ok) => (isLaterFenced = ok));
    await settled();
    expect(isLaterFenced).toBe(false);
    connection.flush();
    expect(await later).toBe(true);
    expect(watermarks.isUnchangedSince(at, 's7')).toBe(false);
    expect(watermarks.isUnchangedSince(at, 's8')).toBe(true);
    // After a lost connection nothing is covered, whatever was fenced before.
    connection.lose();
    expect(await watermarks.fence(arrived)).toBe(false);
    await watermarks.stop();
  });

  it('listens only once the connection hears its own notification, and waits longer after each loss', async () => {
    vi.useFakeTimers();
    try {
      const connection = fakeConnection();
      const watermarks = createChangeWatermarks(connection);
      // Behind a pooler that runs NOTIFY on another backend nothing comes back.
      const started = watermarks.start();
      await vi.advanceTimersByTimeAsync(2_000);
      await started;
      expect(watermarks.position()).toBeNull();
      expect(await watermarks.fence()).toBe(false);
      // It tries again after 1 s, then after 2 s, and listens once its notification comes back.
      connection.flush();
      await vi.advanceTimersByTimeAsync(1_000 + 2_000);
      expect(watermarks.position()).toBeNull();
      connection.flush();
      await vi.advanceTimersByTimeAsync(1_999);
      expect(watermarks.position()).toBeNull();
      await vi.advanceTimersByTimeAsync(1);
      connection.flush();
      await vi.advanceTimersByTimeAsync(0);
      expect(watermarks.position()).not.toBeNull();
      await watermarks.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
