import { describe, expect, it } from 'vitest';
import {
  computeReturnUrl,
  isCutInviteLink,
  returnUrlFromSearch,
} from '../../src/domain/return-url';

describe('login return URL (docs/accounts-and-shell.md §2)', () => {
  it('prefers the returnUrl query parameter over everything else', () => {
    expect(computeReturnUrl({ returnUrl: '/profile', groupId: '7', inviteCode: 'abc123' })).toBe(
      '/profile',
    );
  });

  it('goes to the group invite with its code when groupId and inviteCode are present', () => {
    expect(computeReturnUrl({ groupId: '7', inviteCode: 'abc123' })).toBe(
      '/group/7/invite?inviteCode=abc123',
    );
  });

  it('goes to the group when only groupId is present', () => {
    expect(computeReturnUrl({ groupId: '7' })).toBe('/group/7');
    expect(computeReturnUrl({ groupId: '7', inviteCode: '' })).toBe('/group/7');
  });

  it('defaults to /dashboard', () => {
    expect(computeReturnUrl({})).toBe('/dashboard');
    expect(computeReturnUrl({ inviteCode: 'abc123' })).toBe('/dashboard');
  });

  it('ignores a returnUrl that would leave the app', () => {
    expect(computeReturnUrl({ returnUrl: 'https://evil.example/' })).toBe('/dashboard');
    expect(computeReturnUrl({ returnUrl: '//evil.example/' })).toBe('/dashboard');
    expect(computeReturnUrl({ returnUrl: '//evil.example/', groupId: '3' })).toBe('/group/3');
  });

  it('reads the parameters from a query string', () => {
    expect(returnUrlFromSearch('?returnUrl=%2Fgroup%2F4%3FinviteCode%3Dxyz')).toBe(
      '/group/4?inviteCode=xyz',
    );
    expect(returnUrlFromSearch('?groupId=9&inviteCode=q1')).toBe('/group/9/invite?inviteCode=q1');
    expect(returnUrlFromSearch('')).toBe('/dashboard');
  });
});

describe('an invite link cut short on its way (issue #42)', () => {
  const visiting = (returnUrl: string) => `?returnUrl=${encodeURIComponent(returnUrl)}`;

  it('knows the invite path whose code was cut off', () => {
    for (const cut of [
      '/group/7?i',
      '/group/7?inviteCo',
      '/group/7?inviteCode',
      '/group/7?inviteCode=',
      '/group/7/invite?inviteCode=',
      '/group/7/invite',
    ]) {
      expect(isCutInviteLink(visiting(cut)), cut).toBe(true);
    }
  });

  it("leaves whole links, a public group's and every other page alone", () => {
    for (const whole of [
      '/group/7?inviteCode=Ab3dE9xYz1',
      '/group/7/invite?inviteCode=Ab3dE9xYz1',
      '/group/7',
      '/group/7?utm=chat',
      '/dashboard',
      '/bets/7?i',
    ]) {
      expect(isCutInviteLink(visiting(whole)), whole).toBe(false);
    }
    expect(isCutInviteLink('')).toBe(false);
  });
});
