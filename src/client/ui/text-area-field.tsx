import type { ReactNode, Ref, TextareaHTMLAttributes } from 'react';
import { FieldFrame, useFieldIds } from './field-frame';
import styles from './field.module.css';

export interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  error?: string;
  hint?: ReactNode;
  ref?: Ref<HTMLTextAreaElement>;
}

/** A multi-line TextField: label above, hint and error under it. */
export function TextAreaField({
  label,
  error,
  hint,
  id,
  className,
  ref,
  rows = 3,
  ...textarea
}: TextAreaFieldProps) {
  const { inputId, describedBy } = useFieldIds(id, hint, error);
  return (
    <FieldFrame inputId={inputId} label={label} hint={hint} error={error} className={className}>
      <textarea
        ref={ref}
        id={inputId}
        rows={rows}
        className={`${styles.input} ${styles.textarea}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...textarea}
      />
    </FieldFrame>
  );
}
