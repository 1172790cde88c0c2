import { asyncHandler } from '../ui/async-handler';
import { activeGroupStore } from '../data/active-group-store';

/**
 * The Bet button (docs/groups-and-bets.md §2): opens the bet-creation modal for the active group, or the
 * join modal when the player has no group yet (a bet needs one). Both modals are dynamic
 * imports: the shell is on the landing page's path and must not carry them.
 */
export function useStartBet() {
  return asyncHandler(async () => {
    const active = activeGroupStore.getSnapshot();
    if (active) (await import('../bets/bet-modals')).openCreateBetModal(active.id);
    else (await import('../groups/group-modals')).openJoinGroupModal();
  });
}
