import { useLiveQuery } from 'dexie-react-hooks';
import { disputeJudgeIds } from '../../domain/fair-resolution';
import { db, type BetRow } from '../data/db';

// Who will judge a bet's dispute, by name: the domain's `disputeJudgeIds`, the rule the server
// holds the judges to, asked with the group as the mirror holds it (its members and admins) and
// the bet's picks (shown on a resolved bet: whoever has a stake). So the disputer reads who
// will actually decide, never a guess of the screen's own. The mirror holds no join times yet:
// a member who joined after an open dispute began is listed here, though the server refuses
// them as its judge (docs/rules.md).

/** The judges' names, by name; undefined while the mirror is read. */
export function useDisputeJudges(
  bet: Pick<BetRow, 'id' | 'groupId' | 'picks'> | null | undefined,
  disputedBy: number | undefined,
): string[] | undefined {
  return useLiveQuery(async () => {
    if (!bet) return undefined;
    const [group, members] = await Promise.all([
      db.groups.get(bet.groupId),
      db.memberships.where('groupId').equals(bet.groupId).toArray(),
    ]);
    const judges = disputeJudgeIds({
      memberIds: members.map((member) => member.userId),
      adminIds: group?.admins ?? [],
      stakeholderIds: (bet.picks ?? []).map((pick) => pick.userId),
      disputedBy: disputedBy ?? null,
    });
    const names = new Map(members.map((member) => [member.userId, member.userName]));
    return judges.flatMap((userId) => names.get(userId) ?? []).sort((a, b) => a.localeCompare(b));
  }, [bet?.id, bet?.groupId, bet?.picks, disputedBy]);
}

/** "Maya", "Maya or Sam", "Ana, Maya or Sam"; more than three: how many. */
export function judgesNamed(names: readonly string[]): string {
  if (names.length > 3) return `One of ${names.length} players without a stake in this bet`;
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}
