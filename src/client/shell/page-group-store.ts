import { useEffect, useSyncExternalStore } from 'react';

// The group a screen is about when it is not the active one: a bet's page is about the bet's
// group, so the header's corner shows that group's available points and name there (the
// points a wager on this page spends), and the active group's again once the page is left.
// The active group itself does not change: opening a bet from another group's card or the
// inbox is no choice of group.

let pageGroupId: number | undefined;
const listeners = new Set<() => void>();

function setPageGroup(groupId: number | undefined) {
  if (pageGroupId === groupId) return;
  pageGroupId = groupId;
  for (const listener of [...listeners]) listener();
}

/** Called by a screen about one group (undefined while it is not known). */
export function usePageGroup(groupId: number | undefined): void {
  useEffect(() => {
    setPageGroup(groupId);
    return () => setPageGroup(undefined);
  }, [groupId]);
}

/** The group the screen is about, if any (the header's corner). */
export function usePageGroupId(): number | undefined {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => pageGroupId,
    () => pageGroupId,
  );
}
