import { BET_MESSAGES, DEFAULT_NO_LABEL, DEFAULT_YES_LABEL } from './bet-limits';
import {
  atScale,
  canonicalDecimal,
  compareDecimals,
  decimalOfNumber,
  isDecimalString,
  parseDecimal,
} from './decimal';
import { SCORE_TIP_MESSAGES, formatScore, parseScore, tipHit } from './score-tips';

// The bet-type table of docs/architecture.md §5: one entry per type with its config, what
// a prediction and a correct answer may be, how answers are stored and labelled, and who
// wins. Everything that differs between types is here, so the server, the odds, the
// statistics and the screens read an entry instead of switching on `betType`; adding a type
// is adding an entry (TypeScript asks for one per BET_TYPES name), its config's schema in
// schemas/bet-types.ts and its tests.

export const BET_TYPES = [
  'yes_no',
  'multiple_choice',
  'numeric',
  'over_under',
  'score_tip',
] as const;
export type BetType = (typeof BET_TYPES)[number];

/** The types POST /bets and the bet form make; a score tip is made only by a tipping round. */
export const CREATABLE_BET_TYPES = ['yes_no', 'multiple_choice', 'numeric', 'over_under'] as const;
export type CreatableBetType = (typeof CREATABLE_BET_TYPES)[number];

/** Whether a bet of this type can be made again by hand ("Same as last time"): not a round's score tip. */
export function isCreatableBetType(type: string): type is CreatableBetType {
  return (CREATABLE_BET_TYPES as readonly string[]).includes(type);
}

/** A stored config: docs/groups-and-bets.md §3 calls it a free record, so the rules read it defensively. */
type StoredConfig = Readonly<Record<string, unknown>>;

/** The bet fields the per-type rules need; a stored bet may name a type this build does not know. */
export type BetRules = {
  betType: BetType | string;
  betTypeConfig: StoredConfig;
};

/** The wager fields the winner rules read. */
type RuledWager = { id: number; prediction: string };

export type Winners = {
  /** An over/under bet whose actual number equals its line: everyone is refunded. */
  isPush: boolean;
  winningWagerIds: Set<number>;
};

/** What a prediction or a correct answer may be, and how the screens ask for it. */
type AnswerRule = {
  /** A button per choice (`answerChoices`), a number field, or a score (home goals - away goals). */
  input: 'choices' | 'number' | 'score';
  /** Why a trimmed, non-empty text does not fit, or null; `choices` are the bet's. */
  check: (text: string, choices: readonly string[]) => string | null;
  /** The input's label when it asks for something other than the answer itself. */
  label?: string;
};

/** The config each type's bet carries once its request is validated (defaults applied). */
export type BetTypeConfigs = {
  yes_no: { yesLabel: string; noLabel: string };
  multiple_choice: { options: string[] };
  numeric: Record<string, never>;
  over_under: { line: number };
  score_tip: { home: string; away: string };
};

export type BetTypeRules = {
  /**
   * A valid config as the server stores it (its own keys only, labels and options trimmed, a
   * blank label its default, blank options dropped): what a new bet shows before the server
   * has answered. Whether it is valid is its schema's to say (schemas/bet-types.ts).
   */
  withDefaults: (config: StoredConfig) => StoredConfig;
  /** The type's name in the bet form's type picker (docs/groups-and-bets.md §2, the "Type" step). */
  name: string;
  /** The answers a wager can pick, in display order; empty when any number goes. */
  choices: (config: StoredConfig) => string[];
  /** The label players see for an answer (docs/groups-and-bets.md §2 "Answer inputs"). */
  answerLabel: (config: StoredConfig, answer: string) => string;
  /** Shown after each choice's label while wagering (over/under: its line). */
  choiceDetail?: (config: StoredConfig) => string | undefined;
  prediction: AnswerRule;
  correctAnswer: AnswerRule;
  /** The stored form of a valid, trimmed prediction or answer: numbers canonical. */
  normalize: (text: string) => string;
  /**
   * Whether a wager stakes points (base × 1, 2 or 3). A score tip stakes none: a tipping round
   * is scored by its table (score-tips.ts), not by a pool (docs/rules.md "Tipping rounds").
   */
  stakesPoints: boolean;
  /** Which wagers win against a valid correct answer; throws when the answer does not fit. */
  findWinners: (config: StoredConfig, wagers: readonly RuledWager[], answer: string) => Winners;
};

