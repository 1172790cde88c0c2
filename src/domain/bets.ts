import { z } from './zod';
import { membershipSchema } from './groups';
import { idSchema } from './ids';

// Bets and wagers: the request and response schemas of spec 02 §7 (Bets) with the messages
// of spec 02 §5, and the per-type rules of ARCHITECTURE.md §5 (what a prediction and a
// correct answer look like for each bet type). Pure: the clock is always an argument.

export const BET_TYPES = ['yes_no', 'multiple_choice', 'numeric', 'over_under'] as const;
export type BetType = (typeof BET_TYPES)[number];

export const BET_STATES = ['draft', 'active', 'expired', 'resolved', 'cancelled'] as const;
export type BetState = (typeof BET_STATES)[number];

export const BET_LIMITS = {
  titleMax: 100,
  descriptionMax: 1000,
  labelMax: 50,
  optionsMin: 2,
  optionsMax: 10,
  optionMax: 100,
  predictionMax: 100,
  /** The $, $$, $$$ tiers of spec 02 §5. */
  baseWagerTiers: [1, 2, 3],
  /** A wager is the base amount times one of these (spec 02 §3, §5). */
  multipliers: [1, 2, 3],
  /** The bet form's default expiry, now + 24 h (spec 02 §5). */
  defaultExpiryMs: 24 * 60 * 60 * 1000,
} as const;

export const DEFAULT_YES_LABEL = 'Yes';
export const DEFAULT_NO_LABEL = 'No';

export const BET_MESSAGES = {
  titleRequired: 'Title is required',
  titleMax: 'Title must be 100 characters or less',
  descriptionMax: 'Description must be 1000 characters or less',
  expiryRequired: 'Expiry date is required',
  expiryInvalid: 'Expiry date must be a valid date',
  expiryInPast: 'Expiry date must be in the future',
  baseWagerRequired: 'Base Wager Amount is required',
  baseWagerMin: 'Base Wager Amount must be at least 1',
  baseWagerTier: 'Base Wager Amount must be 1, 2 or 3',
  betTypeRequired: 'Bet type is required',
  betTypeUnknown: 'Bet type must be yes_no, multiple_choice, numeric or over_under',
  groupRequired: 'Group is required',
  labelMax: 'Label must be 50 characters or less',
  optionsMin: 'At least 2 options are required',
  optionsMax: 'At most 10 options are allowed',
  optionMax: 'Option must be 100 characters or less',
  optionsDistinct: 'Options must be different',
  lineRequired: 'Line is required',
  lineInvalid: 'Line must be a number',
  predictionRequired: 'Prediction is required',
  predictionMax: 'Prediction must be 100 characters or less',
  pointsRequired: 'Points are required',
  pointsWhole: 'Points must be a whole number',
  pointsMin: 'Points must be at least 1',
  betRequired: 'Bet is required',
  answerRequired: 'Answer is required',
  answerMax: 'Answer must be 100 characters or less',
  // The numeric answer input's texts (spec 02 §5).
  numberRequired: 'Please enter a number',
  numberInvalid: 'Please enter a valid number',
  yesNo: 'Prediction must be yes or no',
  overUnder: 'Prediction must be over or under',
  notAnOption: 'Prediction must be one of the options',
  answerYesNo: 'Answer must be yes or no',
  answerNotAnOption: 'Answer must be one of the options',
  configInvalid: 'Invalid value',
} as const;

// ---- bet type configs (ARCHITECTURE.md §5 table) ----

const label = (fallback: string) =>
  z
    .string({ error: BET_MESSAGES.labelMax })
    .trim()
    .max(BET_LIMITS.labelMax, BET_MESSAGES.labelMax)
    .nullish()
    // A blank label shows the default (spec 02 §2, "Answer inputs").
    .transform((value) => (value ? value : fallback));

export const yesNoConfigSchema = z.object({
  yesLabel: label(DEFAULT_YES_LABEL),
  noLabel: label(DEFAULT_NO_LABEL),
});

