import { z } from '../domain/schemas/zod';
import { emptyAsUndefined } from './config-rate-limits';

// The tipping rounds' results provider settings (README, Configuration): football-data.org's
// v4 API, how often the results job asks it, and how long after kick-off a match is asked about.

const wholeNumber = () =>
  z.coerce.number({ error: 'must be a number' }).int('must be a whole number');

/** The variables, as config.ts's schema reads them. */
export const roundResultsVariables = {
  /** The football-data.org v4 token: with it, finished matches of tipping rounds get their results. */
  FOOTBALL_DATA_TOKEN: z.preprocess(emptyAsUndefined, z.string().optional()),
  /** Where football-data.org's v4 API answers (tests use a local stand-in). */
  FOOTBALL_DATA_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .refine(
        (value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol),
        'must be a http:// or https:// URL',
      )
      .optional(),
  ),
  /** How often the results job asks the provider about finished matches; 0 turns it off. */
  RESULTS_INTERVAL_MS: z.preprocess(
    emptyAsUndefined,
    wholeNumber().min(0, 'must be at least 0').default(300_000),
  ),
  /**
   * How long after its kick-off a match is first asked about: 90 minutes, half-time and
   * stoppage time (110); a league with extra time may want more.
   */
  ROUND_RESULTS_AFTER_KICKOFF_MINUTES: z.preprocess(
    emptyAsUndefined,
    wholeNumber()
      .min(0, 'must be 0 or more')
      .max(7 * 24 * 60, 'must be at most 10080 (a week)')
      .default(110),
  ),
};

type RoundResultsEnv = {
  FOOTBALL_DATA_TOKEN?: string;
  FOOTBALL_DATA_URL?: string;
  RESULTS_INTERVAL_MS: number;
  ROUND_RESULTS_AFTER_KICKOFF_MINUTES: number;
};

/** The results provider (football-data.org v4); no token: admins type results, nothing is polled. */
export interface RoundResultsSettings {
  token: string | undefined;
  url: string;
  /** Milliseconds between runs of the round results job (src/server/jobs); 0: never. */
  intervalMs: number;
  /** Milliseconds after kick-off before a match is asked about. */
  afterKickoffMs: number;
}

export function roundResultsFrom(env: RoundResultsEnv): RoundResultsSettings {
  return {
    token: env.FOOTBALL_DATA_TOKEN,
    url: (env.FOOTBALL_DATA_URL ?? 'https://api.football-data.org').replace(/\/+$/, ''),
    intervalMs: env.RESULTS_INTERVAL_MS,
    afterKickoffMs: env.ROUND_RESULTS_AFTER_KICKOFF_MINUTES * 60_000,
  };
}
