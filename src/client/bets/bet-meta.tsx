import { UsersRound } from 'lucide-react';
import type { BetRow } from '../data/db';
import { CommentCount } from './comment-count';
import { PendingBadge } from '../ui/pending-badge';
import { Points } from '../ui/points';
import { Countdown } from './countdown';
import { useCommentCount } from './use-comments';
import styles from './bet-card.module.css';

// A bet's line of context (docs/design.md "Cards"): the countdown, the group, the pool, how many have
// wagered and how many comments it has.

export function BetMeta({ bet, groupName }: { bet: BetRow; groupName?: string }) {
  const pool = Object.values(bet.answerTotals ?? {}).reduce((sum, points) => sum + points, 0);
  const commentCount = useCommentCount(bet.id);
  return (
    <div className={styles.meta}>
      {bet.state === 'active' && (
        <Countdown expiresAt={bet.expiresAt} picksRevealedAt={bet.picksRevealedAt} />
      )}
      {groupName && <span className={styles.metaItem}>{groupName}</span>}
      {bet.wagerCount !== undefined && (
        <span className={styles.metaItem}>
          <UsersRound size={14} aria-hidden="true" />
          {bet.wagerCount} {bet.wagerCount === 1 ? 'wager' : 'wagers'}
        </span>
      )}
      {pool > 0 && (
        <span className={styles.metaItem}>
          Pool <Points value={pool} size="small" word="wide" />
        </span>
      )}
      <CommentCount count={commentCount} />
    </div>
  );
}

/**
 * The bet's own pending mark: a bet created, resolved or cancelled on this device and not yet
 * confirmed. An active bet with a server id is only ever marked by the player's wager, which
 * shows its own badge, so the title stays unmarked then.
 */
export function BetPendingBadge({ bet }: { bet: BetRow }) {
  return bet.id < 0 || bet.state !== 'active' ? <PendingBadge row={bet} /> : null;
}
