import { REPEAT_LABELS, REPEAT_PERIODS, type RepeatPeriod } from '../../domain/bet-repeats';
import { closeTimeChoices } from '../../domain/close-choices';
import { Button } from '../ui/button';
import { SelectField } from '../ui/select-field';
import { TextField } from '../ui/text-field';
import { toDateTimeLocal, type BetStepFieldProps } from './bet-form-model';
import styles from './create-bet-form.module.css';

// When a bet closes, and whether it comes back (docs/rules.md "Bets that come back"): the
// quick choices before the date-and-time field ("in 1 hour", "tonight 20:00" or "tomorrow
// 20:00", "tomorrow 9:00", in the player's time zone; a choice fills the field), the field, and
// the repeat (every day, week or month, with an optional last day).

const TEXT = {
  quick: 'Quick choices',
  expiresAt: 'Closes at',
  expiresAtHint: 'At most a year ahead.',
  repeat: 'Repeat',
  never: 'Does not repeat',
  repeatHint: 'The next bet opens when this one closes, the same bet at the same time of day.',
  until: 'Last day (optional)',
  untilHint: 'Leave it blank to keep it coming back.',
};

export function BetCloseFields({
  values,
  shown,
  onChange,
  onTouch,
  now,
}: BetStepFieldProps & { now: number }) {
  return (
    <>
      <div className={styles.quickChoices} role="group" aria-label={TEXT.quick}>
        {closeTimeChoices(now).map((choice) => (
          <Button
            key={choice.label}
            variant="secondary"
            size="small"
            aria-pressed={values.expiresAt === toDateTimeLocal(choice.at)}
            onClick={() => {
              onChange({ expiresAt: toDateTimeLocal(choice.at) });
              onTouch('expiresAt');
            }}
          >
            {choice.label}
          </Button>
        ))}
      </div>
      <TextField
        label={TEXT.expiresAt}
        type="datetime-local"
        value={values.expiresAt}
        hint={TEXT.expiresAtHint}
        error={shown('expiresAt')}
        onChange={(event) => onChange({ expiresAt: event.target.value })}
        onBlur={() => onTouch('expiresAt')}
      />
      <SelectField
        label={TEXT.repeat}
        value={values.repeat}
        options={[
          { value: '', label: TEXT.never },
          ...REPEAT_PERIODS.map((every) => ({ value: every, label: REPEAT_LABELS[every] })),
        ]}
        error={shown('repeat')}
        onChange={(event) => onChange({ repeat: event.target.value as '' | RepeatPeriod })}
        onBlur={() => onTouch('repeat')}
      />
      {values.repeat && (
        <>
          <p className={styles.hint}>{TEXT.repeatHint}</p>
          <TextField
            label={TEXT.until}
            type="date"
            value={values.repeatUntil}
            hint={TEXT.untilHint}
            error={shown('repeatUntil')}
            onChange={(event) => {
              onChange({ repeatUntil: event.target.value });
              onTouch('repeatUntil');
            }}
            onBlur={() => onTouch('repeatUntil')}
          />
        </>
      )}
    </>
  );
}
