import { useId, useState, type ReactNode } from 'react';
import { FieldError } from './field-error';
import styles from './value-selector.module.css';

// docs/groups-and-bets.md §2, §5 "Wager value selector": preset buttons, a custom button marked "?", a label
// (default prefix "Wager Amount:"), a custom number input ("Enter amount"); minimum 1 by
// default ("Value must be at least 1"), an optional required check with its own message; the
// smallest preset is the default selection (the caller passes it as the initial value). A
// caller whose rules allow only the presets turns the custom amount off (`allowCustom`).

const VALUE_SELECTOR_TEXT = {
  label: 'Wager Amount:',
  custom: '?',
  customLabel: 'Custom amount',
  placeholder: 'Enter amount',
  min: (min: number) => `Value must be at least ${min}`,
  required: 'Value is required',
};

export interface ValuePreset {
  label: string;
  value: number;
}

/** Why a value cannot be chosen, or null (the rules of docs/groups-and-bets.md §5). */
export function valueSelectorError(
  value: number | null,
  { min = 1, required = true, requiredMessage = VALUE_SELECTOR_TEXT.required } = {},
): string | null {
  if (value === null || !Number.isFinite(value)) return required ? requiredMessage : null;
  return value < min ? VALUE_SELECTOR_TEXT.min(min) : null;
}

/** The smallest preset: the default selection. */
export function defaultPreset(presets: readonly ValuePreset[]): number | null {
  return presets.length === 0 ? null : Math.min(...presets.map((preset) => preset.value));
}

interface ValueSelectorProps {
  presets: readonly ValuePreset[];
  value: number | null;
  onChange: (value: number | null) => void;
  label?: string;
  min?: number;
  required?: boolean;
  requiredMessage?: string;
  disabled?: boolean;
  /** What follows the label: the chosen value in words, e.g. points with the coin mark. */
  summary?: ReactNode;
  /** False where only the presets are allowed (a wager's 1x, 2x or 3x): no "?" is offered. */
  allowCustom?: boolean;
}

export function ValueSelector({
  presets,
  value,
  onChange,
  label = VALUE_SELECTOR_TEXT.label,
  min = 1,
  required,
  requiredMessage,
  disabled,
  summary,
  allowCustom = true,
}: ValueSelectorProps) {
  const id = useId();
  const isPreset = value !== null && presets.some((preset) => preset.value === value);
  const [isCustom, setIsCustom] = useState(() => allowCustom && value !== null && !isPreset);
  const [text, setText] = useState(() => (value !== null && !isPreset ? String(value) : ''));
  const [isTouched, setIsTouched] = useState(false);
  const error =
    isCustom && isTouched ? valueSelectorError(value, { min, required, requiredMessage }) : null;

  return (
    <fieldset className={styles.selector} disabled={disabled}>
      <legend className={styles.legend}>
        <span>{label}</span> {summary}
      </legend>
      <div className={styles.options}>
        {presets.map((preset) => (
          <button
            key={preset.value}
            type="button"
            className={styles.option}
            aria-pressed={!isCustom && value === preset.value}
            onClick={() => {
              setIsCustom(false);
              onChange(preset.value);
            }}
          >
            {preset.label}
          </button>
        ))}
        {allowCustom && (
          <button
            type="button"
            className={styles.option}
            aria-pressed={isCustom}
            aria-label={VALUE_SELECTOR_TEXT.customLabel}
            onClick={() => {
              setIsCustom(true);
              const parsed = text.trim() === '' ? null : Number(text);
              onChange(parsed);
            }}
          >
            {VALUE_SELECTOR_TEXT.custom}
          </button>
        )}
      </div>
      {isCustom && (
        <div className={styles.custom}>
          <label htmlFor={id} className="visually-hidden">
            {VALUE_SELECTOR_TEXT.customLabel}
          </label>
          <input
            id={id}
            className={styles.input}
            type="number"
            inputMode="numeric"
            min={min}
            step={1}
            placeholder={VALUE_SELECTOR_TEXT.placeholder}
            value={text}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(event) => {
              setText(event.target.value);
              onChange(event.target.value.trim() === '' ? null : Number(event.target.value));
            }}
            onBlur={() => setIsTouched(true)}
          />
          <FieldError id={`${id}-error`} message={error ?? undefined} />
        </div>
      )}
    </fieldset>
  );
}
