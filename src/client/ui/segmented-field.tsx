import { useId } from 'react';
import { FieldError } from './field-error';
import styles from './segmented-field.module.css';

interface SegmentedOption<T extends string | number> {
  value: T;
  label: string;
  /** Read to screen readers instead of the label ("$$" → "2 points"). */
  ariaLabel?: string;
}

interface SegmentedFieldProps<T extends string | number> {
  label: string;
  value: T;
  options: readonly SegmentedOption<T>[];
  onChange: (value: T) => void;
  error?: string;
  hint?: string;
}

/** A one-of choice drawn as a row of segments: native radios, so arrow keys and labels work as usual. */
export function SegmentedField<T extends string | number>({
  label,
  value,
  options,
  onChange,
  error,
  hint,
}: SegmentedFieldProps<T>) {
  const name = useId();
  return (
    <fieldset className={styles.field} aria-describedby={error ? `${name}-error` : undefined}>
      <legend className={styles.legend}>{label}</legend>
      <div className={styles.segments}>
        {options.map((option) => (
          <label key={String(option.value)} className={styles.segment}>
            <input
              type="radio"
              name={name}
              className={styles.radio}
              checked={option.value === value}
              onChange={() => onChange(option.value)}
              aria-label={option.ariaLabel}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
      {hint && <p className={styles.hint}>{hint}</p>}
      <FieldError id={`${name}-error`} message={error} />
    </fieldset>
  );
}
