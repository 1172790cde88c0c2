import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { suggestDisplayName, suggestUsername } from '../../src/domain/auth';
import { registerFormSchema, registerRequestSchema } from '../../src/domain/schemas/auth';

// The sign-up form's suggestions from the first name (issue #42).

const suffixArb = fc.integer({ min: 10, max: 99 });

/** The issues the register form's schema finds on `field` with these names. */
function issuesOn(
  field: 'username' | 'displayName',
  values: { username: string; displayName: string },
) {
  const result = registerFormSchema.safeParse({
    firstName: 'Robin',
    lastName: 'Quill',
    email: 'robin@example.com',
    password: 'Hunchy2024!',
    passwordConfirm: 'Hunchy2024!',
    acceptTerms: true,
    ...values,
  });
  return result.success ? [] : result.error.issues.filter((issue) => issue.path[0] === field);
}

describe('the names the sign-up form suggests from the first name', () => {
  it('suggests the first name as the display name, kept as names are', () => {
    expect(suggestDisplayName('  Zoë   ')).toBe('Zoë');
    expect(suggestDisplayName('Mary  Ann')).toBe('Mary Ann');
  });

  it('suggests a username of the letters without accents, lowercased, and the two digits', () => {
    expect(suggestUsername('Zoë', 42)).toBe('zoe42');
    expect(suggestUsername('Mary-Ann', 17)).toBe('maryann17');
    expect(suggestUsername('Al', 10)).toBe('al10');
    expect(suggestUsername('Анна', 42)).toBe('');
    expect(suggestUsername('x'.repeat(50), 42)).toBe(`${'x'.repeat(28)}42`);
  });

  it('only ever suggests a username the form and the server take, or none', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60, unit: 'binary' }), suffixArb, (firstName, suffix) => {
        const username = suggestUsername(firstName, suffix);
        if (username === '') return;
        expect(issuesOn('username', { username, displayName: 'Robin' })).toEqual([]);
        const request = registerRequestSchema.shape.username.safeParse(username);
        expect(request.success && request.data).toBe(username);
      }),
      { numRuns: 300 },
    );
  });

  it('suggests a display name the form takes whenever the first name has two letters', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\s*\p{L}{2,50}\s*$/u), (firstName) => {
        const displayName = suggestDisplayName(firstName);
        expect(issuesOn('displayName', { username: 'robin', displayName })).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
