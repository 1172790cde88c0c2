import { STAKE_TIER_SETS, stakeTierSet } from '../../domain/stakes';
import { SegmentedField } from '../ui/segmented-field';

// The group's stake size (docs/rules.md "Stakes"): the points of its bets' $, $$ and $$$, one of
// the domain's three sets. On the create-group form and in the group's Settings.

const TEXT = {
  label: 'Stakes',
  hint: (tiers: readonly number[]) =>
    `New bets use ${tiers.join(', ')} points for $, $$ and $$$. A 3x wager on $$$ risks ${tiers.at(-1)! * 3}.`,
};

const OPTIONS = STAKE_TIER_SETS.map((tiers, index) => ({
  value: index,
  label: tiers.join(' · '),
  ariaLabel: `${tiers.join(', ')} points`,
}));

export function StakeTiersField({
  value,
  onChange,
  error,
}: {
  value: readonly number[];
  onChange: (tiers: number[]) => void;
  error?: string | undefined;
}) {
  const chosen = STAKE_TIER_SETS.indexOf(stakeTierSet(value) ?? STAKE_TIER_SETS[0]);
  return (
    <SegmentedField
      label={TEXT.label}
      value={chosen}
      options={OPTIONS}
      hint={TEXT.hint(STAKE_TIER_SETS[chosen] ?? STAKE_TIER_SETS[0])}
      error={error}
      onChange={(index) => onChange([...(STAKE_TIER_SETS[index] ?? STAKE_TIER_SETS[0])])}
    />
  );
}