// ---- the pieces the entries share ----

/** A label as stored: trimmed, and the default when blank (docs/groups-and-bets.md §2, "Answer inputs"). */
const labelOrDefault = (value: unknown, fallback: string) =>
  (typeof value === 'string' ? value.trim() : '') || fallback;

const oneOfTheChoices = (notAChoice: string): AnswerRule => ({
  input: 'choices',
  check: (text, choices) => (choices.includes(text) ? null : notAChoice),
});

const aNumber: AnswerRule = {
  input: 'number',
  check: (text) => (isDecimalString(text) ? null : BET_MESSAGES.numberInvalid),
};

function optionsOf(config: StoredConfig): string[] {
  const options = config.options;
  return Array.isArray(options)
    ? options.filter((option): option is string => typeof option === 'string')
    : [];
}

/** The wagers whose prediction is the answer (yes/no, multiple choice). */
function equalToAnswer(wagers: readonly RuledWager[], answer: string): Winners {
  return {
    isPush: false,
    winningWagerIds: new Set(
      wagers.filter((wager) => wager.prediction.trim() === answer).map((wager) => wager.id),
    ),
  };
}

/** The wagers closest to the actual number, by exact decimal distance; ties all win. */
function closestToAnswer(wagers: readonly RuledWager[], answer: string): Winners {
  const actual = parseDecimal(answer);
  if (!actual)
    throw new Error(`A numeric bet is resolved with a number, not ${JSON.stringify(answer)}`);
  const parsed = wagers.flatMap((wager) => {
    const value = parseDecimal(wager.prediction);
    return value ? [{ id: wager.id, value }] : [];
  });
  if (parsed.length === 0) return { isPush: false, winningWagerIds: new Set() };
  const scale = Math.max(actual.scale, ...parsed.map((entry) => entry.value.scale));
  const target = atScale(actual, scale);
  const distances = parsed.map((entry) => {
    const difference = atScale(entry.value, scale) - target;
    return { id: entry.id, distance: difference < 0n ? -difference : difference };
  });
  const closest = distances.reduce(
    (best, entry) => (entry.distance < best ? entry.distance : best),
    distances[0]!.distance,
  );
  return {
    isPush: false,
    winningWagerIds: new Set(
      distances.filter((entry) => entry.distance === closest).map((entry) => entry.id),
    ),
  };
}

/** Over if actual > line, under if actual < line, a push when equal, all compared exactly. */
function sideOfLine(config: StoredConfig, wagers: readonly RuledWager[], answer: string): Winners {
  const line = config.line;
  const actual = parseDecimal(answer);
  if (typeof line !== 'number' || !Number.isFinite(line))
    throw new Error('An over/under bet needs a numeric line');
  if (!actual)
    throw new Error(
      `An over/under bet is resolved with the actual number, not ${JSON.stringify(answer)}`,
    );
  // Exactly, in decimal: as floats, 123456789012345.13 against a line of …45.12 was a push.
  const comparison = compareDecimals(actual, decimalOfNumber(line));
  if (comparison === 0) return { isPush: true, winningWagerIds: new Set() };
  return equalToAnswer(wagers, comparison > 0 ? 'over' : 'under');
}

// ---- the table ----