export const multipleChoiceConfigSchema = z.object({
  options: z.preprocess(
    // Blank options are dropped before validation (spec 02 §5), and each option is trimmed.
    (value) =>
      Array.isArray(value)
        ? value
            .map((option) => (typeof option === 'string' ? option.trim() : option))
            .filter((option) => option !== '')
        : value,
    z
      .array(
        z
          .string({ error: BET_MESSAGES.configInvalid })
          .max(BET_LIMITS.optionMax, BET_MESSAGES.optionMax),
        {
          error: BET_MESSAGES.optionsMin,
        },
      )
      .min(BET_LIMITS.optionsMin, BET_MESSAGES.optionsMin)
      .max(BET_LIMITS.optionsMax, BET_MESSAGES.optionsMax)
      // A prediction is matched to an option by its text, so two options that differ only in
      // case would be indistinguishable to players.
      .refine(
        (options) => new Set(options.map((option) => option.toLowerCase())).size === options.length,
        BET_MESSAGES.optionsDistinct,
      ),
  ),
});

export const numericConfigSchema = z.object({});

export const overUnderConfigSchema = z.object({
  line: z.number({
    error: (issue) =>
      issue.input === undefined || issue.input === null
        ? BET_MESSAGES.lineRequired
        : BET_MESSAGES.lineInvalid,
  }),
});

export const betTypeConfigSchemas = {
  yes_no: yesNoConfigSchema,
  multiple_choice: multipleChoiceConfigSchema,
  numeric: numericConfigSchema,
  over_under: overUnderConfigSchema,
} as const;

export type YesNoConfig = z.output<typeof yesNoConfigSchema>;
export type MultipleChoiceConfig = z.output<typeof multipleChoiceConfigSchema>;
export type NumericConfig = z.output<typeof numericConfigSchema>;
export type OverUnderConfig = z.output<typeof overUnderConfigSchema>;

/**
 * The config as it travels in responses and is stored: spec 02 §3 calls it a free record, so
 * every key is optional and unknown keys survive; the request schema is the strict one.
 */
export const betTypeConfigSchema = z.looseObject({
  yesLabel: z.string().optional(),
  noLabel: z.string().optional(),
  options: z.array(z.string()).optional(),
  line: z.number().optional(),
});
export type BetTypeConfig = z.output<typeof betTypeConfigSchema>;

// ---- POST /bets ----

const title = z
  .string({ error: BET_MESSAGES.titleRequired })
  .trim()
  .min(1, { error: BET_MESSAGES.titleRequired, abort: true })
  .max(BET_LIMITS.titleMax, BET_MESSAGES.titleMax);

const description = z
  .string({ error: BET_MESSAGES.descriptionMax })
  .trim()
  .max(BET_LIMITS.descriptionMax, BET_MESSAGES.descriptionMax)
  .nullish()
  .transform((value) => (value ? value : undefined));

/**
 * An ISO 8601 date-time with a zone (Z or an offset), normalised to UTC `toISOString()` form.
 * Whether it lies in the future needs the clock: see `isExpiryInFuture`.
 */
export const expiresAtSchema = z
  .string({ error: BET_MESSAGES.expiryRequired })
  .trim()
  .min(1, { error: BET_MESSAGES.expiryRequired, abort: true })
  .refine((value) => Number.isFinite(Date.parse(value)), {
    message: BET_MESSAGES.expiryInvalid,
    abort: true,
  })
  .pipe(z.iso.datetime({ offset: true, error: BET_MESSAGES.expiryInvalid }))
  .transform((value) => new Date(value).toISOString());

export const baseWagerAmountSchema = z
  .number({ error: BET_MESSAGES.baseWagerRequired })
  .min(1, { error: BET_MESSAGES.baseWagerMin, abort: true })
  .refine(
    (value) => (BET_LIMITS.baseWagerTiers as readonly number[]).includes(value),
    BET_MESSAGES.baseWagerTier,
  );

export const betTypeSchema = z.enum(BET_TYPES, {
  error: (issue) =>
    issue.input === undefined || issue.input === null || issue.input === ''
      ? BET_MESSAGES.betTypeRequired
      : BET_MESSAGES.betTypeUnknown,
});

export const betStateSchema = z.enum(BET_STATES);

const betRequestFields = {
  title,
  description,
  expiresAt: expiresAtSchema,
  baseWagerAmount: baseWagerAmountSchema,
  betType: betTypeSchema,
  betTypeConfig: z.unknown().optional(),
  groupId: idSchema(BET_MESSAGES.groupRequired),
};

type CreateBetCommon = {
  title: string;
  description?: string | undefined;
  expiresAt: string;
  baseWagerAmount: number;
  groupId: number;
};
/** A validated bet request: the config is the one of its type, with defaults applied. */
export type CreateBetInput = CreateBetCommon &
  (
    | { betType: 'yes_no'; betTypeConfig: YesNoConfig }
    | { betType: 'multiple_choice'; betTypeConfig: MultipleChoiceConfig }
    | { betType: 'numeric'; betTypeConfig: NumericConfig }
    | { betType: 'over_under'; betTypeConfig: OverUnderConfig }
  );

