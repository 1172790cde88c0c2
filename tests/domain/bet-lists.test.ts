import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  betsMissingResolvedAt,
  compareActiveBets,
  compareResolvedBets,
  countdownTone,
  formatCountdown,
  isWageringOpen,
  nextActionableBet,
  nextBetToResolve,
  openBets,
  prefillMultiplier,
  searchBets,
  sortActiveBets,
  sortResolvedBets,
} from '../../src/domain/bet-lists';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function bet(
  id: number,
  expiresAt: string,
  extra: Partial<{
    groupId: number;
    baseWagerAmount: number;
    state: string;
    title: string;
    resolvedAt: string | null;
  }> = {},
) {
  return {
    id,
    expiresAt,
    groupId: 1,
    baseWagerAmount: 1,
    state: 'active',
    title: `Bet ${id}`,
    resolvedAt: null as string | null,
    ...extra,
  };
}

describe('nextBetToResolve', () => {
  it('picks the earliest expiry, ties by the lower id', () => {
    const bets = [
      bet(5, '2030-01-02T00:00:00Z'),
      bet(9, '2030-01-01T00:00:00Z'),
      bet(3, '2030-01-01T00:00:00Z'),
    ];
    expect(nextBetToResolve(bets)?.id).toBe(3);
  });

  it('gives nothing for an empty queue', () => {
    expect(nextBetToResolve([])).toBeNull();
  });
});

describe('nextActionableBet', () => {
  const bets = [
    bet(1, '2030-01-01T00:00:00Z', { groupId: 1, baseWagerAmount: 3 }),
    bet(2, '2030-01-02T00:00:00Z', { groupId: 2, baseWagerAmount: 1 }),
    bet(3, '2030-01-03T00:00:00Z', { groupId: 1, baseWagerAmount: 1 }),
  ];

  it("skips bets whose group's available points do not cover the base wager", () => {
    expect(
      nextActionableBet(bets, { '1': { availablePoints: 2 }, '2': { availablePoints: 5 } })?.id,
    ).toBe(2);
  });

  it('skips bets of groups the user has no membership in', () => {
    expect(nextActionableBet(bets, { '1': { availablePoints: 2 } })?.id).toBe(3);
  });

  it('skips closed bets when given the time', () => {
    expect(
      nextActionableBet(
        bets,
        { '1': { availablePoints: 9 }, '2': { availablePoints: 9 } },
        Date.parse('2030-01-01T12:00:00Z'),
      )?.id,
    ).toBe(2);
  });

  it('gives nothing when no bet is affordable', () => {
    expect(nextActionableBet(bets, {})).toBeNull();
  });
});

describe('list orders', () => {
  it('sorts active bets by soonest expiry with invalid dates last', () => {
    const sorted = sortActiveBets([
      bet(1, 'soon'),
      bet(2, '2030-01-02T00:00:00Z'),
      bet(3, '2030-01-01T00:00:00Z'),
      bet(0, ''),
    ]);
    expect(sorted.map((entry) => entry.id)).toEqual([3, 2, 0, 1]);
  });

  it('sorts resolved bets by most recent resolution with missing ones last, and finds those to log', () => {
    const bets = [
      bet(1, '', { resolvedAt: '2030-01-01T00:00:00Z' }),
      bet(2, '', { resolvedAt: null }),
      bet(3, '', { resolvedAt: '2030-01-03T00:00:00Z' }),
      bet(4, '', { resolvedAt: 'yesterday' }),
    ];
    expect(sortResolvedBets(bets).map((entry) => entry.id)).toEqual([3, 1, 4, 2]);
    expect(betsMissingResolvedAt(bets).map((entry) => entry.id)).toEqual([2, 4]);
  });

  const dateOrJunk = fc.oneof(
    fc.integer({ min: 0, max: 5 }).map((day) => new Date(Date.UTC(2030, 0, 1 + day)).toISOString()),
    fc.constantFrom('', 'not a date', null),
  );
  const bets = fc.uniqueArray(
    fc
      .record({ id: fc.integer({ min: 1, max: 200 }), date: dateOrJunk })
      .map(({ id, date }) => ({ id, expiresAt: date ?? '', resolvedAt: date })),
    { selector: (entry) => entry.id, maxLength: 25 },
  );

  for (const [name, compare] of [
    ['active', compareActiveBets],
    ['resolved', compareResolvedBets],
  ] as const) {
    it(`orders ${name} bets totally: antisymmetric, transitive, and the same under shuffling`, () => {
      fc.assert(
        fc.property(bets, fc.integer(), (list, seed) => {
          for (const a of list) {
            expect(compare(a, a)).toBe(0);
            for (const b of list) {
              if (a.id !== b.id) {
                expect(compare(a, b)).not.toBe(0);
                expect(Math.sign(compare(a, b))).toBe(-Math.sign(compare(b, a)));
              }
              for (const c of list) {
                if (compare(a, b) < 0 && compare(b, c) < 0) expect(compare(a, c)).toBeLessThan(0);
              }
            }
          }
          const shuffled = [...list].sort(
            (a, b) => ((a.id * 31 + seed) % 17) - ((b.id * 31 + seed) % 17),
          );
          expect([...shuffled].sort(compare)).toEqual([...list].sort(compare));
        }),
        { numRuns: 60 },
      );
    });
  }
});

