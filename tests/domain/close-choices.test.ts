import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wallClockAt } from '../../src/domain/time-zones';
import { closeTimeChoices } from '../../src/domain/close-choices';

// The bet form's quick choices for the close, in the player's time zone.

const ZONES = ['UTC', 'Europe/Berlin', 'America/Los_Angeles', 'Asia/Tokyo'];

describe('the close time’s quick choices', () => {
  it('offer tonight 20:00 before 20:00 and tomorrow 20:00 after, in the player’s zone', () => {
    // 18:30 in Berlin (UTC+1 in winter).
    const evening = Date.parse('2030-01-10T17:30:00Z');
    expect(closeTimeChoices(evening, 'Europe/Berlin')).toEqual([
      { label: 'in 1 hour', at: Date.parse('2030-01-10T18:30:00Z') },
      { label: 'tonight 20:00', at: Date.parse('2030-01-10T19:00:00Z') },
      { label: 'tomorrow 9:00', at: Date.parse('2030-01-11T08:00:00Z') },
    ]);
    // 21:15 in Berlin: tonight has passed.
    const late = Date.parse('2030-01-10T20:15:00Z');
    expect(closeTimeChoices(late, 'Europe/Berlin').map((choice) => choice.label)).toEqual([
      'in 1 hour',
      'tomorrow 20:00',
      'tomorrow 9:00',
    ]);
    expect(closeTimeChoices(late, 'Europe/Berlin')[1]!.at).toBe(Date.parse('2030-01-11T19:00:00Z'));
  });

  it('always lie ahead, at their hour in the zone, within two days', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.parse('2025-01-01'), max: Date.parse('2035-01-01') }),
        fc.constantFrom(...ZONES),
        (now, zone) => {
          const [inAnHour, evening, morning] = closeTimeChoices(now, zone);
          for (const choice of [inAnHour!, evening!, morning!]) {
            expect(choice.at).toBeGreaterThan(now);
            expect(choice.at - now).toBeLessThanOrEqual(2 * 86_400_000);
          }
          expect(now + 3_600_000 - inAnHour!.at).toBeLessThan(60_000);
          const at = (ms: number) => [wallClockAt(ms, zone).hour, wallClockAt(ms, zone).minute];
          expect(at(evening!.at)).toEqual([20, 0]);
          expect(at(morning!.at)).toEqual([9, 0]);
        },
      ),
    );
  });
});
