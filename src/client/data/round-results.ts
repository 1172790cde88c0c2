import {
  firstKickoffOf,
  isRoundInSeason,
  runningTotal,
  scoreRound,
  type ScoredRound,
} from '../../domain/rounds';
import type { RoundStanding } from '../../domain/score-tips';
import { db as defaultDb, type BetRow, type HunchDb, type RoundRow } from './db';

// A tipping round's table from the mirror alone (docs/rules.md "Tipping rounds"): its matches'
// bets give each result and, once betting on a match closed, everyone's tips; the domain's rule
// scores them as the server does. So the round page and the leaderboard's "Matchday winner"
// read offline.

export type NamedStanding = RoundStanding & { name: string };

export type RoundResults = Omit<ScoredRound, 'table'> & {
  table: NamedStanding[];
  /** The matches' bets the device holds, by id. */
  bets: Map<number, BetRow>;
};

export async function readRoundResults(round: RoundRow, db: HunchDb = defaultDb) {
  const betIds = round.matches.map((match) => match.betId).filter((id) => id !== 0);
  const bets = new Map(
    (await db.bets.bulkGet(betIds)).flatMap((bet) => (bet ? [[bet.id, bet] as const] : [])),
  );
  const members = await db.memberships.where('groupId').equals(round.groupId).toArray();
  const names = new Map(members.map((member) => [member.userId, member.userName]));
  const scored = scoreRound(
    round,
    (betId) => bets.get(betId),
    members.map((member) => member.userId),
  );
  return {
    ...scored,
    bets,
    table: scored.table.map((standing) => ({
      ...standing,
      name: names.get(standing.userId) ?? 'Former member',
    })),
  } satisfies RoundResults;
}

/** The "Matchday winner"s of the group's newest round whose every match is settled (ties: all). */
export async function readLastMatchdayWinners(
  groupId: number,
  db: HunchDb = defaultDb,
): Promise<number[]> {
  const rounds = await db.rounds.where('groupId').equals(groupId).toArray();
  const newestFirst = rounds.filter((round) => round.id > 0).sort((a, b) => b.id - a.id);
  for (const round of newestFirst) {
    const results = await readRoundResults(round, db);
    if (results.isComplete) return results.winners;
  }
  return [];
}

/**
 * The season's running total from the mirror, by the rule the server's rounds list uses: each
 * player's round points over the running season's rounds (all the group's rounds while no season
 * runs), best first; `season` names the running season, if any.
 */
export async function readSeasonTotals(
  groupId: number,
  db: HunchDb = defaultDb,
): Promise<{ season: string | null; table: NamedStanding[] }> {
  const [rounds, seasons, members] = await Promise.all([
    db.rounds.where('groupId').equals(groupId).toArray(),
    db.seasons.where('groupId').equals(groupId).toArray(),
    db.memberships.where('groupId').equals(groupId).toArray(),
  ]);
  const season = seasons.find((row) => row.state === 'active');
  const counted = rounds.filter(
    (round) => round.id > 0 && isRoundInSeason(firstKickoffOf(round.matches), season),
  );
  const tables = await Promise.all(
    counted.map(async (round) => (await readRoundResults(round, db)).table),
  );
  const names = new Map(members.map((member) => [member.userId, member.userName]));
  return {
    season: season?.name ?? null,
    table: runningTotal(tables).map((standing) => ({
      ...standing,
      name: names.get(standing.userId) ?? 'Former member',
    })),
  };
}
