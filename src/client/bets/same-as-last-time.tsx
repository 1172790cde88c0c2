import { RotateCcw } from 'lucide-react';
import { isCreatableBetType } from '../../domain/bet-types';
import { currentMemberRefusal, type GroupRole } from '../../domain/policies/group-policy';
import { stakeTiersOf } from '../../domain/stakes';
import type { BetRow, GroupRow } from '../data/db';
import { Button } from '../ui/button';
import { openCreateBetModal } from './bet-modals';
import { sameAsBefore } from './bet-form-model';

// "Same as last time" on a resolved bet (docs/rules.md "Bets that come back"): a new bet's form
// filled with its title, description, type, options and base, for whoever may create bets in
// its group (the group policy's current-member rule, the server's createBet check).

export const SAME_AS_LAST_TIME = 'Same as last time';

export function SameAsLastTime({
  bet,
  group,
  role,
}: {
  bet: BetRow;
  group: GroupRow | null | undefined;
  role: GroupRole;
}) {
  if (currentMemberRefusal({ role }) !== null) return null;
  const { betType } = bet;
  // A round's match is made again by a new round, not by hand.
  if (!isCreatableBetType(betType)) return null;
  return (
    <Button
      variant="secondary"
      size="small"
      icon={<RotateCcw size={16} aria-hidden="true" />}
      onClick={() =>
        openCreateBetModal(
          bet.groupId,
          sameAsBefore({ ...bet, betType }, Date.now(), stakeTiersOf(group)),
        )
      }
    >
      {SAME_AS_LAST_TIME}
    </Button>
  );
}
