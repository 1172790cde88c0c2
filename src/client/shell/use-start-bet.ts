import { activeGroupStore } from '../data/active-group-store';

/**
 * The Bet button (docs/groups-and-bets.md §2): opens the bet-creation modal for the active group, or the
 * join modal when the player has no group yet (a bet needs one). Both modals are dynamic
 * imports: the shell is on the landing page's path and must not carry them.
 */
export function useStartBet() {
  return () => {
    const active = activeGroupStore.getSnapshot();
    if (active) void import('../bets/bet-modals').then((m) => m.openCreateBetModal(active.id));
    else void import('../groups/group-modals').then((m) => m.openJoinGroupModal());
  };
}
