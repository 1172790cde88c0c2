import { useSyncExternalStore } from 'react';
import { activeGroupStore, type ActiveGroupState } from './active-group-store';

/** The active group: undefined while not chosen yet, null when there is none (docs/groups-and-bets.md §3). */
export function useActiveGroup(): ActiveGroupState {
  return useSyncExternalStore(
    activeGroupStore.subscribe,
    activeGroupStore.getSnapshot,
    activeGroupStore.getSnapshot,
  );
}
