import { z } from '../../domain/schemas/zod';

// The first results provider: football-data.org's v4 API (GET /v4/matches, the token in the
// X-Auth-Token header). Only what the round results job needs: matches by id, and the matches
// of a span of days, to link a match of a round to the provider's by its teams and day.

/** A provider's match as the results job reads it. */
export interface ProviderMatch {
  id: number;
  utcDate: string;
  /** FINISHED once the full-time score is final (also SCHEDULED, IN_PLAY, POSTPONED, …). */
  status: string;
  home: string;
  away: string;
  /** Full time (90 minutes and stoppage time: the score a tip is on), null until known. */
  fullTime: { home: number | null; away: number | null };
}

export interface ResultsProvider {
  /** The name the history gives a filled result: "Result from football-data.org". */
  name: string;
  matchesByIds(ids: readonly number[]): Promise<ProviderMatch[]>;
  /** Matches from `dateFrom` to `dateTo` (YYYY-MM-DD, UTC days). */
  matchesBetween(dateFrom: string, dateTo: string): Promise<ProviderMatch[]>;
}

const goals = z.number().int().min(0).nullable().catch(null);
const answerSchema = z.object({
  matches: z.array(
    z.looseObject({
      id: z.number().int(),
      utcDate: z.string(),
      status: z.string(),
      homeTeam: z.looseObject({ name: z.string().nullable().catch(null) }),
      awayTeam: z.looseObject({ name: z.string().nullable().catch(null) }),
      score: z.looseObject({
        fullTime: z.looseObject({ home: goals, away: goals }).catch({ home: null, away: null }),
      }),
    }),
  ),
});

/** A request that takes longer is given up; the next pass asks again. */
const REQUEST_TIMEOUT_MS = 15_000;

export function footballDataProvider({
  url,
  token,
}: {
  url: string;
  token: string;
}): ResultsProvider {
  async function matches(query: URLSearchParams): Promise<ProviderMatch[]> {
    const response = await fetch(`${url}/v4/matches?${query}`, {
      headers: { 'X-Auth-Token': token, accept: 'application/json' },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (!response.ok)
      throw new Error(`football-data.org answered ${response.status} to /v4/matches?${query}`);
    const answer = answerSchema.parse(await response.json());
    return answer.matches.map((match) => ({
      id: match.id,
      utcDate: match.utcDate,
      status: match.status,
      home: match.homeTeam.name ?? '',
      away: match.awayTeam.name ?? '',
      fullTime: { home: match.score.fullTime.home, away: match.score.fullTime.away },
    }));
  }
  return {
    name: 'football-data.org',
    matchesByIds: (ids) => matches(new URLSearchParams({ ids: ids.join(',') })),
    matchesBetween: (dateFrom, dateTo) => matches(new URLSearchParams({ dateFrom, dateTo })),
  };
}

// Club names differ between a fixture list and the provider ("Bayern" and "FC Bayern
// München"): compared without accents, case, punctuation and the usual club prefixes.
const CLUB_WORDS = new Set([
  'fc',
  'cf',
  'afc',
  'sc',
  'ac',
  'ssc',
  'sv',
  'vfb',
  'vfl',
  'tsg',
  'club',
  'de',
  '1',
]);

function nameWords(name: string): string[] {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter((word) => word !== '' && !CLUB_WORDS.has(word));
}

/** Whether two names say the same club: one's words all among the other's. */
export function isSameTeam(a: string, b: string): boolean {
  const wordsA = nameWords(a);
  const wordsB = nameWords(b);
  if (wordsA.length === 0 || wordsB.length === 0) return false;
  const [fewer, more] = wordsA.length <= wordsB.length ? [wordsA, wordsB] : [wordsB, wordsA];
  return fewer.every((word) => more.includes(word));
}
