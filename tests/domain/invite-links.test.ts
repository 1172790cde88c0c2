import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_ID } from '../../src/domain/ids';
import { normalizeInviteCode, parseInviteLink, shareLink } from '../../src/domain/groups';
import { pendingInvite, returnQuery } from '../../src/domain/return-url';

// Issue #24 point 2: a pasted invite link fills the "Private Group" form; codes compare
// without case. Point 1: the invite survives every account screen.

const inviteCodeArb = fc.stringMatching(/^[A-Za-z0-9_-]{6,20}$/);
const groupIdArb = fc.integer({ min: 1, max: MAX_ID });
const originArb = fc.constantFrom(
  'https://hunch.example',
  'http://localhost:3000',
  'https://hunch.example/',
  'http://127.0.0.1:4173',
);

describe('parseInviteLink', () => {
  it('reads back the id and code of every share link, from any origin, whole or as a path', () => {
    fc.assert(
      fc.property(originArb, groupIdArb, inviteCodeArb, (origin, id, code) => {
        const link = shareLink(origin, { id, privacy: 'private', inviteCode: code });
        expect(parseInviteLink(link)).toEqual({ groupId: id, inviteCode: code });
        expect(parseInviteLink(`  ${link}\n`)).toEqual({ groupId: id, inviteCode: code });
        const path = link.slice(link.indexOf('/group/'));
        expect(parseInviteLink(path)).toEqual({ groupId: id, inviteCode: code });
        expect(
          parseInviteLink(`/group/${id}/invite?inviteCode=${encodeURIComponent(code)}`),
        ).toEqual({ groupId: id, inviteCode: code });
      }),
    );
  });

  it('reads a public group link as its id alone', () => {
    expect(parseInviteLink('https://hunch.example/group/12')).toEqual({ groupId: 12 });
  });

  it('refuses what is not an invite link', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const parsed = parseInviteLink(text);
        if (parsed === null) return;
        expect(text).toContain('/group/');
        expect(parsed.groupId).toBeGreaterThan(0);
        expect(parsed.groupId).toBeLessThanOrEqual(MAX_ID);
      }),
    );
    for (const text of [
      '',
      '12',
      'abc123',
      'https://hunch.example/group/0?inviteCode=abc123',
      'https://hunch.example/group/99999999999?inviteCode=abc123',
      'https://hunch.example/group/7/bets?inviteCode=abc123',
      'https://hunch.example/bets/7',
    ])
      expect(parseInviteLink(text), text).toBeNull();
  });
});

describe('normalizeInviteCode', () => {
  it('makes a code equal to itself in any case, and to no other code', () => {
    const flipCase = (code: string, flips: boolean[]) =>
      [...code]
        .map((char, index) => (flips[index] ? char.toUpperCase() : char.toLowerCase()))
        .join('');
    fc.assert(
      fc.property(
        inviteCodeArb,
        inviteCodeArb,
        fc.array(fc.boolean(), { minLength: 20, maxLength: 20 }),
        (code, other, flips) => {
          expect(normalizeInviteCode(flipCase(code, flips))).toBe(normalizeInviteCode(code));
          expect(normalizeInviteCode(` ${code} `)).toBe(normalizeInviteCode(code));
          if (code.toLowerCase() !== other.toLowerCase())
            expect(normalizeInviteCode(other)).not.toBe(normalizeInviteCode(code));
        },
      ),
    );
  });
});

describe('the pending invite of an account screen', () => {
  it('is carried by returnQuery and read back by pendingInvite, screen after screen', () => {
    fc.assert(
      fc.property(groupIdArb, inviteCodeArb, (id, code) => {
        const invite = `/group/${id}?inviteCode=${encodeURIComponent(code)}`;
        // The guard sends the visitor to /login?returnUrl=…; each screen links on with returnQuery.
        let search = `?returnUrl=${encodeURIComponent(invite)}`;
        for (let hop = 0; hop < 4; hop += 1) {
          expect(pendingInvite(search)).toEqual({ groupId: id, inviteCode: code });
          search = returnQuery(search);
        }
        expect(search).toBe(`?returnUrl=${encodeURIComponent(invite)}`);
      }),
    );
  });

  it('is nothing without an invite', () => {
    expect(returnQuery('')).toBe('');
    expect(pendingInvite('')).toBeNull();
    expect(pendingInvite('?returnUrl=%2Fprofile')).toBeNull();
    expect(pendingInvite('?returnUrl=%2Fgroup%2F4')).toBeNull();
    expect(returnQuery('?returnUrl=%2Fprofile')).toBe('?returnUrl=%2Fprofile');
  });
});
