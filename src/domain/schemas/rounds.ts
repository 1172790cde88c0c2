import { z } from './zod';
import { FIXTURE_LIMITS } from '../fixtures';
import { isKnownTimeZone } from '../time-zones';
import { SCORE_TIP_MESSAGES } from '../score-tips';
import { normalizeName } from '../text-rules';
import { idSchema } from './ids';

// Tipping rounds on the wire (rules: fixtures.ts, score-tips.ts; docs/groups-and-bets.md
// "Tipping rounds").

export const ROUND_LIMITS = {
  nameMax: 60,
  /** Tips close at most a day before kick-off. */
  closeMinutesMax: 1440,
  /** A pasted list or calendar file. */
  listMax: 200_000,
} as const;

export const ROUND_MESSAGES = {
  nameRequired: 'Round name is required',
  nameMax: `Round name must be ${ROUND_LIMITS.nameMax} characters or less`,
  oneList: 'Send the matches as one of csv, ics or matches',
  timeZone: 'Time zone must be an IANA zone such as Europe/Berlin',
  closeMinutes: `Minutes before kick-off must be a whole number from 0 to ${ROUND_LIMITS.closeMinutesMax}`,
  listMax: 'The list is too long',
} as const;

const points = z
  .number({ error: SCORE_TIP_MESSAGES.scoringRange })
  .int(SCORE_TIP_MESSAGES.scoringRange)
  .min(0, SCORE_TIP_MESSAGES.scoringRange)
  .max(100, SCORE_TIP_MESSAGES.scoringRange);

export const scoringTableSchema = z
  .strictObject({ exact: points, difference: points, tendency: points })
  .refine(
    (table) => table.exact >= table.difference && table.difference >= table.tendency,
    SCORE_TIP_MESSAGES.scoringOrder,
  );

const typedMatch = z.strictObject({
  home: z.string().max(FIXTURE_LIMITS.teamMax * 4),
  away: z.string().max(FIXTURE_LIMITS.teamMax * 4),
  /** ISO 8601 with its zone, e.g. 2026-12-05T15:30:00+01:00. */
  kickoff: z.string().max(40),
  providerMatchId: z.number().int().positive().max(2_147_483_647).nullish(),
});

const list = z.string().max(ROUND_LIMITS.listMax, ROUND_MESSAGES.listMax);

/**
 * POST /groups/{id}/rounds: a name and the matches as exactly one of a pasted CSV, an iCalendar
 * file's text, or typed rows; `timeZone` is the zone the list's local times are in (the
 * creator's; UTC when left out); `scoring` left out takes the group's last round's (else
 * Kicktipp's 4/3/2).
 */
export const createRoundRequestSchema = z
  .strictObject({
    name: z
      .string({ error: ROUND_MESSAGES.nameRequired })
      .overwrite(normalizeName)
      .min(1, ROUND_MESSAGES.nameRequired)
      .max(ROUND_LIMITS.nameMax, ROUND_MESSAGES.nameMax),
    csv: list.optional(),
    ics: list.optional(),
    matches: z.array(typedMatch).max(FIXTURE_LIMITS.matchesMax).optional(),
    timeZone: z.string().refine(isKnownTimeZone, ROUND_MESSAGES.timeZone).default('UTC'),
    closeMinutesBefore: z
      .number({ error: ROUND_MESSAGES.closeMinutes })
      .int(ROUND_MESSAGES.closeMinutes)
      .min(0, ROUND_MESSAGES.closeMinutes)
      .max(ROUND_LIMITS.closeMinutesMax, ROUND_MESSAGES.closeMinutes)
      .default(0),
    scoring: scoringTableSchema.optional(),
  })
  .refine(
    (value) =>
      [value.csv, value.ics, value.matches].filter((entry) => entry !== undefined).length === 1,
    { message: ROUND_MESSAGES.oneList, path: ['csv'] },
  );
export type CreateRoundRequest = z.input<typeof createRoundRequestSchema>;

/** PATCH /groups/{id}/rounds/{roundId}: the scoring table, before the round's first kick-off. */
export const updateRoundRequestSchema = z.strictObject({ scoring: scoringTableSchema });

export const roundParamsSchema = z.object({
  id: idSchema('Group ID is required'),
  roundId: idSchema('Round is required'),
});

export const roundStandingSchema = z.object({
  userId: z.number().int(),
  points: z.number().int(),
  exact: z.number().int(),
  difference: z.number().int(),
  tendency: z.number().int(),
});

export const roundMatchSchema = z.object({
  /** The match's score-tip bet: tip with POST /bets/wagers, resolve with PUT /bets/{id}/resolve. */
  betId: z.number().int(),
  home: z.string(),
  away: z.string(),
  kickoff: z.string(),
  /** When its tips close: kick-off less the round's minutes. */
  closesAt: z.string(),
  providerMatchId: z.number().int().nullable(),
  /** The bet's state: active, resolved, cancelled or expired. */
  state: z.string(),
  /** The final score once resolved ("2-1"). */
  result: z.string().nullable(),
});

/** What a round says of itself, in its answers and in the pull. */
const roundBasics = {
  id: z.number().int(),
  groupId: z.number().int(),
  name: z.string(),
  createdBy: z.number().int().nullable(),
  createdAt: z.string(),
  closeMinutesBefore: z.number().int(),
  scoring: z.object({
    exact: z.number().int(),
    difference: z.number().int(),
    tendency: z.number().int(),
  }),
};

export const roundSchema = z.object({
  ...roundBasics,
  matches: z.array(roundMatchSchema),
  /** Every current member, best first; a skipped match scores 0 (docs/rules.md "Tipping rounds"). */
  table: z.array(roundStandingSchema),
  /** "Matchday winner": the top scorers once every match is settled; empty before. */
  matchdayWinners: z.array(z.number().int()),
});
export type Round = z.output<typeof roundSchema>;

/** GET /groups/{id}/rounds: the rounds, newest first, and the running total over all of them. */
export const roundListSchema = z.object({
  rounds: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      firstKickoff: z.string().nullable(),
      matchCount: z.number().int(),
      matchdayWinners: z.array(z.number().int()),
    }),
  ),
  totals: z.array(roundStandingSchema),
});
export type RoundList = z.output<typeof roundListSchema>;

/** A round in the pull (`rounds` of GET /api/member/state): its matches ride with it. */
export const mirrorRoundSchema = z.object({
  ...roundBasics,
  matches: z.array(
    roundMatchSchema.pick({ betId: true, home: true, away: true, kickoff: true, closesAt: true }),
  ),
  version: z.number().int(),
});
