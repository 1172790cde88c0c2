import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  answerLabel,
  normalizeAnswer,
  validateCorrectAnswer,
  validatePrediction,
} from '../../src/domain/bet-types';
import {
  defaultExpiresAt,
  isExpiryInFuture,
  isValidWagerPoints,
  wagerMultiplier,
  wagerPointChoices,
  type Bet,
} from '../../src/domain/bets';
import {
  betSchema,
  betStatisticsSchema,
  betUserContextSchema,
  createBetRequestSchema,
  createBetRequestSchemaAt,
  placeWagerRequestSchema,
  resolveRequestSchema,
  updateWagerRequestSchema,
} from '../../src/domain/schemas/bets';
import { canonicalDecimal, parseDecimal } from '../../src/domain/decimal';

function messagesOf(result: {
  success: boolean;
  error?: { issues: { message: string }[] };
}): string[] {
  return result.success ? [] : (result.error?.issues.map((issue) => issue.message) ?? []);
}

const validBet = {
  title: 'Will it rain on Saturday?',
  expiresAt: '2030-06-01T12:00:00.000Z',
  baseWagerAmount: 2,
  betType: 'yes_no',
  betTypeConfig: {},
  groupId: 4,
};

function createBet(overrides: Partial<Bet> = {}): Bet {
  return {
    id: 1,
    title: 'Who wins?',
    description: null,
    betType: 'multiple_choice',
    state: 'active',
    betTypeConfig: { options: ['Red', 'Blue'] },
    baseWagerAmount: 1,
    groupId: 4,
    createdBy: 1,
    expiresAt: '2030-06-01T12:00:00.000Z',
    correctAnswer: null,
    resolvedAt: null,
    resolvedBy: null,
    createdAt: '2030-05-01T12:00:00.000Z',
    updatedAt: '2030-05-01T12:00:00.000Z',
    ...overrides,
  };
}

