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

  it('shows "U" for a user with neither names nor email, such as a guest', () => {
    expect(avatarInitials({ firstName: '', lastName: '', email: '' })).toBe('U');
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