describe('searchBets', () => {
  it('matches a case-insensitive part of the title on the trimmed query', () => {
    const bets = [
      bet(1, '', { title: 'Will it RAIN?' }),
      bet(2, '', { title: 'Who wins the cup' }),
    ];
    expect(searchBets(bets, '  rain ').map((entry) => entry.id)).toEqual([1]);
    expect(searchBets(bets, '   ')).toHaveLength(2);
  });
});

describe('isWageringOpen', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');

  it('is open while the bet is active and before its expiry', () => {
    expect(isWageringOpen({ state: 'active', expiresAt: '2030-01-01T00:00:01Z' }, now)).toBe(true);
    expect(isWageringOpen({ state: 'active', expiresAt: '2030-01-01T00:00:00Z' }, now)).toBe(false);
    expect(isWageringOpen({ state: 'resolved', expiresAt: '2030-02-01T00:00:00Z' }, now)).toBe(
      false,
    );
  });

  it('counts an unparsable expiry as not expired', () => {
    expect(isWageringOpen({ state: 'active', expiresAt: 'whenever' }, now)).toBe(true);
  });

  it('stays closed once the picks were shown, whatever the expiry and state (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -DAY, max: DAY }),
        fc.constantFrom('active', 'resolved', 'cancelled', 'expired'),
        (offset, state) => {
          const expiresAt = new Date(now + offset).toISOString();
          expect(
            isWageringOpen({ state, expiresAt, picksRevealedAt: '2029-12-31T00:00:00Z' }, now),
          ).toBe(false);
          expect(isWageringOpen({ state, expiresAt, picksRevealedAt: null }, now)).toBe(
            state === 'active' && offset > 0,
          );
        },
      ),
    );
  });
});

describe('openBets', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');

  it('keeps the bets open for betting, soonest close first, ties by the lower id', () => {
    const bets = [
      bet(1, '2030-01-03T00:00:00Z'),
      bet(2, '2029-12-31T00:00:00Z'),
      bet(3, '2030-01-02T00:00:00Z', { state: 'resolved' }),
      bet(4, '2030-01-02T00:00:00Z'),
      bet(5, '2030-01-02T00:00:00Z'),
      { ...bet(6, '2030-01-01T06:00:00Z'), picksRevealedAt: '2029-12-31T12:00:00Z' },
      bet(7, 'whenever'),
    ];
    expect(openBets(bets, now).map((entry) => entry.id)).toEqual([4, 5, 1, 7]);
  });

  it('lists exactly the bets isWageringOpen allows, in the active order (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.record({
            id: fc.integer({ min: 1, max: 500 }),
            offset: fc.integer({ min: -2 * DAY, max: 2 * DAY }),
            state: fc.constantFrom('active', 'resolved', 'cancelled'),
            revealed: fc.boolean(),
          }),
          { selector: (entry) => entry.id, maxLength: 20 },
        ),
        (rows) => {
          const bets = rows.map(({ id, offset, state, revealed }) => ({
            ...bet(id, new Date(now + offset).toISOString(), { state }),
            picksRevealedAt: revealed ? '2029-12-01T00:00:00Z' : null,
          }));
          const open = openBets(bets, now);
          expect(open.every((entry) => isWageringOpen(entry, now))).toBe(true);
          expect(open).toHaveLength(bets.filter((entry) => isWageringOpen(entry, now)).length);
          for (let i = 1; i < open.length; i++)
            expect(compareActiveBets(open[i - 1]!, open[i]!)).toBeLessThan(0);
        },
      ),
    );
  });
});

describe('prefillMultiplier', () => {
  it('prefills points / base when it is 1, 2 or 3', () => {
    expect(prefillMultiplier(6, 2)).toBe(3);
    expect(prefillMultiplier(8, 2)).toBeNull();
    expect(prefillMultiplier(3, 2)).toBeNull();
  });
});

describe('the countdown', () => {
  it('is green above 24 h, amber within 24 h, red within 1 h and once ended', () => {
    expect(countdownTone(DAY + 1)).toBe('success');
    expect(countdownTone(DAY)).toBe('warning');
    expect(countdownTone(HOUR + 1)).toBe('warning');
    expect(countdownTone(HOUR)).toBe('error');
    expect(countdownTone(-5)).toBe('error');
  });

  it.each([
    [2 * DAY + 4 * HOUR + 59 * MINUTE, '2d 4h'],
    [3 * HOUR + 12 * MINUTE + 30_000, '3h 12m'],
    [12 * MINUTE + 59_000, '12m'],
    [MINUTE, '1m'],
    [45_500, '45s'],
    [400, '1s'],
    [0, 'Expired'],
    [-1000, 'Expired'],
  ])('shows %i ms as "%s"', (msLeft, text) => {
    expect(formatCountdown(msLeft)).toBe(text);
  });
});
