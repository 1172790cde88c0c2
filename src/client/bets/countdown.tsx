import { Clock } from 'lucide-react';
import { betStateWords } from '../../domain/bet-outcome';
import { COUNTDOWN, countdownTone, formatCountdown } from '../../domain/bet-lists';
import { useNow } from '../ui/use-now';
import styles from './countdown.module.css';

// docs/groups-and-bets.md §4, §9: ticks every 1 s; success above 24 h, warning within 24 h, error within 1 h
// or once ended; "Expired" when ended; seconds only in the last minute. The tone is also
// spoken in words for screen readers (colour is never the only signal). No aria-live: a
// region announcing every second would drown everything else out.

const ENDED = 'Expired';
/** Betting closed before the expiry: its picks were shown (a resolution since undone). */
const CLOSED = 'Closed';
/**
 * The expiry in the title as `Date#toLocaleString()` words it (its defaults: date and time to
 * the second), from one formatter: that call builds a formatter each time, on every card.
 */
const EXPIRY_TITLE = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

export function Countdown({
  expiresAt,
  picksRevealedAt,
  className,
}: {
  expiresAt: string;
  picksRevealedAt?: string | null;
  className?: string;
}) {
  const now = useNow(COUNTDOWN.tickMs);
  const end = Date.parse(expiresAt);
  // An unparsable date counts as not expired (docs/groups-and-bets.md §4): show no time rather than "Expired".
  if (!Number.isFinite(end)) return null;
  const left = end - now;
  const text = picksRevealedAt && left > 0 ? CLOSED : formatCountdown(left);
  const isOver = text === ENDED || text === CLOSED;
  // Beside the label, in players' words: nobody may bet any more, the result is still to come.
  const words = isOver
    ? betStateWords({ state: 'active', expiresAt, picksRevealedAt }, now, null)
    : null;
  const pill = (
    <span
      className={[styles.countdown, styles[isOver ? 'error' : countdownTone(left)], className]
        .filter(Boolean)
        .join(' ')}
    >
      <Clock size={14} aria-hidden="true" />
      <time dateTime={new Date(end).toISOString()} title={EXPIRY_TITLE.format(end)}>
        {isOver ? (
          text
        ) : (
          <>
            <span className="visually-hidden">Closes in </span>
            {text}
          </>
        )}
      </time>
    </span>
  );
  if (!words) return pill;
  return (
    <>
      {pill}
      <span className={styles.words}>{words}</span>
    </>
  );
}
