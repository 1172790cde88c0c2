import { MessageCircle } from 'lucide-react';
import styles from './comment-thread.module.css';

// A bet's comment count on its cards: an icon and the number; screen readers
// hear "3 comments". `hideZero` keeps lists quiet for bets nobody has talked about yet.

const commentCountLabel = (count: number) => `${count} ${count === 1 ? 'comment' : 'comments'}`;

export function CommentCount({
  count,
  hideZero = false,
}: {
  /** undefined while it is being read. */
  count: number | undefined;
  hideZero?: boolean;
}) {
  if (count === undefined || (hideZero && count === 0)) return null;
  const label = commentCountLabel(count);
  return (
    <span className={styles.commentCount} title={label} data-testid="comment-count">
      <MessageCircle size={14} aria-hidden="true" />
      <span aria-hidden="true">{count}</span>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
