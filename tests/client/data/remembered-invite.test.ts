import { describe, expect, it } from 'vitest';
import { createRememberedInvite } from '../../../src/client/data/remembered-invite';
import { TOKEN_LIFETIME } from '../../../src/domain/constants';
import { MemoryStorage } from '../node-browser';

// The invite a visitor brought to "Forgot password", kept in this browser for the mail's
// round trip: the reset link itself never carries it.

const INVITE = '?returnUrl=%2Fgroup%2F12%2Finvite%3FinviteCode%3Dabc123';
const NOW = Date.parse('2030-01-01T00:00:00Z');

describe('the invite kept across the reset mail', () => {
  it('gives back the invite as a returnUrl query until the reset link would have expired', () => {
    const storage = new MemoryStorage();
    const remembered = createRememberedInvite(storage);
    remembered.keep(INVITE, NOW);
    expect(remembered.query(NOW + 1000)).toBe(INVITE);
    expect(remembered.query(NOW + TOKEN_LIFETIME.passwordResetSeconds * 1000 - 1)).toBe(INVITE);
    expect(remembered.query(NOW + TOKEN_LIFETIME.passwordResetSeconds * 1000)).toBe('');
  });

  it('keeps only an invite: another target, or none, forgets an older one', () => {
    const storage = new MemoryStorage();
    const remembered = createRememberedInvite(storage);
    remembered.keep(INVITE, NOW);
    remembered.keep('?returnUrl=%2Fleaderboard', NOW);
    expect(remembered.query(NOW)).toBe('');
    remembered.keep(INVITE, NOW);
    remembered.keep('', NOW);
    expect(remembered.query(NOW)).toBe('');
  });

  it('is forgotten once used, and ignores what it cannot read', () => {
    const storage = new MemoryStorage();
    const remembered = createRememberedInvite(storage);
    remembered.keep(INVITE, NOW);
    remembered.forget();
    expect(remembered.query(NOW)).toBe('');
    for (const junk of [
      'not json',
      '{"returnUrl":"https://evil.example/group/1?inviteCode=x","at":0}',
      '7',
    ]) {
      storage.setItem('pending_invite', junk);
      expect(remembered.query(0)).toBe('');
    }
  });

  it('works without storage (private mode): nothing kept, nothing given', () => {
    const remembered = createRememberedInvite(null);
    remembered.keep(INVITE, NOW);
    expect(remembered.query(NOW)).toBe('');
  });
});
