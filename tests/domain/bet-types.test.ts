import { describe, expect, it } from 'vitest';
import {
  answerChoices,
  answerLabel,
  BET_TYPE_RULES,
  BET_TYPES,
  betTypeRulesOf,
  findWinners,
  normalizeAnswer,
  validateCorrectAnswer,
  validatePrediction,
  type BetType,
} from '../../src/domain/bet-types';
import { BET_TYPE_CONFIG_SCHEMAS } from '../../src/domain/schemas/bet-types';
import { createBetRequestSchema } from '../../src/domain/schemas/bets';

// The bet-type table walked entry by entry: whatever a type allows, its own pieces agree with
// each other. A new type needs an entry here too (TypeScript asks for it).

const SAMPLE_CONFIGS: Record<BetType, Record<string, unknown>> = {
  yes_no: { yesLabel: 'Rain', noLabel: 'Sun' },
  multiple_choice: { options: ['Red', 'Green', 'Blue'] },
  numeric: {},
  over_under: { line: 2.5 },
  score_tip: { home: 'Bayern', away: 'Dortmund' },
};

/** A bet of each type, its config as the create schema stores it. */
const betsByType = BET_TYPES.map((betType) => {
  const parsed = BET_TYPE_CONFIG_SCHEMAS[betType].parse(SAMPLE_CONFIGS[betType]);
  return { betType, betTypeConfig: parsed as Record<string, unknown> };
});

describe('the bet-type table', () => {
  it('has one entry for every bet type and nothing else', () => {
    expect(Object.keys(BET_TYPE_RULES).sort()).toEqual([...BET_TYPES].sort());
  });

  it('gives each type a distinct name for the type picker', () => {
    const names = BET_TYPES.map((type) => BET_TYPE_RULES[type].name);
    expect(names.every((name) => name.trim() !== '')).toBe(true);
    expect(new Set(names).size).toBe(names.length);
  });

  it('knows no type by an Object.prototype name', () => {
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'nope'])
      expect(betTypeRulesOf(name)).toBeUndefined();
  });

  // Valid configs as a form may send them: blanks, padding, keys of no type.
  const SENT_CONFIGS: Array<[BetType, Record<string, unknown>]> = [
    ['yes_no', {}],
    ['yes_no', { yesLabel: '  Rain ', noLabel: '', line: 4 }],
    ['yes_no', { yesLabel: null, noLabel: 'Sun' }],
    ['multiple_choice', { options: [' Red ', '', 'Green', '  '] }],
    ['numeric', { options: ['a'] }],
    ['over_under', { line: 2.5, yesLabel: 'x' }],
  ];
  it.each(SENT_CONFIGS)('%s: withDefaults stores %j as the create schema does', (type, sent) => {
    expect(BET_TYPE_RULES[type].withDefaults(sent)).toEqual(
      BET_TYPE_CONFIG_SCHEMAS[type].parse(sent),
    );
  });

  const creatable = betsByType.filter((bet) => bet.betType !== 'score_tip');
  it.each(creatable)('$betType: the create schema accepts its sample config', (bet) => {
    const result = createBetRequestSchema.safeParse({
      title: 'A bet',
      expiresAt: '2030-06-01T12:00:00.000Z',
      baseWagerAmount: 1,
      betType: bet.betType,
      betTypeConfig: SAMPLE_CONFIGS[bet.betType],
      groupId: 1,
    });
    expect(result.success).toBe(true);
    expect(result.data?.betTypeConfig).toEqual(bet.betTypeConfig);
  });

  it('refuses a score tip on POST /bets: only a tipping round makes one', () => {
    const result = createBetRequestSchema.safeParse({
      title: 'A bet',
      expiresAt: '2030-06-01T12:00:00.000Z',
      baseWagerAmount: 1,
      betType: 'score_tip',
      betTypeConfig: SAMPLE_CONFIGS.score_tip,
      groupId: 1,
    });
    expect(result.success).toBe(false);
  });

  it.each(betsByType)('$betType: every choice is a valid prediction, stored as it is', (bet) => {
    const choices = answerChoices(bet);
    expect(new Set(choices).size).toBe(choices.length);
    for (const choice of choices) {
      expect(validatePrediction(bet, choice)).toBeNull();
      expect(validatePrediction(bet, ` ${choice} `)).toBeNull();
      expect(normalizeAnswer(bet, choice)).toBe(choice);
      expect(answerLabel(bet, choice).trim()).not.toBe('');
    }
  });

  it.each(betsByType)('$betType: its inputs accept what they ask for', (bet) => {
    const rules = BET_TYPE_RULES[bet.betType];
    const choices = answerChoices(bet);
    const sample = { choices: '', number: '-7.50', score: '2-1' } as const;
    if (rules.prediction.input === 'choices') expect(choices.length).toBeGreaterThan(1);
    else expect(validatePrediction(bet, sample[rules.prediction.input])).toBeNull();
    if (rules.correctAnswer.input === 'choices')
      for (const choice of choices) expect(validateCorrectAnswer(bet, choice)).toBeNull();
    else expect(validateCorrectAnswer(bet, sample[rules.correctAnswer.input])).toBeNull();
    expect(validatePrediction(bet, 'certainly not an answer')).not.toBeNull();
    expect(validateCorrectAnswer(bet, 'certainly not an answer')).not.toBeNull();
    expect(validatePrediction(bet, '  ')).not.toBeNull();
    expect(validateCorrectAnswer(bet, '  ')).not.toBeNull();
  });

  it.each(betsByType)(
    '$betType: a valid correct answer names winners among valid predictions',
    (bet) => {
      const rules = BET_TYPE_RULES[bet.betType];
      const predictions = {
        choices: answerChoices(bet),
        number: ['1', '2.5', '40'],
        score: ['1-0', '2-2', '3-1'],
      }[rules.prediction.input];
      const wagers = predictions.map((prediction, index) => ({ id: index + 1, prediction }));
      const answers = {
        choices: answerChoices(bet),
        number: ['3', '2.5'],
        score: ['2-2', '1-0'],
      }[rules.correctAnswer.input];
      for (const answer of answers) {
        expect(validateCorrectAnswer(bet, answer)).toBeNull();
        const { isPush, winningWagerIds } = findWinners(bet, wagers, answer);
        // Someone wins, unless the answer is an over/under push (everyone refunded).
        expect(isPush || winningWagerIds.size > 0).toBe(true);
        if (isPush) expect(winningWagerIds.size).toBe(0);
        for (const id of winningWagerIds) expect(id).toBeLessThanOrEqual(wagers.length);
        // Answering with a choice makes exactly the wagers on it win.
        if (rules.correctAnswer.input === 'choices')
          expect([...winningWagerIds]).toEqual([predictions.indexOf(answer) + 1]);
      }
    },
  );

  it('refuses any answer for a type it does not know, by name', () => {
    const bet = { betType: 'darts', betTypeConfig: {} };
    expect(answerChoices(bet)).toEqual([]);
    expect(answerLabel(bet, 'x')).toBe('x');
    expect(validatePrediction(bet, 'x')).toBe('Unsupported bet type darts');
    expect(validateCorrectAnswer(bet, 'x')).toBe('Unsupported bet type darts');
    expect(() => findWinners(bet, [], 'x')).toThrow('Unsupported bet type darts');
  });
});
