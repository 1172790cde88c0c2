import { WAGER_TOTALS_WINDOW_MS, type WagerPlacedPayload } from '../../domain/realtime-events';
import type { EventBus } from '../events';

// Live odds without revealing picks (docs/architecture.md §5). Every committed wager change
// ('wagerSaved', which names the wagerer) is held per bet for a short window; then the group
// hears one 'wagerPlaced' with the bet's latest totals and no wagerer, so a member cannot pair
// a change of the totals with the friend who made it. Each instance gathers its own wagers; the
// newest version wins, so totals never go back in time.

export interface WagerTotalsAnnouncer {
  /** Sends what is held at once (tests, shutdown) and stops listening. */
  stop(): void;
}

export function startWagerTotalsAnnouncer(
  events: EventBus,
  windowMs = WAGER_TOTALS_WINDOW_MS,
): WagerTotalsAnnouncer {
  const held = new Map<
    number,
    { payload: WagerPlacedPayload; timer: ReturnType<typeof setTimeout> }
  >();

  const announce = (betId: number) => {
    const entry = held.get(betId);
    if (!entry) return;
    held.delete(betId);
    clearTimeout(entry.timer);
    events.publish('wagerPlaced', entry.payload, { groupId: entry.payload.groupId });
  };

  const unsubscribe = events.subscribe((published) => {
    if (published.event !== 'wagerSaved') return;
    const { groupId, betId, answerTotals, pool, wagerCount, version } = published.payload;
    const payload: WagerPlacedPayload = { groupId, betId, answerTotals, pool, wagerCount, version };
    const entry = held.get(betId);
    if (entry) {
      if (version > entry.payload.version) entry.payload = payload;
      return;
    }
    held.set(betId, { payload, timer: setTimeout(() => announce(betId), windowMs) });
  });

  return {
    stop() {
      unsubscribe();
      for (const betId of [...held.keys()]) announce(betId);
    },
  };
}
