import { describe, expect, it } from 'vitest';
import {
  baseInTiers,
  canAddOption,
  canRemoveOption,
  DETAILS_FIELDS,
  hasErrorIn,
  initialBetFormValues,
  sameAsBefore,
  toBetRequest,
  TYPE_FIELDS,
  validateBetForm,
} from '../../../src/client/bets/bet-form-model';
import { canReachStep } from '../../../src/client/ui/stepper';

// The bet-creation stepper's rules (docs/groups-and-bets.md §4, §5): a step is reachable only when every
// earlier step is valid; Next and Submit wait for the current step; option limits.

const now = Date.parse('2030-01-01T12:00:00Z');

describe('stepper rules', () => {
  it('reaches a step only when every earlier step is valid', () => {
    expect(canReachStep([{ isValid: false }, { isValid: false }], 0)).toBe(true);
    expect(canReachStep([{ isValid: false }, { isValid: true }], 1)).toBe(false);
    expect(canReachStep([{ isValid: true }, { isValid: false }], 1)).toBe(true);
    expect(canReachStep([{ isValid: true }, { isValid: false }, { isValid: true }], 2)).toBe(false);
    expect(canReachStep([{ isValid: true }], 3)).toBe(false);
  });

  it('the Details step is invalid without a title and valid with one (expiry defaults to now + 24 h, group to the given one)', () => {
    const values = initialBetFormValues(now, 3);
    expect(validateBetForm(values, now).title).toBe('Title is required');
    expect(hasErrorIn(validateBetForm(values, now), DETAILS_FIELDS)).toBe(true);
    const filled = { ...values, title: 'Rain?' };
    expect(hasErrorIn(validateBetForm(filled, now), DETAILS_FIELDS)).toBe(false);
    expect(toBetRequest(filled).expiresAt).toBe('2030-01-02T12:00:00.000Z');
  });

  it('asks for a group and a future expiry', () => {
    const values = { ...initialBetFormValues(now, null), title: 'Rain?' };
    expect(validateBetForm(values, now).groupId).toBe('Group is required');
    expect(
      validateBetForm({ ...values, groupId: 3, expiresAt: '2029-12-31T00:00' }, now).expiresAt,
    ).toBe('Expiry date must be in the future');
  });

  it('asks for an expiry at most a year ahead, as the server does', () => {
    const values = { ...initialBetFormValues(now, 3), title: 'Rain?' };
    expect(validateBetForm({ ...values, expiresAt: '2031-01-03T00:00' }, now).expiresAt).toBe(
      'Expiry date must be at most a year ahead',
    );
    expect(validateBetForm({ ...values, expiresAt: '2030-12-30T00:00' }, now).expiresAt).toBe(
      undefined,
    );
  });

  it('offers the group’s stake tiers and refuses another base, as the server does', () => {
    const values = { ...initialBetFormValues(now, 3, [5, 10, 15]), title: 'Rain?' };
    expect(values.baseWagerAmount).toBe(5);
    expect(validateBetForm(values, now, [5, 10, 15]).baseWagerAmount).toBeUndefined();
    expect(
      validateBetForm({ ...values, baseWagerAmount: 1 }, now, [5, 10, 15]).baseWagerAmount,
    ).toBe('Base Wager Amount must be 5, 10 or 15');
    // Another group: the same tier in its points ($$ stays $$).
    expect(baseInTiers(10, [5, 10, 15], [10, 20, 30])).toBe(20);
    expect(baseInTiers(2, [1, 2, 3], [5, 10, 15])).toBe(10);
    expect(baseInTiers(10, [10, 20, 30], [5, 10, 15])).toBe(5);
    expect(baseInTiers(15, [1, 2, 3], [5, 10, 15])).toBe(15);
  });

  it('sends a repeat with its last day’s end and the device’s zone, and checks the end as the server does', () => {
    const values = { ...initialBetFormValues(now, 3), title: 'Quiz?', repeat: 'week' as const };
    expect(toBetRequest(values).repeat).toEqual({
      every: 'week',
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    const until = toBetRequest({ ...values, repeatUntil: '2030-03-01' }).repeat?.until;
    expect(until).toBe(new Date('2030-03-01T23:59:59').toISOString());
    expect(validateBetForm({ ...values, repeatUntil: '2029-12-01' }, now).repeatUntil).toBe(
      'Repeat end must be after the bet closes',
    );
    expect(toBetRequest({ ...values, repeat: '' }).repeat).toBeUndefined();
  });

  it('fills "Same as last time" from a settled bet: title, options and base in the group’s tiers', () => {
    const bet = {
      title: 'Who wins the quiz?',
      description: null,
      betType: 'multiple_choice' as const,
      betTypeConfig: { options: ['Ana', 'Ben', 'Cy'] },
      baseWagerAmount: 2,
      groupId: 3,
    };
    const filled = sameAsBefore(bet, now);
    expect(filled).toMatchObject({
      title: 'Who wins the quiz?',
      description: '',
      betType: 'multiple_choice',
      options: ['Ana', 'Ben', 'Cy'],
      baseWagerAmount: 2,
      groupId: 3,
      repeat: '',
    });
    expect(validateBetForm(filled, now)).toEqual({});
    expect(sameAsBefore(bet, now, [5, 10, 15]).baseWagerAmount).toBe(10);
  });

  it('takes a group created offline (its temporary id), which the outbox numbers before sending', () => {
    const values = { ...initialBetFormValues(now, -4), title: 'Rain?' };
    expect(hasErrorIn(validateBetForm(values, now), DETAILS_FIELDS)).toBe(false);
    expect(toBetRequest(values).groupId).toBe(-4);
  });

  it('multiple choice needs two non-blank options; blanks are dropped', () => {
    const values = {
      ...initialBetFormValues(now, 3),
      title: 'Colour?',
      betType: 'multiple_choice' as const,
      options: ['Red', '  '],
    };
    expect(validateBetForm(values, now).options).toBe('At least 2 options are required');
    const ok = { ...values, options: ['Red', '', 'Blue'] };
    expect(hasErrorIn(validateBetForm(ok, now), TYPE_FIELDS)).toBe(false);
  });

  it('over/under needs its line', () => {
    const values = {
      ...initialBetFormValues(now, 3),
      title: 'Cups?',
      betType: 'over_under' as const,
    };
    expect(validateBetForm(values, now).line).toBe('Line is required');
    expect(validateBetForm({ ...values, line: '2.5' }, now).line).toBeUndefined();
    expect(toBetRequest({ ...values, line: '2.5' }).betTypeConfig).toEqual({ line: 2.5 });
  });

  it('adds up to 10 options and removes only while more than 2 remain', () => {
    expect(canRemoveOption(['a', 'b'])).toBe(false);
    expect(canRemoveOption(['a', 'b', 'c'])).toBe(true);
    expect(canAddOption(Array.from({ length: 9 }, String))).toBe(true);
    expect(canAddOption(Array.from({ length: 10 }, String))).toBe(false);
  });
});
