import { BET_LIMITS } from '../../domain/bet-limits';
import { stakeTierChoices, stakeTiersOf } from '../../domain/stakes';
import type { MyGroup } from '../groups/use-groups';
import { SegmentedField } from '../ui/segmented-field';
import { BetCloseFields } from './bet-close-fields';
import { SelectField } from '../ui/select-field';
import { TextAreaField } from '../ui/text-area-field';
import { TextField } from '../ui/text-field';
import {
  baseInTiers,
  type BetFormErrors,
  type BetFormField,
  type BetFormValues,
} from './bet-form-model';

// Step 1 "Details" of the bet-creation stepper (docs/groups-and-bets.md §2, §5): title, optional
// description, expiry (default now + 24 h, at most a year ahead, with quick choices) and repeat
// (bet-close-fields.tsx), base wager $ / $$ / $$$ with
// the group's points beside them ("$ · 5 pts", its stake tiers), group.

const DETAILS_TEXT = {
  title: 'Title',
  titlePlaceholder: 'Will it rain on Saturday?',
  description: 'Description (optional)',
  baseWager: 'Base wager',
  baseWagerHint: 'Each wager is 1x, 2x or 3x this amount.',
  group: 'Group',
  chooseGroup: 'Choose a group',
};

interface StepProps {
  values: BetFormValues;
  errors: BetFormErrors;
  touched: ReadonlySet<BetFormField>;
  onChange: (patch: Partial<BetFormValues>) => void;
  onTouch: (field: BetFormField) => void;
}

export function BetDetailsStep({
  values,
  errors,
  touched,
  onChange,
  onTouch,
  groups,
  now,
}: StepProps & { groups: readonly MyGroup[]; now: number }) {
  const shown = (field: BetFormField) => (touched.has(field) ? errors[field] : undefined);
  const tiersOf = (groupId: number | null) =>
    stakeTiersOf(groups.find(({ group }) => group.id === groupId)?.group);
  const tiers = tiersOf(values.groupId);
  return (
    <>
      <TextField
        label={DETAILS_TEXT.title}
        placeholder={DETAILS_TEXT.titlePlaceholder}
        value={values.title}
        error={shown('title')}
        onChange={(event) => {
          onChange({ title: event.target.value });
          // No silent cut at the limit: a longer title says so at once, and is kept as typed.
          if (event.target.value.length > BET_LIMITS.titleMax) onTouch('title');
        }}
        onBlur={() => onTouch('title')}
        // The modal puts focus here (not on the step tabs): the first letters typed are the title's.
        data-autofocus
        autoFocus
      />
      <TextAreaField
        label={DETAILS_TEXT.description}
        value={values.description}
        rows={2}
        error={shown('description')}
        onChange={(event) => onChange({ description: event.target.value })}
        onBlur={() => onTouch('description')}
      />
      <BetCloseFields
        values={values}
        shown={shown}
        onChange={onChange}
        onTouch={onTouch}
        now={now}
      />
      <SegmentedField
        label={DETAILS_TEXT.baseWager}
        value={values.baseWagerAmount}
        options={stakeTierChoices(tiers)}
        hint={DETAILS_TEXT.baseWagerHint}
        error={shown('baseWagerAmount')}
        onChange={(baseWagerAmount) => onChange({ baseWagerAmount })}
      />
      <SelectField
        label={DETAILS_TEXT.group}
        placeholder={DETAILS_TEXT.chooseGroup}
        value={values.groupId === null ? '' : String(values.groupId)}
        options={groups.map(({ group }) => ({ value: String(group.id), label: group.name }))}
        error={shown('groupId')}
        onChange={(event) => {
          const groupId = event.target.value === '' ? null : Number(event.target.value);
          // The same tier in the new group's points: $$ stays $$.
          const baseWagerAmount = baseInTiers(values.baseWagerAmount, tiers, tiersOf(groupId));
          onChange({ groupId, baseWagerAmount });
        }}
        onBlur={() => onTouch('groupId')}
      />
    </>
  );
}

export type { StepProps as BetStepProps };
