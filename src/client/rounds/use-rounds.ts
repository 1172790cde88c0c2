import { useLiveQuery } from 'dexie-react-hooks';
import { db, type RoundRow, type WagerRow } from '../data/db';
import { readRoundResults, readSeasonTotals, type RoundResults } from '../data/round-results';

/** The group's rounds from the mirror, newest first. */
export function useRounds(groupId: number): RoundRow[] | undefined {
  return useLiveQuery(async () => {
    const rows = await db.rounds.where('groupId').equals(groupId).toArray();
    return rows.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
  }, [groupId]);
}

export function useRound(roundId: number): RoundRow | null | undefined {
  return useLiveQuery(async () => (await db.rounds.get(roundId)) ?? null, [roundId]);
}

/** The round's table, results and the matches' bets, live. */
export function useRoundResults(round: RoundRow | null | undefined): RoundResults | undefined {
  return useLiveQuery(
    async () => (round ? readRoundResults(round) : undefined),
    [round?.id, round?.version, round?.matches.length],
  );
}

/** The season's running total over the group's rounds, live (data/round-results.ts). */
export function useSeasonTotals(groupId: number) {
  return useLiveQuery(() => readSeasonTotals(groupId), [groupId]);
}

/** The player's own tips on the round's matches, by bet id. */
export function useMyTips(
  round: RoundRow | null | undefined,
  userId: number | undefined,
): Map<number, WagerRow> | undefined {
  return useLiveQuery(async () => {
    if (!round || userId === undefined) return new Map<number, WagerRow>();
    const ids = round.matches.map((match) => match.betId);
    const wagers = await db.wagers.where('betId').anyOf(ids).toArray();
    return new Map(
      wagers.filter((wager) => wager.userId === userId).map((wager) => [wager.betId, wager]),
    );
  }, [round?.id, round?.version, userId]);
}

/** "Sat 5 Dec, 15:30" in the player's time. */
export const kickoffText = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });
