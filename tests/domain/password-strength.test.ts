import { describe, expect, it } from 'vitest';
import { measurePassword, scorePassword, strengthColour } from '../../src/domain/password-strength';

describe('password strength (docs/accounts-and-shell.md §4)', () => {
  it('scores an empty password 0 and paints it red', () => {
    expect(measurePassword('')).toEqual({ score: 0, colour: 'red' });
  });

  it('gives up to 25 for length, full at 12 characters', () => {
    // "aaaaaa": 6/12 of 25 for length plus 18.75 for the lowercase class
    expect(scorePassword('aaaaaa')).toBeCloseTo(12.5 + 18.75);
    expect(scorePassword('a'.repeat(12))).toBeCloseTo(25 + 18.75);
    expect(scorePassword('a'.repeat(40))).toBeCloseTo(25 + 18.75);
  });

  it('adds 18.75 for each of uppercase, lowercase, digit and symbol', () => {
    expect(scorePassword('A')).toBeCloseTo(25 / 12 + 18.75);
    expect(scorePassword('Ab')).toBeCloseTo((2 / 12) * 25 + 37.5);
    expect(scorePassword('Ab1')).toBeCloseTo((3 / 12) * 25 + 56.25);
    expect(scorePassword('Ab1!')).toBeCloseTo((4 / 12) * 25 + 75);
  });

  it('reaches exactly 100 with 12 characters of all four classes', () => {
    expect(scorePassword('Abcdefgh12!?')).toBe(100);
  });

  it('is red below 30, yellow below 60 and green from 60', () => {
    expect(strengthColour(0)).toBe('red');
    expect(strengthColour(29.99)).toBe('red');
    expect(strengthColour(30)).toBe('yellow');
    expect(strengthColour(59.99)).toBe('yellow');
    expect(strengthColour(60)).toBe('green');
    expect(strengthColour(100)).toBe('green');
  });

  it('paints typical passwords as a person would expect', () => {
    expect(measurePassword('abc').colour).toBe('red'); // 6.25 + 18.75 = 25
    expect(measurePassword('abcdefgh').colour).toBe('yellow'); // 16.67 + 18.75 = 35.4
    expect(measurePassword('Password1').colour).toBe('green'); // 18.75 + 56.25 = 75
  });
});
