import { useId, type SelectHTMLAttributes } from 'react';
import { FieldError } from './field-error';
import styles from './field.module.css';

export interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  error?: string;
  options: readonly { value: string; label: string }[];
  /** The first, empty choice ("Choose a group"). */
  placeholder?: string;
}

/** A native select with the TextField look: label above, the error under it. */
export function SelectField({
  label,
  error,
  options,
  placeholder,
  id,
  className,
  ...select
}: SelectFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  return (
    <div className={[styles.field, className].filter(Boolean).join(' ')}>
      <label htmlFor={inputId} className={styles.label}>
        {label}
      </label>
      <select
        id={inputId}
        className={`${styles.input} ${styles.select}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${inputId}-error` : undefined}
        {...select}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldError id={`${inputId}-error`} message={error} />
    </div>
  );
}
