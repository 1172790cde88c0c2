import type { DisputeJudgeFacts } from '../../domain/fair-resolution';
import type { BetRow, HunchDb } from './db';

// The facts the dispute rules (domain/fair-resolution.ts) weigh, as this device's mirror holds
// them: the group's members and admins, and the bet's picks (shown on a resolved bet: whoever
// has a stake). The judges a screen names and whom a dispute's toast reaches are then the
// server's own answer. The mirror holds no join times yet: a member who joined after an open
// dispute began counts here as a judge, though the server refuses them (docs/rules.md).

export interface MirrorDisputeFacts extends DisputeJudgeFacts {
  /** The members' names, by id. */
  names: ReadonlyMap<number, string>;
}

export async function mirrorDisputeFacts(
  db: HunchDb,
  bet: Pick<BetRow, 'groupId' | 'picks'>,
  disputedBy: number | null,
): Promise<MirrorDisputeFacts> {
  const [group, members] = await Promise.all([
    db.groups.get(bet.groupId),
    db.memberships.where('groupId').equals(bet.groupId).toArray(),
  ]);
  return {
    memberIds: members.map((member) => member.userId),
    adminIds: group?.admins ?? [],
    stakeholderIds: (bet.picks ?? []).map((pick) => pick.userId),
    disputedBy,
    names: new Map(members.map((member) => [member.userId, member.userName])),
  };
}
