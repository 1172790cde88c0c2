import { CircleAlert, CircleCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import styles from './form-alert.module.css';

/** A form's own message (a failed sign-in, a sent reset link), announced when it appears. */
export function FormAlert({ tone, children }: { tone: 'error' | 'success'; children: ReactNode }) {
  const Icon = tone === 'error' ? CircleAlert : CircleCheck;
  return (
    <div className={`${styles.alert} ${styles[tone]}`} role={tone === 'error' ? 'alert' : 'status'}>
      <Icon size={20} aria-hidden="true" className={styles.icon} />
      <div>{children}</div>
    </div>
  );
}
