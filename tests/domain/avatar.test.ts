import { describe, expect, it } from 'vitest';
import { avatarInitials } from '../../src/domain/avatar';

describe('avatar initials (docs/accounts-and-shell.md §2)', () => {
  it('uses the first and last initial when both names exist', () => {
    expect(
      avatarInitials({ firstName: 'ada', lastName: 'Lovelace', email: 'ada@example.com' }),
    ).toBe('AL');
  });

  it('falls back to the first initial alone', () => {
    expect(avatarInitials({ firstName: 'Grace', lastName: '', email: 'grace@example.com' })).toBe(
      'G',
    );
  });

  it('falls back to the email initial when there are no names', () => {
    expect(avatarInitials({ firstName: '', lastName: 'Hopper', email: 'hopper@example.com' })).toBe(
      'H',
    );
    expect(avatarInitials({ email: 'zed@example.com' })).toBe('Z');
  });

  it("uses a guest's chosen name, who has no first name nor email", () => {
    expect(avatarInitials({ firstName: '', lastName: '', displayName: 'zoé', email: '' })).toBe(
      'Z',
    );
    expect(avatarInitials({ displayName: '  élodie' })).toBe('É');
  });

  it('takes the first letter as a grapheme: an emoji or an accented letter, never half of one', () => {
    expect(avatarInitials({ displayName: '🦊 Fox' })).toBe('🦊');
    expect(avatarInitials({ firstName: '👩‍👩‍👧', lastName: 'Family' })).toBe('👩‍👩‍👧F');
    // "é" typed as e + a combining accent stays one letter.
    expect(avatarInitials({ firstName: 'e\u0301mile', lastName: 'Ørsted' })).toBe('E\u0301Ø');
    expect(avatarInitials({ firstName: '🇫🇷' })).toBe('🇫🇷');
    expect(avatarInitials({ firstName: 'ßen' })).toBe('ß');
    expect(avatarInitials({ displayName: '𝒜lice' })).not.toContain('\uFFFD');
    expect(avatarInitials({ displayName: '𝒜lice' })).toBe('𝒜');
  });

  it('shows "U" for a user with neither names nor email', () => {
    expect(avatarInitials({ firstName: '', lastName: '', displayName: ' ', email: '' })).toBe('U');
    expect(avatarInitials({})).toBe('U');
  });

  it('shows "?" for an unknown user', () => {
    expect(avatarInitials(null)).toBe('?');
    expect(avatarInitials(undefined)).toBe('?');
  });

  it('ignores surrounding whitespace', () => {
    expect(avatarInitials({ firstName: '  mia ', lastName: ' wong' })).toBe('MW');
  });
});
