import {
  Ban,
  CheckCheck,
  Clock,
  Flag,
  History,
  PlusCircle,
  RefreshCw,
  ShieldCheck,
  Undo2,
  type LucideIcon,
} from 'lucide-react';
import { answerLabel } from '../../domain/bet-types';
import { formatCommentAge } from '../../domain/comments';
import type { BetHistoryKind } from '../../domain/fair-resolution';
import type { BetHistoryRow, BetRow } from '../data/db';
import { Card } from '../ui/card';
import { useNow } from '../ui/use-now';
import { useBetHistory } from './use-bet-history';
import styles from './who-picked-what.module.css';

// What happened to the bet, by whom and when (created, resolved, undone, disputed,
// re-resolved, dismissed, cancelled, expired), oldest first, from the mirror (readable offline).

export const HISTORY_TEXT = {
  heading: 'History',
  you: 'you',
  someone: 'a former player',
  line: {
    created: (who: string) => `Created by ${who}`,
    resolved: (who: string, answer: string) => `Resolved as “${answer}” by ${who}`,
    undone: (who: string) => `Result undone by ${who}`,
    disputed: (who: string) => `Disputed by ${who}`,
    re_resolved: (who: string, answer: string) => `Re-resolved as “${answer}” by ${who}`,
    dismissed: (who: string) => `Dispute dismissed by ${who}: the result stands`,
    cancelled: (who: string) => `Cancelled by ${who}`,
    expired: () => 'Expired without a result: every wager was refunded',
  } satisfies Record<BetHistoryKind, (who: string, answer: string) => string>,
};

const ICONS: Record<BetHistoryKind, LucideIcon> = {
  created: PlusCircle,
  resolved: CheckCheck,
  undone: Undo2,
  disputed: Flag,
  re_resolved: RefreshCw,
  dismissed: ShieldCheck,
  cancelled: Ban,
  expired: Clock,
};

export function BetHistoryList({ bet, viewerId }: { bet: BetRow; viewerId: number | undefined }) {
  const entries = useBetHistory(bet.id);
  const now = useNow(30_000);
  const headingId = `history-${bet.id}`;
  if (!entries || entries.length === 0) return null;
  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h3 id={headingId} className={styles.heading}>
        <History size={18} aria-hidden="true" />
        {HISTORY_TEXT.heading}
      </h3>
      <Card>
        <ol className={styles.history}>
          {entries.map((entry) => (
            <HistoryLine key={entry.id} bet={bet} entry={entry} viewerId={viewerId} now={now} />
          ))}
        </ol>
      </Card>
    </section>
  );
}

function HistoryLine({
  bet,
  entry,
  viewerId,
  now,
}: {
  bet: BetRow;
  entry: BetHistoryRow;
  viewerId: number | undefined;
  now: number;
}) {
  const Icon = ICONS[entry.kind];
  const who =
    entry.actorId !== null && entry.actorId === viewerId
      ? HISTORY_TEXT.you
      : (entry.actorName ?? HISTORY_TEXT.someone);
  const answer = entry.correctAnswer === null ? '' : answerLabel(bet, entry.correctAnswer);
  return (
    <li className={styles.entry}>
      <Icon size={16} aria-hidden="true" className={styles.entryIcon} />
      <div className={styles.entryBody}>
        <span className={styles.entryText}>{HISTORY_TEXT.line[entry.kind](who, answer)}</span>
        {entry.reason && <span className={styles.reason}>“{entry.reason}”</span>}
        <time
          className={styles.time}
          dateTime={entry.createdAt}
          title={new Date(entry.createdAt).toLocaleString()}
        >
          {formatCommentAge(entry.createdAt, now)}
        </time>
      </div>
    </li>
  );
}
