import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  measurePassword,
  meetsPasswordRule,
  scorePassword,
  strengthColour,
  unmetPasswordRule,
} from '../../src/domain/password-strength';
import { registerFormSchema, resetPasswordFormSchema } from '../../src/domain/schemas/auth';

/** Whether the register form's schema takes `password` (the other fields filled rightly). */
function registerFormAccepts(password: string): boolean {
  const result = registerFormSchema.safeParse({
    firstName: 'Robin',
    lastName: 'Quill',
    displayName: 'Robin',
    username: 'robin',
    email: 'robin@example.com',
    password,
    passwordConfirm: password,
    acceptTerms: true,
  });
  return result.success;
}

// Passwords near the rule's edges: every character class, blanks, `_` (a word character, so
// no symbol for the rule), letters beyond ASCII, and lengths either side of 8, 12 and 72.
const passwordCharacter = fc.oneof(
  fc.constantFrom('a', 'z', 'A', 'Z', '0', '9', '-', '_', '!', ' ', 'é', 'É', 'ß', '\n', '😀'),
  fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }),
);
const passwordArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.array(passwordCharacter, { maxLength: 80 }).map((characters) => characters.join('')),
);

describe('the sign-up rule and its meter agree (issue #42)', () => {
  it('never says "Strong" (green) for a password the register form refuses, and always for one it takes', () => {
    fc.assert(
      fc.property(passwordArb, (password) => {
        const isStrong = measurePassword(password).colour === 'green';
        expect(isStrong).toBe(registerFormAccepts(password));
      }),
      { numRuns: 2000 },
    );
  });

  it('lists no unmet part exactly when the reset form takes the password too', () => {
    fc.assert(
      fc.property(passwordArb, (password) => {
        const accepted = resetPasswordFormSchema.safeParse({
          password,
          passwordConfirm: password,
        }).success;
        expect(unmetPasswordRule(password).length === 0).toBe(accepted);
        expect(meetsPasswordRule(password)).toBe(accepted);
      }),
      { numRuns: 1000 },
    );
  });

  it('holds "sunny-tiger-42" at Fair and names the uppercase letter it lacks', () => {
    expect(scorePassword('sunny-tiger-42')).toBeGreaterThan(60);
    const strength = measurePassword('sunny-tiger-42');
    expect(strength.colour).toBe('yellow');
    expect(strength.unmet).toEqual(['uppercase']);
    expect(registerFormAccepts('sunny-tiger-42')).toBe(false);
    expect(measurePassword('Sunny-tiger-42')).toMatchObject({ colour: 'green', unmet: [] });
  });

  it('lists each unmet part in the order the form shows them', () => {
    expect(unmetPasswordRule('')).toEqual(['length', 'uppercase', 'lowercase', 'digitOrSymbol']);
    expect(unmetPasswordRule('abc')).toEqual(['length', 'uppercase', 'digitOrSymbol']);
    expect(unmetPasswordRule('ABCDEFGH_')).toEqual(['lowercase', 'digitOrSymbol']);
    expect(unmetPasswordRule(`Ab1${'x'.repeat(70)}`)).toEqual(['maxLength']);
  });
});

describe('password strength (docs/accounts-and-shell.md §4)', () => {
  it('scores an empty password 0 and paints it red', () => {
    expect(measurePassword('')).toMatchObject({ score: 0, colour: 'red' });
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
    expect(measurePassword('Abcdefgh12!?').score).toBe(100);
  });

  it('holds a refused password below 60 however high the spec would score it', () => {
    expect(measurePassword('Ab1!').score).toBe(59); // 83.3 by the spec's count, but 4 characters
    expect(measurePassword('abcdefgh12!?').score).toBe(59); // 81.25, but no uppercase letter
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
