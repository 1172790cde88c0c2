import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FLOOR_TOP_UP_THRESHOLD,
  floorTopUpPoints,
  floorTopUpTarget,
} from '../../src/domain/floor-top-up';

describe('the weekly floor', () => {
  it('is a tenth of the starting points, never less than three of the largest base wagers', () => {
    expect(FLOOR_TOP_UP_THRESHOLD).toBe(3);
    expect(floorTopUpTarget(100)).toBe(10);
    expect(floorTopUpTarget(10)).toBe(9);
    expect(floorTopUpTarget(1000)).toBe(100);
  });

  it('tops up only below the threshold, exactly to the floor', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        (available, start) => {
          const points = floorTopUpPoints(available, start);
          if (available >= FLOOR_TOP_UP_THRESHOLD) expect(points).toBe(0);
          else {
            expect(points).toBeGreaterThan(0);
            expect(available + points).toBe(floorTopUpTarget(start));
          }
        },
      ),
    );
  });
});
