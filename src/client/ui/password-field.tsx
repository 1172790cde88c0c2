import { Eye, EyeOff } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import type { TextFieldProps } from './text-field';
import { FieldError } from './field-error';
import styles from './field.module.css';

interface PasswordFieldProps extends Omit<TextFieldProps, 'type' | 'hint'> {
  /** Under the input, above the error: the register form's strength meter. */
  meter?: ReactNode;
  /** The id of what the meter says the password still needs, while it says something. */
  meterDescriptionId?: string | undefined;
}

/** A password input with a show/hide toggle (docs/accounts-and-shell.md §2, login page). */
export function PasswordField({
  label,
  error,
  meter,
  meterDescriptionId,
  id,
  className,
  ref,
  ...input
}: PasswordFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const [isVisible, setIsVisible] = useState(false);
  return (
    <div className={[styles.field, className].filter(Boolean).join(' ')}>
      <label htmlFor={inputId} className={styles.label}>
        {label}
      </label>
      <div className={styles.control}>
        <input
          ref={ref}
          id={inputId}
          type={isVisible ? 'text' : 'password'}
          className={`${styles.input} ${styles.withToggle}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={
            [meterDescriptionId, error && `${inputId}-error`].filter(Boolean).join(' ') || undefined
          }
          {...input}
        />
        <button
          type="button"
          className={styles.toggle}
          onClick={() => setIsVisible((visible) => !visible)}
          aria-label={isVisible ? 'Hide password' : 'Show password'}
          aria-pressed={isVisible}
          aria-controls={inputId}
        >
          {isVisible ? (
            <EyeOff size={20} aria-hidden="true" />
          ) : (
            <Eye size={20} aria-hidden="true" />
          )}
        </button>
      </div>
      {meter}
      <FieldError id={`${inputId}-error`} message={error} />
    </div>
  );
}
