import { CircleAlert } from 'lucide-react';
import styles from './field.module.css';

/** The message under a field; an icon too, so colour is never the only signal. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className={styles.error}>
      <CircleAlert size={14} aria-hidden="true" />
      <span>{message}</span>
    </p>
  );
}
