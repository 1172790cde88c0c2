import { z } from './zod';
import { BET_LIMITS, BET_MESSAGES, DEFAULT_NO_LABEL, DEFAULT_YES_LABEL } from '../bet-limits';
import type { BetType, BetTypeConfigs } from '../bet-types';
import { FIXTURE_LIMITS } from '../fixtures';

// POST /bets: each bet type's `betTypeConfig`, with its defaults applied (the rest of each
// type's entry: bet-types.ts). TypeScript asks for one per BET_TYPES name.

const label = (fallback: string) =>
  z
    .string({ error: BET_MESSAGES.labelMax })
    .trim()
    .max(BET_LIMITS.labelMax, BET_MESSAGES.labelMax)
    .nullish()
    // A blank label shows the default (docs/groups-and-bets.md §2, "Answer inputs").
    .transform((value) => (value ? value : fallback));

export const BET_TYPE_CONFIG_SCHEMAS = {
  yes_no: z.object({
    yesLabel: label(DEFAULT_YES_LABEL),
    noLabel: label(DEFAULT_NO_LABEL),
  }),
  multiple_choice: z.object({
    options: z.preprocess(
      // Blank options are dropped before validation (docs/groups-and-bets.md §5), and each option is trimmed.
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
          (options) =>
            new Set(options.map((option) => option.toLowerCase())).size === options.length,
          BET_MESSAGES.optionsDistinct,
        ),
    ),
  }),
  numeric: z.object({}),
  over_under: z.object({
    line: z.number({
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? BET_MESSAGES.lineRequired
          : BET_MESSAGES.lineInvalid,
    }),
  }),
  score_tip: z.object({
    home: z.string().trim().min(1).max(FIXTURE_LIMITS.teamMax),
    away: z.string().trim().min(1).max(FIXTURE_LIMITS.teamMax),
  }),
} as const satisfies { [T in BetType]: z.ZodType<BetTypeConfigs[T]> };