describe('createBetRequestSchema', () => {
  it('accepts a yes/no bet and fills the default labels', () => {
    expect(createBetRequestSchema.parse(validBet)).toEqual({
      ...validBet,
      betTypeConfig: { yesLabel: 'Yes', noLabel: 'No' },
    });
  });

  it('keeps custom yes/no labels and replaces blank ones by the defaults', () => {
    const parsed = createBetRequestSchema.parse({
      ...validBet,
      betTypeConfig: { yesLabel: ' Rain ', noLabel: '' },
    });
    expect(parsed.betTypeConfig).toEqual({ yesLabel: 'Rain', noLabel: 'No' });
  });

  it('normalises the expiry to UTC and takes the group id from a string', () => {
    const parsed = createBetRequestSchema.parse({
      ...validBet,
      expiresAt: '2030-06-01T14:00:00+02:00',
      groupId: '4',
    });
    expect(parsed.expiresAt).toBe('2030-06-01T12:00:00.000Z');
    expect(parsed.groupId).toBe(4);
  });

  it.each([
    [{ title: undefined }, 'Title is required'],
    [{ title: '  ' }, 'Title is required'],
    [{ title: 't'.repeat(101) }, 'Title must be 100 characters or less'],
    [{ description: 'd'.repeat(1001) }, 'Description must be 1000 characters or less'],
    [{ expiresAt: undefined }, 'Expiry date is required'],
    [{ expiresAt: '' }, 'Expiry date is required'],
    [{ expiresAt: 'next tuesday' }, 'Expiry date must be a valid date'],
    [{ expiresAt: '2030-06-01T12:00' }, 'Expiry date must be a valid date'],
    [{ baseWagerAmount: undefined }, 'Base Wager Amount is required'],
    [{ baseWagerAmount: 0 }, 'Base Wager Amount must be at least 1'],
    [{ baseWagerAmount: 4 }, "Base Wager Amount must be one of the group's stake tiers"],
    [{ baseWagerAmount: 1.5 }, "Base Wager Amount must be one of the group's stake tiers"],
    [{ betType: undefined }, 'Bet type is required'],
    [{ betType: 'poker' }, 'Bet type must be yes_no, multiple_choice, numeric or over_under'],
    [{ groupId: undefined }, 'Group is required'],
    [{ groupId: '' }, 'Group is required'],
    [{ betTypeConfig: { yesLabel: 'y'.repeat(51) } }, 'Label must be 50 characters or less'],
  ])('refuses %j with "%s"', (change, message) => {
    expect(messagesOf(createBetRequestSchema.safeParse({ ...validBet, ...change }))).toEqual([
      message,
    ]);
  });

  it('refuses unknown fields', () => {
    expect(createBetRequestSchema.safeParse({ ...validBet, state: 'resolved' }).success).toBe(
      false,
    );
  });

  describe('a multiple-choice bet', () => {
    const multiple = (options: unknown) =>
      createBetRequestSchema.safeParse({
        ...validBet,
        betType: 'multiple_choice',
        betTypeConfig: { options },
      });

    it('drops blank options and trims the rest before checking them', () => {
      const result = multiple([' Red ', '', '  ', 'Blue']);
      expect(result.success && result.data.betTypeConfig).toEqual({ options: ['Red', 'Blue'] });
    });

    it('needs at least 2 and at most 10 options', () => {
      expect(messagesOf(multiple(['Red', ' ']))).toEqual(['At least 2 options are required']);
      expect(messagesOf(multiple(undefined))).toEqual(['At least 2 options are required']);
      expect(
        messagesOf(multiple(Array.from({ length: 11 }, (_, index) => `Option ${index}`))),
      ).toEqual(['At most 10 options are allowed']);
    });

    it('needs options that differ other than in case', () => {
      expect(messagesOf(multiple(['Red', 'red']))).toEqual(['Options must be different']);
    });

    it('puts config issues under betTypeConfig', () => {
      const result = multiple(['Red']);
      expect(result.success ? [] : result.error.issues[0]?.path).toEqual([
        'betTypeConfig',
        'options',
      ]);
    });
  });

  it('needs a number as the line of an over/under bet', () => {
    const overUnder = (betTypeConfig: unknown) =>
      createBetRequestSchema.safeParse({ ...validBet, betType: 'over_under', betTypeConfig });
    expect(overUnder({ line: 2.5 }).success).toBe(true);
    expect(messagesOf(overUnder({}))).toEqual(['Line is required']);
    expect(messagesOf(overUnder({ line: 'lots' }))).toEqual(['Line must be a number']);
  });

  it('takes a numeric bet with an empty config', () => {
    const parsed = createBetRequestSchema.parse({
      ...validBet,
      betType: 'numeric',
      betTypeConfig: undefined,
    });
    expect(parsed.betTypeConfig).toEqual({});
  });
});

describe('the expiry clock check', () => {
  const now = Date.parse('2030-01-01T00:00:00.000Z');

  it('knows a future expiry from a past one', () => {
    expect(isExpiryInFuture('2030-01-01T00:00:01.000Z', now)).toBe(true);
    expect(isExpiryInFuture('2030-01-01T00:00:00.000Z', now)).toBe(false);
    expect(isExpiryInFuture('garbage', now)).toBe(false);
  });

  it('says "Expiry date must be in the future" when parsing against a clock', () => {
    expect(
      messagesOf(
        createBetRequestSchemaAt(now).safeParse({
          ...validBet,
          expiresAt: '2029-12-31T23:00:00.000Z',
        }),
      ),
    ).toEqual(['Expiry date must be in the future']);
    expect(createBetRequestSchemaAt(now).safeParse(validBet).success).toBe(true);
  });

  it('defaults to now + 24 h', () => {
    expect(defaultExpiresAt(now)).toBe('2030-01-02T00:00:00.000Z');
  });
});

