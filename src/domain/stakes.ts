import { BET_LIMITS } from './bet-limits';

// A group's stake size (docs/rules.md "Stakes"): the three base amounts its bets choose from,
// shown as $, $$ and $$$. The spec's 1, 2, 3 stay the default; a group may choose larger ones so
// that one confident wager can move a table of 100-point players. A bet keeps the base it was
// created with when the group changes its tiers later. Pure: the server and the screens ask here.

/** The tier sets a group may choose, smallest first; the first is the spec's and the default. */
export const STAKE_TIER_SETS = [
  BET_LIMITS.baseWagerTiers,
  [5, 10, 15],
  [10, 20, 30],
] as const satisfies ReadonlyArray<readonly [number, number, number]>;

export type StakeTiers = (typeof STAKE_TIER_SETS)[number];

export const DEFAULT_STAKE_TIERS: StakeTiers = STAKE_TIER_SETS[0];

/** The labels of the three tiers (docs/groups-and-bets.md §5), in tier order. */
export const STAKE_TIER_LABELS = ['$', '$$', '$$$'] as const;

/** Every base amount some tier set offers: what a bet request may name at all. */
export const ANY_STAKE_TIER: readonly number[] = [...new Set(STAKE_TIER_SETS.flat())].sort(
  (a, b) => a - b,
);

export const STAKE_MESSAGES = {
  tiersNotOffered: 'Stake tiers must be 1, 2, 3 or 5, 10, 15 or 10, 20, 30',
} as const;

/** The tier set equal to `value`, or null when `value` is none of STAKE_TIER_SETS. */
export function stakeTierSet(value: readonly unknown[]): StakeTiers | null {
  return (
    STAKE_TIER_SETS.find(
      (set) => set.length === value.length && set.every((tier, index) => tier === value[index]),
    ) ?? null
  );
}

/** A group's tiers as stored or mirrored: the default for a copy that predates them. */
export function stakeTiersOf(
  group: { stakeTiers?: readonly number[] | undefined } | null | undefined,
): StakeTiers {
  return (group?.stakeTiers && stakeTierSet(group.stakeTiers)) || DEFAULT_STAKE_TIERS;
}

/** Whether a new bet of the group may take `base`: one of its tiers now (existing bets keep theirs). */
export function isBaseInTiers(base: number, tiers: readonly number[]): boolean {
  return tiers.includes(base);
}

/** "Base Wager Amount must be 5, 10 or 15": the refusal of a base the group does not offer. */
export function baseNotInTiersMessage(tiers: readonly number[]): string {
  return `Base Wager Amount must be ${tiers.slice(0, -1).join(', ')} or ${tiers.at(-1)}`;
}

/** A tier button's text: its $ label and its points ("$ · 5 pts"). */
export function stakeTierLabel(index: number, points: number): string {
  return `${STAKE_TIER_LABELS[index] ?? '$'} · ${points} ${points === 1 ? 'pt' : 'pts'}`;
}

/** The tier buttons of a group: value, "$ · 5 pts", and a label for screen readers. */
export function stakeTierChoices(
  tiers: readonly number[],
): Array<{ value: number; label: string; ariaLabel: string }> {
  return tiers.map((points, index) => ({
    value: points,
    label: stakeTierLabel(index, points),
    ariaLabel: `${STAKE_TIER_LABELS[index] ?? '$'} (${points} ${points === 1 ? 'point' : 'points'})`,
  }));
}

/** The largest base amount of the group: a member below it cannot play every bet even at 1x. */
export function largestStake(tiers: readonly number[]): number {
  return Math.max(...tiers);
}
