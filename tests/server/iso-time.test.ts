import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTime } from '../../src/server/iso-time';

// isoTime must write exactly what Date#toISOString writes, for every date it is given, also
// when the instant was formatted before (its cache) and after the cache was emptied.

describe('isoTime', () => {
  it('equals toISOString for any date, the first time and again', () => {
    fc.assert(
      fc.property(fc.date({ noInvalidDate: true }), (date) => {
        expect(isoTime(date)).toBe(date.toISOString());
        expect(isoTime(new Date(date.getTime()))).toBe(date.toISOString());
      }),
      { numRuns: 5000 },
    );
  });

  it('stays right past its bound (the cache is emptied, never wrong)', () => {
    const start = Date.UTC(2026, 10, 22);
    for (let index = 0; index < 60_000; index += 1) isoTime(new Date(start + index));
    expect(isoTime(new Date(start + 7))).toBe(new Date(start + 7).toISOString());
    expect(isoTime(new Date(start + 59_999))).toBe(new Date(start + 59_999).toISOString());
  });

  it('pads every field', () => {
    const date = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6));
    expect(isoTime(date)).toBe('2026-01-02T03:04:05.006Z');
  });

  it('throws like toISOString on an invalid date', () => {
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
  });
});