describe('wager and resolve requests', () => {
  it('accepts a wager and an update', () => {
    expect(placeWagerRequestSchema.parse({ betId: 3, prediction: ' yes ', points: 2 })).toEqual({
      betId: 3,
      prediction: 'yes',
      points: 2,
    });
    expect(updateWagerRequestSchema.parse({ prediction: 'no', points: 3 })).toEqual({
      prediction: 'no',
      points: 3,
    });
  });

  it.each([
    [{ betId: 3, points: 2 }, 'Prediction is required'],
    [{ betId: 3, prediction: ' ', points: 2 }, 'Prediction is required'],
    [{ betId: 3, prediction: 'yes' }, 'Points are required'],
    [{ betId: 3, prediction: 'yes', points: 1.5 }, 'Points must be a whole number'],
    [{ betId: 3, prediction: 'yes', points: -1 }, 'Points must be at least 1'],
    [{ prediction: 'yes', points: 1 }, 'Bet is required'],
  ])('refuses the wager %j with "%s"', (input, message) => {
    expect(messagesOf(placeWagerRequestSchema.safeParse(input))).toEqual([message]);
  });

  it('needs a non-empty answer to resolve', () => {
    expect(messagesOf(resolveRequestSchema.safeParse({ correctAnswer: '  ' }))).toEqual([
      'Answer is required',
    ]);
    expect(messagesOf(resolveRequestSchema.safeParse({}))).toEqual(['Answer is required']);
    expect(resolveRequestSchema.parse({ correctAnswer: ' 42 ' })).toEqual({ correctAnswer: '42' });
  });
});

describe('validatePrediction', () => {
  const yesNo = { betType: 'yes_no', betTypeConfig: {} };
  const multiple = { betType: 'multiple_choice', betTypeConfig: { options: ['Red', 'Blue'] } };
  const numeric = { betType: 'numeric', betTypeConfig: {} };
  const overUnder = { betType: 'over_under', betTypeConfig: { line: 2.5 } };

  it.each([
    [yesNo, 'yes', null],
    [yesNo, 'no', null],
    [yesNo, 'Yes', 'Prediction must be yes or no'],
    [yesNo, '', 'Prediction is required'],
    [multiple, 'Red', null],
    [multiple, 'Green', 'Prediction must be one of the options'],
    [multiple, ' ', 'Prediction is required'],
    [numeric, '-3.25', null],
    [numeric, '42', null],
    [numeric, '', 'Please enter a number'],
    [numeric, '2,5', null],
    [numeric, '-0,125', null],
    [numeric, 'abc', 'Please enter a valid number (use 2.5)'],
    [numeric, '1e5', 'Please enter a valid number (use 2.5)'],
    [numeric, 'Infinity', 'Please enter a valid number (use 2.5)'],
    [numeric, '1,000', 'Please enter a valid number (use 2.5)'],
    [numeric, '1.000,5', 'Please enter a valid number (use 2.5)'],
    [numeric, '2,5,1', 'Please enter a valid number (use 2.5)'],
    [overUnder, 'over', null],
    [overUnder, 'under', null],
    [overUnder, '3', 'Prediction must be over or under'],
    [{ betType: 'poker', betTypeConfig: {} }, 'x', 'Unsupported bet type poker'],
  ])('for %j, "%s" gives %j', (bet, prediction, expected) => {
    expect(validatePrediction(bet, prediction)).toBe(expected);
  });
});

describe('validateCorrectAnswer', () => {
  it("wants the bet's answers, and the actual number for over/under", () => {
    expect(validateCorrectAnswer({ betType: 'yes_no', betTypeConfig: {} }, 'no')).toBeNull();
    expect(validateCorrectAnswer({ betType: 'yes_no', betTypeConfig: {} }, 'maybe')).toBe(
      'Answer must be yes or no',
    );
    expect(
      validateCorrectAnswer(
        { betType: 'multiple_choice', betTypeConfig: { options: ['A', 'B'] } },
        'C',
      ),
    ).toBe('Answer must be one of the options');
    expect(validateCorrectAnswer({ betType: 'numeric', betTypeConfig: {} }, '7.5')).toBeNull();
    expect(
      validateCorrectAnswer({ betType: 'over_under', betTypeConfig: { line: 2.5 } }, '3'),
    ).toBeNull();
    expect(
      validateCorrectAnswer({ betType: 'over_under', betTypeConfig: { line: 2.5 } }, 'over'),
    ).toBe('Please enter a valid number (use 2.5)');
    expect(
      validateCorrectAnswer({ betType: 'over_under', betTypeConfig: { line: 2.5 } }, '3,5'),
    ).toBeNull();
    expect(validateCorrectAnswer({ betType: 'numeric', betTypeConfig: {} }, ' ')).toBe(
      'Answer is required',
    );
  });
});

