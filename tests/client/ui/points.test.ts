import { describe, expect, it } from 'vitest';
import { signedPoints } from '../../../src/client/ui/points';

describe('signedPoints', () => {
  it('marks gains with a plus and losses with a true minus sign, in thousands', () => {
    expect(signedPoints(1240)).toBe('+1,240');
    expect(signedPoints(-35)).toBe('−35');
    expect(signedPoints(-2000)).toBe('−2,000');
    expect(signedPoints(0)).toBe('0');
  });
});
