import { Plus, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { BET_TYPE_RULES, CREATABLE_BET_TYPES, type CreatableBetType } from '../../domain/bet-types';
import { Button } from '../ui/button';
import { SegmentedField } from '../ui/segmented-field';
import { TextField } from '../ui/text-field';
import type { BetStepProps } from './bet-details-step';
import { canAddOption, canRemoveOption, type BetFormField } from './bet-form-model';
import styles from './create-bet-form.module.css';

// Step 2 "Type" of the bet-creation stepper (docs/groups-and-bets.md §2, §5): the bet type and its config:
// yes/no labels; 2–10 options with add and remove (remove only while more than 2 remain,
// blanks dropped on submit); the over/under line.

const TYPE_TEXT = {
  betType: 'Bet type',
  yesLabel: 'Yes label (optional)',
  noLabel: 'No label (optional)',
  option: (n: number) => `Option ${n}`,
  removeOption: (n: number) => `Remove option ${n}`,
  addOption: 'Add option',
  line: 'Line',
  lineHint: 'Players guess whether the result lands over or under this number.',
  numericHint: 'Players guess a number; the closest guess wins.',
};

const TYPES = CREATABLE_BET_TYPES.map((type) => ({
  value: type,
  label: BET_TYPE_RULES[type].name,
}));

type ConfigFieldsProps = BetStepProps & { shown: (field: BetFormField) => string | undefined };

/** The config fields of each bet type, shown under the type picker. */
const CONFIG_FIELDS: Record<CreatableBetType, (props: ConfigFieldsProps) => ReactNode> = {
  yes_no: YesNoLabels,
  multiple_choice: OptionList,
  numeric: () => <p className={styles.hint}>{TYPE_TEXT.numericHint}</p>,
  over_under: LineField,
};

export function BetTypeStep(props: BetStepProps) {
  const { values, errors, touched, onChange } = props;
  const shown = (field: BetFormField) => (touched.has(field) ? errors[field] : undefined);
  const ConfigFields = CONFIG_FIELDS[values.betType];
  return (
    <>
      <SegmentedField
        label={TYPE_TEXT.betType}
        value={values.betType}
        options={TYPES}
        error={shown('betType')}
        onChange={(betType) => onChange({ betType })}
      />
      <ConfigFields {...props} shown={shown} />
    </>
  );
}

function YesNoLabels({ values, onChange, onTouch, shown }: ConfigFieldsProps) {
  return (
    <div className={styles.pair}>
      <TextField
        label={TYPE_TEXT.yesLabel}
        placeholder="Yes"
        value={values.yesLabel}
        maxLength={50}
        error={shown('yesLabel')}
        onChange={(e) => onChange({ yesLabel: e.target.value })}
        onBlur={() => onTouch('yesLabel')}
      />
      <TextField
        label={TYPE_TEXT.noLabel}
        placeholder="No"
        value={values.noLabel}
        maxLength={50}
        error={shown('noLabel')}
        onChange={(e) => onChange({ noLabel: e.target.value })}
        onBlur={() => onTouch('noLabel')}
      />
    </div>
  );
}

function OptionList({ values, onChange, onTouch, shown }: ConfigFieldsProps) {
  const setOption = (index: number, text: string) =>
    onChange({ options: values.options.map((option, i) => (i === index ? text : option)) });
  return (
    <div className={styles.options}>
      {values.options.map((option, index) => (
        <div key={index} className={styles.optionRow}>
          <TextField
            className={styles.optionField}
            label={TYPE_TEXT.option(index + 1)}
            value={option}
            maxLength={100}
            onChange={(e) => setOption(index, e.target.value)}
            onBlur={() => onTouch('options')}
          />
          {canRemoveOption(values.options) && (
            <Button
              variant="ghost"
              size="small"
              className={styles.remove}
              aria-label={TYPE_TEXT.removeOption(index + 1)}
              icon={<X size={16} aria-hidden="true" />}
              onClick={() => onChange({ options: values.options.filter((_, i) => i !== index) })}
            />
          )}
        </div>
      ))}
      {shown('options') && (
        <p className={styles.error} role="alert">
          {shown('options')}
        </p>
      )}
      {canAddOption(values.options) && (
        <Button
          variant="secondary"
          size="small"
          icon={<Plus size={16} aria-hidden="true" />}
          onClick={() => onChange({ options: [...values.options, ''] })}
        >
          {TYPE_TEXT.addOption}
        </Button>
      )}
    </div>
  );
}

function LineField({ values, onChange, onTouch, shown }: ConfigFieldsProps) {
  return (
    <TextField
      label={TYPE_TEXT.line}
      type="number"
      inputMode="decimal"
      step="any"
      placeholder="2.5"
      value={values.line}
      hint={TYPE_TEXT.lineHint}
      error={shown('line')}
      onChange={(e) => onChange({ line: e.target.value })}
      onBlur={() => onTouch('line')}
    />
  );
}