describe('numbers as answers', () => {
  it('spells equal numbers one way', () => {
    expect(canonicalDecimal('007.50')).toBe('7.5');
    expect(canonicalDecimal('-0.0')).toBe('0');
    expect(canonicalDecimal('-12.010')).toBe('-12.01');
    expect(canonicalDecimal('10')).toBe('10');
    expect(normalizeAnswer({ betType: 'numeric', betTypeConfig: {} }, ' 3.0 ')).toBe('3');
    expect(normalizeAnswer({ betType: 'yes_no', betTypeConfig: {} }, ' yes ')).toBe('yes');
  });

  it('reads a decimal comma as a point, so "2,5" and "2.5" are one answer', () => {
    expect(canonicalDecimal(' 2,50 ')).toBe('2.5');
    expect(canonicalDecimal('-0,125')).toBe('-0.125');
    expect(normalizeAnswer({ betType: 'numeric', betTypeConfig: {} }, '2,5')).toBe('2.5');
    expect(normalizeAnswer({ betType: 'over_under', betTypeConfig: { line: 2.5 } }, '3,0')).toBe(
      '3',
    );
    expect(parseDecimal('7,25')).toEqual(parseDecimal('7.25'));
  });

  it('leaves "1,000" unread: a thousand to some players, one to others', () => {
    expect(canonicalDecimal('1,000')).toBe('1,000');
    expect(parseDecimal('1,000')).toBeNull();
  });
});

describe('wager points', () => {
  it('are the base amount times 1, 2 or 3', () => {
    expect([1, 2, 3, 4, 6, 9].map((points) => isValidWagerPoints(3, points))).toEqual([
      false,
      false,
      true,
      false,
      true,
      true,
    ]);
    expect(isValidWagerPoints(2, 5)).toBe(false);
    expect(wagerMultiplier(2, 4)).toBe(2);
    expect(wagerMultiplier(2, 3)).toBeNull();
    expect(wagerMultiplier(0, 0)).toBeNull();
  });
});

describe('answerLabel', () => {
  it("shows the bet's yes/no labels", () => {
    expect(
      answerLabel({ betType: 'yes_no', betTypeConfig: { yesLabel: 'Rain', noLabel: 'Dry' } }, 'no'),
    ).toBe('Dry');
    expect(answerLabel({ betType: 'yes_no', betTypeConfig: {} }, 'yes')).toBe('Yes');
    expect(answerLabel({ betType: 'over_under', betTypeConfig: { line: 1 } }, 'under')).toBe(
      'Under',
    );
  });
});

describe('response schemas', () => {
  it('read a bet, its user context and statistics', () => {
    const bet = createBet({ answerTotals: { Red: 3 } });
    expect(betSchema.parse(bet)).toEqual(bet);
    const context = {
      bet,
      membership: { groupId: 4, userId: 2, userName: 'Bo', totalPoints: 100, availablePoints: 97 },
      userWager: null,
    };
    expect(betUserContextSchema.parse(context).membership?.availablePoints).toBe(97);
    expect(
      betStatisticsSchema.safeParse({
        isResolved: false,
        correctAnswer: null,
        totalParticipants: 0,
        totalMembers: 2,
        participationRate: 0,
        totalPoints: 0,
        averagePoints: 0,
        userWager: null,
        winnerLoserBreakdown: {
          totalWinners: 0,
          winnerPercentage: 0,
          winnersPoints: 0,
          totalLosers: 0,
          loserPercentage: 0,
          losersPoints: 0,
        },
        answerDistribution: [],
      }).success,
    ).toBe(true);
  });

  it('keeps unknown keys of the free-record config', () => {
    expect(
      betSchema.parse(createBet({ betTypeConfig: { options: ['A', 'B'], colour: 'red' } }))
        .betTypeConfig,
    ).toHaveProperty('colour', 'red');
  });
});

describe('wager point choices', () => {
  it('offer exactly the amounts the server accepts, whatever the base', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: -10, max: 4000 }),
        (base, points) => {
          const choices = wagerPointChoices(base);
          expect(choices).toHaveLength(3);
          expect(choices.every((choice) => isValidWagerPoints(base, choice))).toBe(true);
          expect(choices.includes(points)).toBe(isValidWagerPoints(base, points));
        },
      ),
    );
    expect(wagerPointChoices(5)).toEqual([5, 10, 15]);
    expect(wagerPointChoices(0)).toEqual([]);
  });
});