/**
 * POST /bets. The config is checked against the schema of the bet's type; its issues carry
 * paths under `betTypeConfig` (e.g. `betTypeConfig.options`). Missing config means the
 * type's defaults (yes_no: Yes/No). The future check needs the clock: the server applies
 * `isExpiryInFuture(expiresAt, now)`, or parses with `createBetRequestSchemaAt(now)`.
 */
export const createBetRequestSchema = z
  .strictObject(betRequestFields)
  .transform((value, ctx): CreateBetInput => {
    const config = betTypeConfigSchemas[value.betType].safeParse(value.betTypeConfig ?? {});
    if (!config.success) {
      for (const issue of config.error.issues) {
        ctx.addIssue({
          code: 'custom',
          message: issue.message,
          path: ['betTypeConfig', ...issue.path],
        });
      }
      return z.NEVER;
    }
    return { ...value, betTypeConfig: config.data } as CreateBetInput;
  });
export type CreateBetRequest = z.input<typeof createBetRequestSchema>;

/** Whether an expiry lies after `now` (ms since the epoch); spec 02 §5 wants a future expiry. */
export function isExpiryInFuture(expiresAt: string, now: number): boolean {
  const time = Date.parse(expiresAt);
  return Number.isFinite(time) && time > now;
}

/** The create-bet schema with the future check against a given clock (for the server and the form). */
export function createBetRequestSchemaAt(now: number) {
  return createBetRequestSchema.refine((value) => isExpiryInFuture(value.expiresAt, now), {
    message: BET_MESSAGES.expiryInPast,
    path: ['expiresAt'],
  });
}

/** The form's default expiry (spec 02 §5: now + 24 h), as an ISO string. */
export function defaultExpiresAt(now: number): string {
  return new Date(now + BET_LIMITS.defaultExpiryMs).toISOString();
}

// ---- wagers and resolution ----

const prediction = z
  .string({ error: BET_MESSAGES.predictionRequired })
  .trim()
  .min(1, { error: BET_MESSAGES.predictionRequired, abort: true })
  .max(BET_LIMITS.predictionMax, BET_MESSAGES.predictionMax);

const points = z
  .number({ error: BET_MESSAGES.pointsRequired })
  .int(BET_MESSAGES.pointsWhole)
  .min(1, BET_MESSAGES.pointsMin);

/** POST /bets/wagers. Whether the prediction fits the bet and the points fit the base needs the bet: `validatePrediction`, `isValidWagerPoints`. */
export const placeWagerRequestSchema = z.strictObject({
  betId: idSchema(BET_MESSAGES.betRequired),
  prediction,
  points,
});
export type PlaceWagerRequest = z.input<typeof placeWagerRequestSchema>;

/** PUT /bets/wagers/{wagerId}. */
export const updateWagerRequestSchema = z.strictObject({ prediction, points });
export type UpdateWagerRequest = z.input<typeof updateWagerRequestSchema>;

/** PUT /bets/{id}/resolve: a non-empty answer (spec 02 §5); its fit to the bet is `validateCorrectAnswer`. */
export const resolveRequestSchema = z.strictObject({
  correctAnswer: z
    .string({ error: BET_MESSAGES.answerRequired })
    .trim()
    .min(1, { error: BET_MESSAGES.answerRequired, abort: true })
    .max(BET_LIMITS.predictionMax, BET_MESSAGES.answerMax),
});
export type ResolveRequest = z.input<typeof resolveRequestSchema>;

/** GET /bets/user/wagers?group= */
export const userWagersQuerySchema = z.object({
  group: idSchema(BET_MESSAGES.groupRequired).optional(),
});

/** Route params `{id}` of the bet calls. */
export const betIdParamsSchema = z.object({ id: idSchema(BET_MESSAGES.betRequired) });
export const wagerIdParamsSchema = z.object({ wagerId: idSchema('Wager is required') });

// ---- what a prediction and an answer may be, per type (ARCHITECTURE.md §5) ----

/** A plain decimal (no exponent, no hex): the only numeric form, so numeric answers compare exactly. */
export const DECIMAL_PATTERN = /^-?(\d{1,15})(\.\d{1,15})?$/;

/** Whether a string is a number a numeric bet accepts ("12", "-3.5"). */
export function isDecimalString(value: string): boolean {
  return DECIMAL_PATTERN.test(value) && Number.isFinite(Number(value));
}

/** The canonical spelling of a decimal ("007.50" → "7.5", "-0" → "0"), so equal numbers share one answer key. */
export function canonicalDecimal(value: string): string {
  const match = DECIMAL_PATTERN.exec(value.trim());
  if (!match) return value.trim();
  const negative = value.trim().startsWith('-');
  const whole = (match[1] ?? '0').replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '').replace(/^\.$/, '');
  const text = `${whole}${fraction}`;
  return negative && /[1-9]/.test(text) ? `-${text}` : text;
}

/** The bet fields the per-type rules need. */
export type BetRules = {
  betType: BetType | string;
  betTypeConfig: BetTypeConfig | Record<string, unknown>;
};

function optionsOf(bet: BetRules): string[] {
  const options = (bet.betTypeConfig as BetTypeConfig).options;
  return Array.isArray(options)
    ? options.filter((option): option is string => typeof option === 'string')
    : [];
}

/** The answers a wager can pick, in display order (empty for numeric, whose answers are any number). */
export function answerChoices(bet: BetRules): string[] {
  switch (bet.betType) {
    case 'yes_no':
      return ['yes', 'no'];
    case 'multiple_choice':
      return optionsOf(bet);
    case 'over_under':
      return ['over', 'under'];
    default:
      return [];
  }
}

/** The label players see for an answer: yes/no use the bet's labels (spec 02 §2), others show as stored. */
export function answerLabel(bet: BetRules, answer: string): string {
  const config = bet.betTypeConfig as BetTypeConfig;
  if (bet.betType === 'yes_no' && answer === 'yes') return config.yesLabel || DEFAULT_YES_LABEL;
  if (bet.betType === 'yes_no' && answer === 'no') return config.noLabel || DEFAULT_NO_LABEL;
  if (bet.betType === 'over_under')
    return answer === 'over' ? 'Over' : answer === 'under' ? 'Under' : answer;
  return answer;
}

/** Why a prediction does not fit the bet, or null when it does (ARCHITECTURE.md §5, "a prediction"). */
export function validatePrediction(bet: BetRules, value: string): string | null {
  const text = value.trim();
  switch (bet.betType) {
    case 'yes_no':
      if (text === '') return BET_MESSAGES.predictionRequired;
      return text === 'yes' || text === 'no' ? null : BET_MESSAGES.yesNo;
    case 'multiple_choice':
      if (text === '') return BET_MESSAGES.predictionRequired;
      return optionsOf(bet).includes(text) ? null : BET_MESSAGES.notAnOption;
    case 'numeric':
      if (text === '') return BET_MESSAGES.numberRequired;
      return isDecimalString(text) ? null : BET_MESSAGES.numberInvalid;
    case 'over_under':
      if (text === '') return BET_MESSAGES.predictionRequired;
      return text === 'over' || text === 'under' ? null : BET_MESSAGES.overUnder;
    default:
      return `Unsupported bet type ${bet.betType}`;
  }
}

/** Why a correct answer does not fit the bet, or null; an over/under bet is resolved with the actual number. */
export function validateCorrectAnswer(bet: BetRules, value: string): string | null {
  const text = value.trim();
  if (text === '') return BET_MESSAGES.answerRequired;
  switch (bet.betType) {
    case 'yes_no':
      return text === 'yes' || text === 'no' ? null : BET_MESSAGES.answerYesNo;
    case 'multiple_choice':
      return optionsOf(bet).includes(text) ? null : BET_MESSAGES.answerNotAnOption;
    case 'numeric':
    case 'over_under':
      return isDecimalString(text) ? null : BET_MESSAGES.numberInvalid;
    default:
      return `Unsupported bet type ${bet.betType}`;
  }
}

/** The stored form of a valid prediction or answer: trimmed, numbers canonical (so "7.50" and "7.5" are one answer). */
export function normalizeAnswer(bet: BetRules, value: string): string {
  const text = value.trim();
  if (bet.betType === 'numeric' || (bet.betType === 'over_under' && isDecimalString(text)))
    return canonicalDecimal(text);
  return text;
}

