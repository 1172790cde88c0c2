import { CircleAlert, CircleCheck, History } from 'lucide-react';
import type { ReactNode } from 'react';
import styles from './form-alert.module.css';

const ICONS = { error: CircleAlert, success: CircleCheck, info: History };

/** A form's own message (a failed sign-in, a sent reset link, a restored draft), announced when it appears. */
export function FormAlert({
  tone,
  children,
}: {
  tone: 'error' | 'success' | 'info';
  children: ReactNode;
}) {
  const Icon = ICONS[tone];
  return (
    <div className={`${styles.alert} ${styles[tone]}`} role={tone === 'error' ? 'alert' : 'status'}>
      <Icon size={20} aria-hidden="true" className={styles.icon} />
      <div className={styles.body}>{children}</div>
    </div>
  );
}
