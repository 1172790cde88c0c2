import { useLiveQuery } from 'dexie-react-hooks';
import { disputeJudgeIds } from '../../domain/fair-resolution';
import { db, type BetRow } from '../data/db';
import { mirrorDisputeFacts } from '../data/dispute-facts';

// Who will judge a bet's dispute, by name: the domain's `disputeJudgeIds`, the rule the server
// holds the judges to, asked with the mirror's facts (data/dispute-facts.ts). So the disputer
// reads who will actually decide, never a guess of the screen's own.

/** The judges' names, by name; undefined while the mirror is read. */
export function useDisputeJudges(
  bet: Pick<BetRow, 'id' | 'groupId' | 'picks'> | null | undefined,
  disputedBy: number | undefined,
): string[] | undefined {
  return useLiveQuery(async () => {
    if (!bet) return undefined;
    const facts = await mirrorDisputeFacts(db, bet, disputedBy ?? null);
    return disputeJudgeIds(facts)
      .flatMap((userId) => facts.names.get(userId) ?? [])
      .sort((a, b) => a.localeCompare(b));
  }, [bet?.id, bet?.groupId, bet?.picks, disputedBy]);
}

/** "Maya", "Maya or Sam", "Ana, Maya or Sam"; more than three: how many. */
export function judgesNamed(names: readonly string[]): string {
  if (names.length > 3) return `One of ${names.length} players without a stake in this bet`;
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}
