import { z } from './zod';
import { BET_LIMITS, BET_MESSAGES } from '../bet-limits';
import { BET_TYPES, CREATABLE_BET_TYPES } from '../bet-types';
import { BET_STATES, expiryRefusal, type CreateBetInput } from '../bets';
import { BET_TYPE_CONFIG_SCHEMAS } from './bet-types';
import { betDisputeSchema, revealedPickSchema } from './fair-resolution';
import { membershipSchema } from './groups';
import { ANY_STAKE_TIER } from '../stakes';
import { repeatUntilRefusal, REPEAT_MESSAGES, REPEAT_PERIODS } from '../bet-repeats';
import { isKnownTimeZone } from '../time-zones';
import { idSchema } from './ids';

// Bets and wagers on the wire: the request and response schemas with the messages users see
// (types and rules: bets.ts).

// ---- the stored config (each type's request schema: BET_TYPE_CONFIG_SCHEMAS) ----

/**
 * The config as it travels in responses and is stored: docs/groups-and-bets.md §3 calls it a free record, so
 * every key is optional and unknown keys survive; the request schema is the strict one.
 */
const betTypeConfigSchema = z.looseObject({
  yesLabel: z.string().optional(),
  noLabel: z.string().optional(),
  options: z.array(z.string()).optional(),
  line: z.number().optional(),
});

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
 * Whether it lies ahead, and not too far, needs the clock: see `expiryRefusal`.
 */
const expiresAtSchema = z
  .string({ error: BET_MESSAGES.expiryRequired })
  .trim()
  .min(1, { error: BET_MESSAGES.expiryRequired, abort: true })
  .refine((value) => Number.isFinite(Date.parse(value)), {
    message: BET_MESSAGES.expiryInvalid,
    abort: true,
  })
  .pipe(z.iso.datetime({ offset: true, error: BET_MESSAGES.expiryInvalid }))
  .transform((value) => new Date(value).toISOString());

const baseWagerAmountSchema = z
  .number({ error: BET_MESSAGES.baseWagerRequired })
  .min(1, { error: BET_MESSAGES.baseWagerMin, abort: true })
  .refine(
    // Some group's tier (stakes.ts); whether it is this group's is the server's check under the group's lock.
    (value) => ANY_STAKE_TIER.includes(value),
    BET_MESSAGES.baseWagerTier,
  );

