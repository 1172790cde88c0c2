import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wagerPointChoices } from '../../src/domain/bets';
import { floorTopUpPoints, floorTopUpTarget } from '../../src/domain/floor-top-up';
import {
  ANY_STAKE_TIER,
  baseNotInTiersMessage,
  DEFAULT_STAKE_TIERS,
  isBaseInTiers,
  STAKE_TIER_SETS,
  stakeTierChoices,
  stakeTierSet,
  stakeTiersOf,
} from '../../src/domain/stakes';

// A group's stake tiers (docs/rules.md "Stakes"): three sets, the spec's the default.

describe('stake tiers', () => {
  it('are the spec’s 1, 2, 3 by default, or 5, 10, 15, or 10, 20, 30, and nothing else', () => {
    expect(DEFAULT_STAKE_TIERS).toEqual([1, 2, 3]);
    expect(STAKE_TIER_SETS).toEqual([
      [1, 2, 3],
      [5, 10, 15],
      [10, 20, 30],
    ]);
    expect(ANY_STAKE_TIER).toEqual([1, 2, 3, 5, 10, 15, 20, 30]);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5, max: 40 }), { maxLength: 4 }), (value) => {
        const set = stakeTierSet(value);
        const isOneOf = STAKE_TIER_SETS.some((tiers) => tiers.join() === value.join());
        expect(set !== null).toBe(isOneOf);
      }),
    );
    expect(stakeTiersOf({})).toBe(DEFAULT_STAKE_TIERS);
    expect(stakeTiersOf({ stakeTiers: [7, 8, 9] })).toBe(DEFAULT_STAKE_TIERS);
    expect(stakeTiersOf({ stakeTiers: [10, 20, 30] })).toEqual([10, 20, 30]);
  });

  it('label their buttons with the spec’s $ and their points', () => {
    expect(stakeTierChoices([5, 10, 15]).map((choice) => choice.label)).toEqual([
      '$ · 5 pts',
      '$$ · 10 pts',
      '$$$ · 15 pts',
    ]);
    expect(stakeTierChoices([1, 2, 3])[0]).toEqual({
      value: 1,
      label: '$ · 1 pt',
      ariaLabel: '$ (1 point)',
    });
    expect(baseNotInTiersMessage([10, 20, 30])).toBe('Base Wager Amount must be 10, 20 or 30');
  });

  it('bound every wager: 1x to 3x a base of the group’s tiers, so 3x $$$ is the largest stake', () => {
    for (const tiers of STAKE_TIER_SETS) {
      for (const base of tiers) {
        expect(isBaseInTiers(base, tiers)).toBe(true);
        expect(wagerPointChoices(base)).toEqual([base, base * 2, base * 3]);
      }
      expect(Math.max(...tiers.flatMap(wagerPointChoices))).toBe(tiers[2] * 3);
    }
  });

  it('set the floor top-up: below the largest tier, topped up to at least three of it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...STAKE_TIER_SETS),
        fc.integer({ min: -50, max: 200 }),
        fc.integer({ min: 1, max: 10_000 }),
        (tiers, available, start) => {
          const points = floorTopUpPoints(available, start, tiers);
          if (available >= tiers[2]) expect(points).toBe(0);
          else {
            expect(available + points).toBe(floorTopUpTarget(start, tiers));
            expect(available + points).toBeGreaterThanOrEqual(tiers[2] * 3);
          }
        },
      ),
    );
  });
});
