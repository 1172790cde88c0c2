import styles from './points.module.css';

// Points are always shown with a small coin mark in the accent colour, in tabular figures,
// and with the word "points" where space allows (docs/design.md "Components"). Screen readers
// always hear the word.

/** `toLocaleString('en-US')`'s digits, from one formatter: each call of that builds its own (a list draws hundreds). */
const DIGITS = new Intl.NumberFormat('en-US');

/** A gain or loss as players read it: "+1,240", "−35" (a true minus sign) or "0". */
export function signedPoints(value: number): string {
  const digits = DIGITS.format(Math.abs(value));
  return value > 0 ? `+${digits}` : value < 0 ? `−${digits}` : '0';
}

interface PointsProps {
  value: number;
  /** 'always' shows the word; 'wide' only from 480 px up; 'never' keeps it for screen readers only. */
  word?: 'always' | 'wide' | 'never';
  size?: 'small' | 'medium';
  /**
   * A gain or loss rather than a balance: "+2", "0", "−2" (`signedPoints`). A balance below zero (a
   * re-resolution took back winnings already wagered) shows its true minus too.
   */
  isSigned?: boolean;
  className?: string;
}

export function Points({
  value,
  word = 'always',
  size = 'medium',
  isSigned = false,
  className,
}: PointsProps) {
  return (
    <span className={[styles.points, styles[size], className].filter(Boolean).join(' ')}>
      <CoinMark />
      <span className={styles.value}>
        {isSigned || value < 0 ? signedPoints(value) : DIGITS.format(value)}
      </span>
      <span
        className={
          word === 'always'
            ? styles.word
            : word === 'wide'
              ? `${styles.word} ${styles.wideOnly}`
              : 'visually-hidden'
        }
      >
        {value === 1 ? 'point' : 'points'}
      </span>
    </span>
  );
}

function CoinMark({ size = 14 }: { size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 16 16"
      aria-hidden="true"
      focusable="false"
      className={styles.coin}
    >
      <circle cx="8" cy="8" r="7" fill="var(--color-accent-mark)" />
      <circle
        cx="8"
        cy="8"
        r="4.4"
        fill="none"
        stroke="var(--color-accent-soft)"
        strokeWidth="1.4"
        opacity="0.9"
      />
    </svg>
  );
}
