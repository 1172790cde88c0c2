import { measurePassword, type StrengthColour } from '../../domain/password-strength';
import styles from './password-strength-meter.module.css';

// Our words for the three colours of docs/accounts-and-shell.md §4, so colour is not the only signal.
const LABELS: Record<StrengthColour, string> = { red: 'Weak', yellow: 'Fair', green: 'Strong' };

export function PasswordStrengthMeter({ password }: { password: string }) {
  const { score, colour } = measurePassword(password);
  const rounded = Math.round(score);
  return (
    <div className={styles.meter} data-colour={colour}>
      <div
        className={styles.track}
        role="meter"
        aria-label="Password strength"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={rounded}
        aria-valuetext={`${LABELS[colour]} (${rounded} of 100)`}
      >
        <div className={styles.fill} style={{ width: `${score}%` }} />
      </div>
      <span className={styles.label} aria-hidden="true">
        {password ? LABELS[colour] : ''}
      </span>
    </div>
  );
}