const yesNo = {
  withDefaults: (config) => ({
    yesLabel: labelOrDefault(config.yesLabel, DEFAULT_YES_LABEL),
    noLabel: labelOrDefault(config.noLabel, DEFAULT_NO_LABEL),
  }),
  name: 'Yes / No',
  choices: () => ['yes', 'no'],
  // The bet's own labels (docs/groups-and-bets.md §2); a blank one shows the default.
  answerLabel: (config, answer) =>
    answer === 'yes'
      ? (config.yesLabel as string | undefined) || DEFAULT_YES_LABEL
      : answer === 'no'
        ? (config.noLabel as string | undefined) || DEFAULT_NO_LABEL
        : answer,
  prediction: oneOfTheChoices(BET_MESSAGES.yesNo),
  correctAnswer: oneOfTheChoices(BET_MESSAGES.answerYesNo),
  normalize: (text) => text,
  stakesPoints: true,
  findWinners: (_config, wagers, answer) => equalToAnswer(wagers, answer),
} satisfies BetTypeRules;

const multipleChoice = {
  // Blank options are dropped (docs/groups-and-bets.md §5), and each option is trimmed.
  withDefaults: (config) => ({
    options: optionsOf(config)
      .map((option) => option.trim())
      .filter((option) => option !== ''),
  }),
  name: 'Multiple choice',
  choices: optionsOf,
  answerLabel: (_config, answer) => answer,
  prediction: oneOfTheChoices(BET_MESSAGES.notAnOption),
  correctAnswer: oneOfTheChoices(BET_MESSAGES.answerNotAnOption),
  normalize: (text) => text,
  stakesPoints: true,
  findWinners: (_config, wagers, answer) => equalToAnswer(wagers, answer),
} satisfies BetTypeRules;

const numeric = {
  withDefaults: () => ({}),
  name: 'Number',
  // Any number is an answer: there is nothing to pick from.
  choices: () => [],
  answerLabel: (_config, answer) => answer,
  prediction: aNumber,
  correctAnswer: aNumber,
  // "7.50" and "7.5" are one answer.
  normalize: canonicalDecimal,
  stakesPoints: true,
  findWinners: (_config, wagers, answer) => closestToAnswer(wagers, answer),
} satisfies BetTypeRules;

const overUnder = {
  withDefaults: (config) => ({ line: config.line }),
  name: 'Over / under',
  choices: () => ['over', 'under'],
  answerLabel: (_config, answer) =>
    answer === 'over' ? 'Over' : answer === 'under' ? 'Under' : answer,
  choiceDetail: (config) => (typeof config.line === 'number' ? String(config.line) : undefined),
  prediction: oneOfTheChoices(BET_MESSAGES.overUnder),
  // Resolved with the actual number, not with over or under (docs/architecture.md §5).
  correctAnswer: { ...aNumber, label: 'The actual number' },
  // Predictions are over or under; the correct answer is a number, stored canonical.
  normalize: (text) => (isDecimalString(text) ? canonicalDecimal(text) : text),
  stakesPoints: true,
  findWinners: sideOfLine,
} satisfies BetTypeRules;

const aScore: AnswerRule = {
  input: 'score',
  check: (text) => (parseScore(text) ? null : SCORE_TIP_MESSAGES.invalid),
};

const scoreTip = {
  withDefaults: (config) => ({
    home: typeof config.home === 'string' ? config.home.trim() : '',
    away: typeof config.away === 'string' ? config.away.trim() : '',
  }),
  name: 'Score tip',
  // Any score is an answer: there is nothing to pick from.
  choices: () => [],
  answerLabel: (_config, answer) => answer,
  prediction: aScore,
  correctAnswer: { ...aScore, label: 'Final score' },
  // "2:1" and "02-1" are one tip, "2-1".
  normalize: (text) => {
    const score = parseScore(text);
    return score ? formatScore(score) : text;
  },
  stakesPoints: false,
  // The exact tips are its "winners" (the statistics' Correct badge); with nothing staked no
  // points move (payout.ts), and the round's table scores every tip (score-tips.ts).
  findWinners: (_config, wagers, answer) => {
    const result = parseScore(answer);
    if (!result)
      throw new Error(`A score tip is resolved with a score, not ${JSON.stringify(answer)}`);
    return {
      isPush: false,
      winningWagerIds: new Set(
        wagers
          .filter((wager) => {
            const tip = parseScore(wager.prediction);
            return tip !== null && tipHit(tip, result) === 'exact';
          })
          .map((wager) => wager.id),
      ),
    };
  },
} satisfies BetTypeRules;

