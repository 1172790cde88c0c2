import { useId, type ReactNode } from 'react';
import { FieldError } from './field-error';
import styles from './field.module.css';

/** The ids a field's control needs: its own, and aria-describedby pointing at the hint and error. */
export function useFieldIds(id: string | undefined, hint: ReactNode, error: string | undefined) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const describedBy =
    [hint && `${inputId}-hint`, error && `${inputId}-error`].filter(Boolean).join(' ') || undefined;
  return { inputId, describedBy };
}

/** The frame every labelled field shares: label above the control, hint and error under it. */
export function FieldFrame(props: {
  inputId: string;
  label: string;
  hint?: ReactNode;
  error?: string;
  className?: string;
  children: ReactNode;
}) {
  const { inputId, label, hint, error, className, children } = props;
  return (
    <div className={[styles.field, className].filter(Boolean).join(' ')}>
      <label htmlFor={inputId} className={styles.label}>
        {label}
      </label>
      {children}
      {hint && (
        <div id={`${inputId}-hint`} className={styles.hint}>
          {hint}
        </div>
      )}
      <FieldError id={`${inputId}-error`} message={error} />
    </div>
  );
}
