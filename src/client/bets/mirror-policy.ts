import { betPolicy, type BetPolicy, type PolicyBet } from '../../domain/policies/bet-policy';
import { mirrorRole } from '../groups/use-groups';

// The bet policy (src/domain/policies/bet-policy.ts) asked with what this device knows: the
// viewer's membership and the group as the mirror holds them. Every screen that offers an
// action on a bet asks it here, so it offers exactly what the server accepts; the viewer's
// role is `mirrorRole`'s, the one a group's screen asks the group policy with.

export interface MirrorFacts {
  userId: number;
  /** The viewer's membership in the bet's group; null or undefined when they are not a member. */
  membership: { role?: string | undefined } | null | undefined;
  /** The bet's group as the mirror holds it (absent for another group's bet). */
  group:
    | { privacy?: string; admins?: readonly number[]; memberUserIds?: readonly number[] }
    | null
    | undefined;
  /** The viewer has a wager on the bet. */
  hasWagered: boolean;
  /** Who has a wager on the bet, as far as the device knows (the picks, once shown). */
  stakeholderIds?: readonly number[];
}

/** Everything the viewer may do with `bet` at `now`, as far as this device knows. */
export function mirrorPolicy(bet: PolicyBet, facts: MirrorFacts, now: number): BetPolicy {
  const { userId, group } = facts;
  const admins = group?.admins ?? [];
  const members = group?.memberUserIds;
  return betPolicy(
    { userId, role: mirrorRole(facts), hasWagered: facts.hasWagered },
    bet,
    {
      // A bet of a group the device does not know came from the server, which let it be read.
      isPublic: group?.privacy !== 'private',
      // Not knowing the group, the device offers no stand-in for its creator.
      creatorIsMember: members ? [...members, ...admins].includes(bet.createdBy) : true,
      memberIds: [...(members ?? []), ...admins],
      adminIds: admins,
      stakeholderIds: facts.stakeholderIds ?? [],
    },
    now,
  );
}

/** The rows the bet page reads from the mirror for `bet`, as the policy's facts. */
export function betPageFacts(
  userId: number,
  bet: { picks?: ReadonlyArray<{ userId: number }> | null },
  rows: Pick<MirrorFacts, 'membership' | 'group'> & { wager: object | null | undefined },
): MirrorFacts {
  const { membership, group, wager } = rows;
  return {
    userId,
    membership,
    group,
    hasWagered: Boolean(wager),
    // Whoever's pick shows has a stake (picks show once betting closed).
    stakeholderIds: [...(bet.picks ?? []).map((pick) => pick.userId), ...(wager ? [userId] : [])],
  };
}