/** One entry per bet type; TypeScript refuses a BET_TYPES name without one. */
export const BET_TYPE_RULES = {
  yes_no: yesNo,
  multiple_choice: multipleChoice,
  numeric,
  over_under: overUnder,
  score_tip: scoreTip,
} as const satisfies Record<BetType, BetTypeRules>;

/** The config a bet of type `T` carries once its request is validated (defaults applied). */
export type BetTypeConfigOf<T extends BetType> = BetTypeConfigs[T];

/** A bet type's entry, or undefined for a name this build does not know ("toString" included). */
export function betTypeRulesOf(betType: string): BetTypeRules | undefined {
  return Object.hasOwn(BET_TYPE_RULES, betType) ? BET_TYPE_RULES[betType as BetType] : undefined;
}

/**
 * Whether the pool game's screens list the bet (its group's bets, the queues): a tipping
 * round's match, a score tip, belongs to its round (src/server/rounds) and stakes nothing.
 */
export function isPoolBet(bet: Pick<BetRules, 'betType'>): boolean {
  return betTypeRulesOf(bet.betType)?.stakesPoints !== false;
}

const unsupported = (betType: string) => `Unsupported bet type ${betType}`;

// ---- the rules, looked up by the bet's type ----

/** The answers a wager can pick, in display order (empty for numeric, whose answers are any number). */
export function answerChoices(bet: BetRules): string[] {
  return betTypeRulesOf(bet.betType)?.choices(bet.betTypeConfig) ?? [];
}

/** The label players see for an answer: yes/no use the bet's labels (docs/groups-and-bets.md §2), others show as stored. */
export function answerLabel(bet: BetRules, answer: string): string {
  return betTypeRulesOf(bet.betType)?.answerLabel(bet.betTypeConfig, answer) ?? answer;
}

/** Why a prediction does not fit the bet, or null when it does (docs/architecture.md §5, "a prediction"). */
export function validatePrediction(bet: BetRules, value: string): string | null {
  const rules = betTypeRulesOf(bet.betType);
  if (!rules) return unsupported(bet.betType);
  const text = value.trim();
  if (text === '')
    return rules.prediction.input === 'number'
      ? BET_MESSAGES.numberRequired
      : BET_MESSAGES.predictionRequired;
  return rules.prediction.check(text, rules.choices(bet.betTypeConfig));
}

/** Why a correct answer does not fit the bet, or null; an over/under bet is resolved with the actual number. */
export function validateCorrectAnswer(bet: BetRules, value: string): string | null {
  const text = value.trim();
  if (text === '') return BET_MESSAGES.answerRequired;
  const rules = betTypeRulesOf(bet.betType);
  if (!rules) return unsupported(bet.betType);
  return rules.correctAnswer.check(text, rules.choices(bet.betTypeConfig));
}

/** The stored form of a valid prediction or answer: trimmed, numbers canonical (so "7.50" and "7.5" are one answer). */
export function normalizeAnswer(bet: BetRules, value: string): string {
  const text = value.trim();
  return betTypeRulesOf(bet.betType)?.normalize(text) ?? text;
}

/**
 * Which wagers win against a correct answer (docs/architecture.md §5 "who wins"): yes_no and
 * multiple_choice by equality; numeric the smallest absolute difference, exactly in decimal
 * (ties all win); over_under over if actual > line, under if actual < line, a push when
 * equal. Throws when the answer does not fit the bet: check it with `validateCorrectAnswer`.
 */
export function findWinners(
  bet: BetRules,
  wagers: readonly RuledWager[],
  correctAnswer: string,
): Winners {
  const rules = betTypeRulesOf(bet.betType);
  if (!rules) throw new Error(unsupported(bet.betType));
  return rules.findWinners(bet.betTypeConfig, wagers, correctAnswer.trim());
}