/** The multiplier (1, 2 or 3) a wager of `points` makes on a bet of base `base`, or null when it makes none. */
export function wagerMultiplier(base: number, points: number): 1 | 2 | 3 | null {
  if (!Number.isInteger(base) || base < 1 || !Number.isInteger(points)) return null;
  const multiplier = points / base;
  return multiplier === 1 || multiplier === 2 || multiplier === 3 ? multiplier : null;
}

/** A wager's points must be the base amount times 1, 2 or 3 (spec 02 §3, §5). */
export function isValidWagerPoints(base: number, points: number): boolean {
  return wagerMultiplier(base, points) !== null;
}

export const WAGER_POINTS_MESSAGE = 'Points must be 1, 2 or 3 times the base wager amount';

// ---- responses (spec 02 §3) ----

/**
 * Points per answer, keyed by players' text. Checked but passed through as it is: z.record
 * copies into a plain object, where an answer named "__proto__" would vanish.
 */
export const answerTotalsSchema = z.custom<Record<string, number>>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((points) => Number.isInteger(points)),
  'Invalid answer totals',
);

const isoDateTime = z.string();

/**
 * A bet as every response and realtime event carries it, and as the client stores it.
 * `answerTotals` (our addition, ARCHITECTURE.md §5 "Odds") is the points wagered on each
 * answer, keyed by the normalised answer; members see it, individual predictions stay hidden.
 */
export const betSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  betType: betTypeSchema,
  state: betStateSchema,
  betTypeConfig: betTypeConfigSchema,
  baseWagerAmount: z.number().int(),
  groupId: z.number().int(),
  createdBy: z.number().int(),
  expiresAt: isoDateTime,
  correctAnswer: z.string().nullable(),
  resolvedAt: isoDateTime.nullable(),
  resolvedBy: z.number().int().nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
  answerTotals: answerTotalsSchema.optional(),
  wagerCount: z.number().int().optional(),
});
export type Bet = z.infer<typeof betSchema>;

/** What a new bet is made of; the rest follows from its being new (`openBet`). */
export type BetBasics = Pick<
  Bet,
  | 'id'
  | 'title'
  | 'description'
  | 'betType'
  | 'betTypeConfig'
  | 'baseWagerAmount'
  | 'groupId'
  | 'createdBy'
  | 'expiresAt'
>;

/** A bet just created at `now` (ISO): active, unresolved, nobody has wagered yet. */
export function openBet(basics: BetBasics, now: string): Bet {
  return {
    ...basics,
    state: 'active',
    correctAnswer: null,
    resolvedAt: null,
    resolvedBy: null,
    createdAt: now,
    updatedAt: now,
    answerTotals: {},
    wagerCount: 0,
  };
}

export const wagerSchema = z.object({
  id: z.number().int(),
  betId: z.number().int(),
  userId: z.number().int(),
  prediction: z.string(),
  points: z.number().int(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type Wager = z.infer<typeof wagerSchema>;

/** GET /bets/{id}/user-context: the bet, the viewer's membership (for availablePoints) and their wager. */
export const betUserContextSchema = z.object({
  bet: betSchema,
  membership: membershipSchema.nullable(),
  userWager: wagerSchema.nullable().optional(),
});
export type BetUserContext = z.infer<typeof betUserContextSchema>;

/** GET /bets/{id}/statistics, the fields of spec 02 §3; percentages are 0–100. */
export const betStatisticsSchema = z.object({
  isResolved: z.boolean(),
  correctAnswer: z.string().nullable(),
  totalParticipants: z.number().int(),
  totalMembers: z.number().int(),
  participationRate: z.number(),
  totalPoints: z.number().int(),
  averagePoints: z.number(),
  userWager: z.object({ prediction: z.string(), points: z.number().int() }).nullable(),
  winnerLoserBreakdown: z.object({
    totalWinners: z.number().int(),
    winnerPercentage: z.number(),
    winnersPoints: z.number().int(),
    totalLosers: z.number().int(),
    loserPercentage: z.number(),
    losersPoints: z.number().int(),
  }),
  answerDistribution: z.array(
    z.object({
      answer: z.string(),
      participantCount: z.number().int(),
      percentage: z.number(),
      totalPoints: z.number().int(),
    }),
  ),
});
export type BetStatistics = z.infer<typeof betStatisticsSchema>;

/** GET /groups/{id}/bets: "bets with statistics" (spec 02 §7). */
export const groupBetsResponseSchema = z.array(
  betSchema.extend({ statistics: betStatisticsSchema }),
);
