import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WAGER_TOTALS_WINDOW_MS } from '../../../src/domain/realtime-events';
import { startWagerTotalsAnnouncer } from '../../../src/server/bets/wager-totals.announcer';
import {
  createEventBus,
  type PublishedEvent,
  type WagerSavedPayload,
} from '../../../src/server/events';

// The group hears a bet's totals at most once per window and never who moved them
// (docs/architecture.md §5), so a member cannot read a friend's pick off a change.

const saved = (overrides: Partial<WagerSavedPayload>): WagerSavedPayload => ({
  groupId: 7,
  betId: 70,
  userId: 1,
  points: 2,
  previousPoints: 0,
  answerTotals: { yes: 2 },
  pool: 2,
  wagerCount: 1,
  version: 10,
  ...overrides,
});

describe('the wager totals announcer', () => {
  const heard: PublishedEvent[] = [];
  const events = createEventBus();
  events.subscribe((published) => {
    if (published.event === 'wagerPlaced') heard.push(published);
  });

  beforeEach(() => {
    vi.useFakeTimers();
    heard.length = 0;
  });
  afterEach(() => vi.useRealTimers());

  it('gathers the wagers of one window into one announcement of the newest totals, without the wagerer', () => {
    const announcer = startWagerTotalsAnnouncer(events);
    events.publish('wagerSaved', saved({ userId: 1, answerTotals: { yes: 2 }, version: 10 }), {
      groupId: 7,
    });
    events.publish(
      'wagerSaved',
      saved({ userId: 2, answerTotals: { yes: 2, no: 3 }, pool: 5, wagerCount: 2, version: 12 }),
      { groupId: 7 },
    );
    // Out of order (another request's commit announced late): older totals never win.
    events.publish('wagerSaved', saved({ userId: 3, answerTotals: { yes: 2 }, version: 11 }), {
      groupId: 7,
    });
    expect(heard).toEqual([]);
    vi.advanceTimersByTime(WAGER_TOTALS_WINDOW_MS);
    expect(heard).toEqual([
      {
        event: 'wagerPlaced',
        payload: {
          groupId: 7,
          betId: 70,
          answerTotals: { yes: 2, no: 3 },
          pool: 5,
          wagerCount: 2,
          version: 12,
        },
        audience: { groupId: 7 },
      },
    ]);
    announcer.stop();
  });

  it('keeps bets apart and sends what it holds when stopped', () => {
    const announcer = startWagerTotalsAnnouncer(events);
    events.publish('wagerSaved', saved({ betId: 70 }), { groupId: 7 });
    events.publish('wagerSaved', saved({ betId: 71, version: 13 }), { groupId: 7 });
    announcer.stop();
    expect(heard.map((published) => (published.payload as { betId: number }).betId)).toEqual([
      70, 71,
    ]);
    vi.advanceTimersByTime(WAGER_TOTALS_WINDOW_MS);
    expect(heard).toHaveLength(2);
  });
});
