import { CircleDashed } from 'lucide-react';
import {
  measurePassword,
  PASSWORD_RULE_TEXTS,
  type StrengthColour,
} from '../../domain/password-strength';
import styles from './password-strength-meter.module.css';

// Our words for the three colours of docs/accounts-and-shell.md §4, so colour is not the only signal.
const LABELS: Record<StrengthColour, string> = { red: 'Weak', yellow: 'Fair', green: 'Strong' };
const STILL_NEEDED = 'Still needed:';

/**
 * True while the meter lists parts of the rule the typed password still lacks: the list then
 * says what the field's error would, part by part, and the field shows no error of its own.
 */
export function isListingUnmetParts(password: string): boolean {
  return password !== '' && measurePassword(password).unmet.length > 0;
}

/**
 * The strength meter and, as the player types, each part of the sign-up rule still unmet
 * (issue #42): both come from `src/domain/password-strength.ts`, the rule the form's schema
 * asks, so the meter never says "Strong" for a password the form refuses.
 */
export function PasswordStrengthMeter({ password, id }: { password: string; id?: string }) {
  const { score, colour, unmet } = measurePassword(password);
  const rounded = Math.round(score);
  return (
    <div className={styles.strength}>
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
      {isListingUnmetParts(password) && (
        <div id={id} className={styles.unmet}>
          <p className={styles.unmetTitle}>{STILL_NEEDED}</p>
          <ul className={styles.unmetList}>
            {unmet.map((part) => (
              <li key={part}>
                <CircleDashed size={14} aria-hidden="true" />
                {PASSWORD_RULE_TEXTS[part]}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
