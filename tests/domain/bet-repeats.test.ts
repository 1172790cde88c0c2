import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  nextRepeatSlot,
  repeatSlotClose,
  repeatUntilRefusal,
  type RepeatPeriod,
} from '../../src/domain/bet-repeats';
import { wallClockAt } from '../../src/domain/time-zones';

// Bets that come back (docs/rules.md "Bets that come back"): when each slot of a series closes,
// and which slot comes next.

const DAY = 86_400_000;
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'Asia/Kolkata'];
const period = fc.constantFrom<RepeatPeriod>('day', 'week', 'month');
// 2025–2030, at a minute of the day no zone here skips or repeats (its clocks move at 02:00–03:00).
const firstClose = fc
  .tuple(fc.integer({ min: 0, max: 6 * 365 }), fc.integer({ min: 4 * 60, max: 23 * 60 + 59 }))
  .map(([day, minute]) => Date.UTC(2025, 0, 1) + day * DAY + minute * 60_000);

describe('a series’ slots', () => {
  it('in UTC close exactly a day or a week apart', () => {
    fc.assert(
      fc.property(firstClose, fc.integer({ min: 0, max: 400 }), (first, n) => {
        expect(repeatSlotClose(first, 'day', n, 'UTC')).toBe(first + n * DAY);
        expect(repeatSlotClose(first, 'week', n, 'UTC')).toBe(first + 7 * n * DAY);
      }),
    );
  });

  it('keep the first close’s time of day in its zone, summer time or not', () => {
    fc.assert(
      fc.property(
        firstClose,
        period,
        fc.integer({ min: 0, max: 60 }),
        fc.constantFrom(...ZONES),
        (first, every, n, zone) => {
          const zoneTime = (ms: number) => {
            const clock = wallClockAt(ms, zone);
            return [clock.hour, clock.minute];
          };
          // The first close's local time, unless that local time falls in a clock change.
          const close = repeatSlotClose(first, every, n, zone);
          const local = wallClockAt(first, zone);
          if (local.hour === 2) return;
          expect(zoneTime(close)).toEqual(zoneTime(first));
          if (every !== 'month') {
            const days = (every === 'day' ? 1 : 7) * n;
            const shifted = wallClockAt(close, zone);
            const expected = new Date(Date.UTC(local.year, local.month - 1, local.day + days));
            expect([shifted.year, shifted.month, shifted.day]).toEqual([
              expected.getUTCFullYear(),
              expected.getUTCMonth() + 1,
              expected.getUTCDate(),
            ]);
          }
        },
      ),
    );
  });

  it('every month from the 31st take each month’s last day and come back to the 31st', () => {
    const first = Date.UTC(2027, 0, 31, 19, 0);
    const days = [0, 1, 2, 3, 4].map((n) =>
      new Date(repeatSlotClose(first, 'month', n, 'UTC')).toISOString().slice(0, 10),
    );
    expect(days).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31']);
  });

  it('close later with every slot', () => {
    fc.assert(
      fc.property(
        firstClose,
        period,
        fc.integer({ min: 0, max: 100 }),
        fc.constantFrom(...ZONES),
        (first, every, n, zone) => {
          expect(repeatSlotClose(first, every, n + 1, zone)).toBeGreaterThan(
            repeatSlotClose(first, every, n, zone),
          );
        },
      ),
    );
  });
});

describe('the next slot', () => {
  it('is later than the last, closes ahead of now, and there is none past until', () => {
    fc.assert(
      fc.property(
        firstClose,
        period,
        fc.constantFrom(...ZONES),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 90 * DAY }),
        fc.option(fc.integer({ min: 1, max: 400 * DAY })),
        (first, every, zone, lastSlot, elapsed, untilAfter) => {
          const series = {
            firstClose: first,
            every,
            timeZone: zone,
            until: untilAfter === null ? null : first + untilAfter,
          };
          const now = repeatSlotClose(first, every, lastSlot, zone) + elapsed;
          const next = nextRepeatSlot(series, lastSlot, now);
          if (next === null) {
            expect(series.until).not.toBeNull();
            return;
          }
          expect(next.slot).toBeGreaterThan(lastSlot);
          expect(next.closesAt).toBe(repeatSlotClose(first, every, next.slot, zone));
          expect(next.closesAt).toBeGreaterThan(now);
          // The slot before it had closed already: none is skipped that could still be played.
          expect(repeatSlotClose(first, every, next.slot - 1, zone)).toBeLessThanOrEqual(now);
          if (series.until !== null) expect(next.closesAt).toBeLessThanOrEqual(series.until);
        },
      ),
    );
  });

  it('never opens one slot twice: a series run at any moments opens strictly later slots, ending at until', () => {
    fc.assert(
      fc.property(
        firstClose,
        period,
        fc.constantFrom(...ZONES),
        fc.array(fc.integer({ min: 0, max: 10 * DAY }), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: DAY, max: 200 * DAY }),
        (first, every, zone, waits, untilAfter) => {
          const series = { firstClose: first, every, timeZone: zone, until: first + untilAfter };
          const opened = [0];
          let dueAt = first;
          for (const wait of waits) {
            const now = dueAt + wait;
            const next = nextRepeatSlot(series, opened.at(-1)!, now);
            if (next === null) break;
            opened.push(next.slot);
            dueAt = next.closesAt;
          }
          expect(new Set(opened).size).toBe(opened.length);
          expect([...opened].sort((a, b) => a - b)).toEqual(opened);
          for (const slot of opened)
            expect(repeatSlotClose(first, every, slot, zone)).toBeLessThanOrEqual(series.until);
        },
      ),
    );
  });
});

describe('the end of a series', () => {
  it('must come after the first bet closes', () => {
    const close = '2030-01-01T20:00:00.000Z';
    expect(repeatUntilRefusal('2029-12-31T20:00:00.000Z', close)).toBe(
      'Repeat end must be after the bet closes',
    );
    expect(repeatUntilRefusal(close, close)).toBe('Repeat end must be after the bet closes');
    expect(repeatUntilRefusal('2030-02-01T00:00:00.000Z', close)).toBeUndefined();
    expect(repeatUntilRefusal('whenever', close)).toBe('Repeat end must be a valid date');
  });
});
