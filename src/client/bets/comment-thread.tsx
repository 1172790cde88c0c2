import { MessageCircle, Trash2 } from 'lucide-react';
import { canDeleteComment, formatCommentAge } from '../../domain/comments';
import type { GroupRole } from '../../domain/policies/group-policy';
import type { BetRow, CommentRow } from '../data/db';
import { useSession } from '../data/use-session';
import { Avatar } from '../ui/avatar';
import { Card } from '../ui/card';
import { PendingBadge } from '../ui/pending-badge';
import { CommentForm } from './comment-form';
import { openDeleteCommentModal } from './delete-comment-confirm';
import { useBetComments } from './use-comments';
import { useNow } from '../ui/use-now';
import styles from './comment-thread.module.css';

// The thread under a bet: comments oldest first, newest last, each with its
// author (avatar initials and name), when, and a pending mark until the server has it. Drawn
// from the mirror, so it reads offline and moves live. The author or a group admin may delete.

const THREAD_TEXT = {
  heading: 'Comments',
  empty: 'No comments yet. Start the banter.',
  you: 'You',
  delete: 'Delete',
  deleteLabel: (name: string) => `Delete comment by ${name}`,
};

/** A display name's first two words stand in for first and last name (as the members list does). */
function authorPerson(comment: CommentRow) {
  const [firstName, lastName] = comment.userName.trim().split(/\s+/);
  return { firstName, lastName, displayName: comment.userName };
}

/** A bet's thread; `role` is the viewer's in the bet's group now (who may delete what). */
export function CommentThread({ bet, role }: { bet: BetRow; role: GroupRole }) {
  const { user } = useSession();
  const comments = useBetComments(bet.id);
  const now = useNow(30_000);
  const headingId = `comments-${bet.id}`;
  return (
    <section className={styles.thread} aria-labelledby={headingId}>
      <h3 id={headingId} className={styles.heading}>
        <MessageCircle size={18} aria-hidden="true" />
        {THREAD_TEXT.heading}
        {comments && comments.length > 0 && (
          <span className={styles.count}>({comments.length})</span>
        )}
      </h3>
      <Card className={styles.card}>
        {comments && comments.length === 0 && <p className={styles.empty}>{THREAD_TEXT.empty}</p>}
        {comments && comments.length > 0 && (
          <ol className={styles.list} aria-live="polite" aria-relevant="additions">
            {comments.map((comment) => (
              <li key={comment.id} className={styles.comment}>
                <Avatar user={authorPerson(comment)} size="small" />
                <div className={styles.body}>
                  <p className={styles.meta}>
                    <span className={styles.author}>{comment.userName}</span>
                    {comment.userId === user?.id && (
                      <span className={styles.you}>{THREAD_TEXT.you}</span>
                    )}
                    <time
                      className={styles.time}
                      dateTime={comment.createdAt}
                      title={new Date(comment.createdAt).toLocaleString()}
                    >
                      {formatCommentAge(comment.createdAt, now)}
                    </time>
                    <PendingBadge row={comment} />
                  </p>
                  <p className={styles.text}>{comment.text}</p>
                </div>
                {user && canDeleteComment(comment, { userId: user.id, role }) && (
                  <button
                    type="button"
                    className={styles.delete}
                    aria-label={THREAD_TEXT.deleteLabel(comment.userName)}
                    title={THREAD_TEXT.delete}
                    onClick={() => openDeleteCommentModal(comment)}
                  >
                    <Trash2 size={16} aria-hidden="true" />
                  </button>
                )}
              </li>
            ))}
          </ol>
        )}
        <CommentForm betId={bet.id} groupId={bet.groupId} />
      </Card>
    </section>
  );
}
