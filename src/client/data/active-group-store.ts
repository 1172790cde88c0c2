import { STORAGE_KEYS } from '../../domain/constants';

// The active group (docs/groups-and-bets.md §3 "Active group info"): id, name and availablePoints, stored in
// the browser under the one key `active_group`. No Dexie and no zod here: the header reads it
// and must stay light. Three states, so the header can show a spinner while it is unknown:
//   undefined  not chosen yet (signed in, the first sync has not answered)
//   null       none: the player belongs to no group ("Join Group")
//   info       the chosen group

export interface ActiveGroupInfo {
  id: number;
  name: string;
  availablePoints: number;
}

export type ActiveGroupState = ActiveGroupInfo | null | undefined;

function parse(raw: string | null): ActiveGroupInfo | undefined {
  if (!raw) return undefined;
  try {
    const value = JSON.parse(raw) as Partial<ActiveGroupInfo> | null;
    if (value && typeof value.id === 'number' && typeof value.name === 'string') {
      return {
        id: value.id,
        name: value.name,
        availablePoints: typeof value.availablePoints === 'number' ? value.availablePoints : 0,
      };
    }
  } catch {
    // A damaged value is as good as none: the next sync chooses again.
  }
  return undefined;
}

export type ActiveGroupStore = ReturnType<typeof createActiveGroupStore>;

export function createActiveGroupStore(storage: Storage | null) {
  let state: ActiveGroupState = parse(storage?.getItem(STORAGE_KEYS.activeGroup) ?? null);
  const listeners = new Set<() => void>();

  const publish = (next: ActiveGroupState) => {
    state = next;
    if (next) storage?.setItem(STORAGE_KEYS.activeGroup, JSON.stringify(next));
    else storage?.removeItem(STORAGE_KEYS.activeGroup);
    for (const listener of [...listeners]) listener();
  };

  const isSame = (a: ActiveGroupState, b: ActiveGroupState) =>
    a === b ||
    (!!a && !!b && a.id === b.id && a.name === b.name && a.availablePoints === b.availablePoints);

  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => state,

    /** Choose a group (or none). */
    set(next: ActiveGroupInfo | null) {
      if (!isSame(state, next)) publish(next);
    },

    /**
     * After a sync: keep the chosen group when the player still belongs to it (with its fresh
     * name and points), else take the first of their groups, else none (docs/groups-and-bets.md §4).
     */
    reconcile(myGroups: readonly ActiveGroupInfo[]) {
      const current = state ? myGroups.find((group) => group.id === state!.id) : undefined;
      const next = current ?? myGroups[0] ?? null;
      if (!isSame(state, next)) publish(next);
    },

    /** Signing out forgets the stored group and goes back to "not chosen yet". */
    clear() {
      storage?.removeItem(STORAGE_KEYS.activeGroup);
      if (state !== undefined) {
        state = undefined;
        for (const listener of [...listeners]) listener();
      }
    },
  };
}

export const activeGroupStore = createActiveGroupStore(
  typeof localStorage === 'undefined' ? null : localStorage,
);