const betTypeError = (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null || issue.input === ''
    ? BET_MESSAGES.betTypeRequired
    : BET_MESSAGES.betTypeUnknown;
/** Any stored bet's type; a request creates only CREATABLE_BET_TYPES (a score tip comes from a round). */
const betTypeSchema = z.enum(BET_TYPES, { error: betTypeError });
const creatableBetTypeSchema = z.enum(CREATABLE_BET_TYPES, { error: betTypeError });

const betStateSchema = z.enum(BET_STATES);

/**
 * `repeat` of POST /bets (bet-repeats.ts): every day, week or month, until an optional end after
 * the bet's close; `timeZone` (IANA, the device's) keeps the close's time of day, UTC if left out.
 */
const repeatSchema = z
  .strictObject({
    every: z.enum(REPEAT_PERIODS, { error: REPEAT_MESSAGES.everyUnknown }),
    until: z
      .string({ error: REPEAT_MESSAGES.untilInvalid })
      .pipe(z.iso.datetime({ offset: true, error: REPEAT_MESSAGES.untilInvalid }))
      .transform((value) => new Date(value).toISOString())
      .optional(),
    timeZone: z
      .string({ error: REPEAT_MESSAGES.timeZoneUnknown })
      .max(64, REPEAT_MESSAGES.timeZoneUnknown)
      .refine(isKnownTimeZone, REPEAT_MESSAGES.timeZoneUnknown)
      .default('UTC'),
  })
  .optional();

const betRequestFields = {
  title,
  description,
  expiresAt: expiresAtSchema,
  baseWagerAmount: baseWagerAmountSchema,
  betType: creatableBetTypeSchema,
  betTypeConfig: z.unknown().optional(),
  groupId: idSchema(BET_MESSAGES.groupRequired),
  repeat: repeatSchema,
};

/**
 * POST /bets. The config is checked against the schema of the bet's type; its issues carry
 * paths under `betTypeConfig` (e.g. `betTypeConfig.options`). Missing config means the
 * type's defaults (yes_no: Yes/No). The expiry check needs the clock: the server applies
 * `expiryRefusal(expiresAt, now)`, or parses with `createBetRequestSchemaAt(now)`.
 */
export const createBetRequestSchema = z
  .strictObject(betRequestFields)
  .transform((value, ctx): CreateBetInput => {
    const config = BET_TYPE_CONFIG_SCHEMAS[value.betType].safeParse(value.betTypeConfig ?? {});
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

/** The create-bet schema with the expiry checked against a given clock (for the server and the form). */
export function createBetRequestSchemaAt(now: number) {
  return createBetRequestSchema.superRefine((value, ctx) => {
    const refusal = expiryRefusal(value.expiresAt, now);
    if (refusal) ctx.addIssue({ code: 'custom', message: refusal, path: ['expiresAt'] });
    const until = value.repeat?.until && repeatUntilRefusal(value.repeat.until, value.expiresAt);
    if (until) ctx.addIssue({ code: 'custom', message: until, path: ['repeat', 'until'] });
  });
}

// ---- wagers and resolution ----

const prediction = z
  .string({ error: BET_MESSAGES.predictionRequired })
  .trim()
  .min(1, { error: BET_MESSAGES.predictionRequired, abort: true })
  .max(BET_LIMITS.predictionMax, BET_MESSAGES.predictionMax);

// 0 only for a bet whose type stakes nothing (a score tip); any other bet refuses it with
// pointsMin (wagers.service.ts, which knows the bet).
const points = z
  .number({ error: BET_MESSAGES.pointsRequired })
  .int(BET_MESSAGES.pointsWhole)
  .min(0, BET_MESSAGES.pointsMin);

/**
 * POST /bets/wagers. Whether the prediction fits the bet and the points fit the base needs the bet:
 * `validatePrediction`, `isValidWagerPoints`.
 */
export const placeWagerRequestSchema = z.strictObject({
  betId: idSchema(BET_MESSAGES.betRequired),
  prediction,
  points,
});

/** PUT /bets/wagers/{wagerId}. */
export const updateWagerRequestSchema = z.strictObject({ prediction, points });

/** PUT /bets/{id}/resolve: a non-empty answer (docs/groups-and-bets.md §5); its fit to the bet is `validateCorrectAnswer`. */
export const resolveRequestSchema = z.strictObject({
  correctAnswer: z
    .string({ error: BET_MESSAGES.answerRequired })
    .trim()
    .min(1, { error: BET_MESSAGES.answerRequired, abort: true })
    .max(BET_LIMITS.predictionMax, BET_MESSAGES.answerMax),
});

/** GET /bets/user/wagers?group= */
export const userWagersQuerySchema = z.object({
  group: idSchema(BET_MESSAGES.groupRequired).optional(),
});

/** Route params `{id}` of the bet calls. */
export const betIdParamsSchema = z.object({ id: idSchema(BET_MESSAGES.betRequired) });
export const wagerIdParamsSchema = z.object({ wagerId: idSchema('Wager is required') });

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
 * `answerTotals` (our addition, docs/architecture.md §5 "Odds") is the points wagered on each
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
  /** Who picked what, once betting has closed; absent or null while it is open. */
  picks: z.array(revealedPickSchema).nullable().optional(),
  /**
   * When its picks were first shown to the group (its close, or a resolution before it); absent
   * while they never were. Betting never reopens after it, even if the resolution is undone
   * (fair-resolution.ts isBettingOpen).
   */
  picksRevealedAt: isoDateTime.nullable().optional(),
  /** The dispute of its current resolution, if any. */
  dispute: betDisputeSchema.nullable().optional(),
});
export const wagerSchema = z.object({
  id: z.number().int(),
  betId: z.number().int(),
  userId: z.number().int(),
  prediction: z.string(),
  points: z.number().int(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});

/** GET /bets/{id}/user-context: the bet, the viewer's membership (for availablePoints) and their wager. */
export const betUserContextSchema = z.object({
  bet: betSchema,
  membership: membershipSchema.nullable(),
  userWager: wagerSchema.nullable().optional(),
});

/** GET /bets/{id}/statistics, the fields of docs/groups-and-bets.md §3; percentages are 0–100. */
export const betStatisticsSchema = z.object({
  isResolved: z.boolean(),
  correctAnswer: z.string().nullable(),
  totalParticipants: z.number().int(),
  totalMembers: z.number().int(),
  participationRate: z.number(),
  totalPoints: z.number().int(),
  averagePoints: z.number(),
  userWager: z
    .object({
      prediction: z.string(),
      points: z.number().int(),
      /** What the payout gave the viewer back (0 for a losing pick), once the bet is resolved. */
      winnings: z.number().int().optional(),
    })
    .nullable(),
  /** Why a resolved bet refunded every wager (an over/under answer on its line, or no pick won); null when it paid winners. */
  refundReason: z.enum(['push', 'no_winner']).nullable().optional(),
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

/** GET /groups/{id}/bets: "bets with statistics" (docs/groups-and-bets.md §7). */
export const groupBetsResponseSchema = z.array(
  betSchema.extend({ statistics: betStatisticsSchema }),
);
