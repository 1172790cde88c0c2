import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findWinners } from '../../src/domain/bet-types';
import { decimalOfNumber } from '../../src/domain/decimal';

// Over/under compared floats (audit item 17): 123456789012345.13 against a line of
// 123456789012345.12 was a push. The actual number and the line compare exactly, in decimal.

const overUnder = (line: number) => ({ betType: 'over_under', betTypeConfig: { line } });
const wagers = [
  { id: 1, prediction: 'over' },
  { id: 2, prediction: 'under' },
];
const winnersOf = (line: number, actual: string) => {
  const result = findWinners(overUnder(line), wagers, actual);
  return result.isPush
    ? 'push'
    : [...result.winningWagerIds].map((id) => wagers[id - 1]!.prediction).join();
};

describe('over/under against its line, exactly', () => {
  it('tells apart numbers that floats cannot', () => {
    expect(winnersOf(Number('123456789012345.12'), '123456789012345.13')).toBe('over');
    expect(winnersOf(Number('123456789012345.12'), '123456789012345.11')).toBe('under');
    expect(winnersOf(Number('123456789012345.12'), '123456789012345.12')).toBe('push');
    expect(winnersOf(2.5, '2.500000000000001')).toBe('over');
    expect(winnersOf(0.1, '0.1')).toBe('push');
    expect(winnersOf(1e14, '100000000000000')).toBe('push');
    expect(winnersOf(1.5e-7, '0.00000015')).toBe('push');
    expect(winnersOf(-3, '-3.0001')).toBe('under');
  });

  it('finds a push exactly at the line, and a side one hundredth away', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(10 ** 15), max: 10 ** 15 }), (hundredths) => {
        const line = hundredths / 100;
        expect(winnersOf(line, toPlain(line))).toBe('push');
        expect(winnersOf(line, toPlain((hundredths + 1) / 100))).toBe('over');
        expect(winnersOf(line, toPlain((hundredths - 1) / 100))).toBe('under');
      }),
    );
  });
});

/** A number's shortest text without an exponent. */
function toPlain(value: number): string {
  const { units, scale } = decimalOfNumber(value);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}
