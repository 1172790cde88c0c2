import { useState } from 'react';
import { errorMessage } from '../data/api-client';
import type { CommentRow } from '../data/db';
import { OUTBOX_TEXT } from '../data/outbox';
import { openModal } from '../shell/modal-store';
import { Button } from '../ui/button';
import { FormAlert } from '../ui/form-alert';
import { deleteComment } from './comment-actions';
import styles from './comment-thread.module.css';

// Deleting a comment (its author or a group admin) behind a confirmation. It leaves the thread
// at once, for everyone; a refusal brings it back and says why.

const DELETE_COMMENT_TEXT = {
  title: 'Delete this comment?',
  body: 'It disappears for everyone in the group. This cannot be undone.',
  keep: 'Keep it',
  confirm: 'Delete',
  busy: 'Deleting...',
};

function DeleteCommentConfirm({ comment, onDone }: { comment: CommentRow; onDone: () => void }) {
  const [isBusy, setIsBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const confirm = async () => {
    setIsBusy(true);
    setFailure(null);
    try {
      await deleteComment(comment);
      onDone();
    } catch (error) {
      setFailure(errorMessage(error, OUTBOX_TEXT.failed.deleteComment));
      setIsBusy(false);
    }
  };
  return (
    <div className={styles.confirm}>
      {failure && <FormAlert tone="error">{failure}</FormAlert>}
      <p>{DELETE_COMMENT_TEXT.body}</p>
      {comment.text && <blockquote className={styles.quote}>{comment.text}</blockquote>}
      <div className={styles.confirmActions}>
        <Button variant="secondary" onClick={onDone} disabled={isBusy} data-autofocus>
          {DELETE_COMMENT_TEXT.keep}
        </Button>
        <Button
          variant="danger"
          onClick={() => void confirm()}
          isLoading={isBusy}
          loadingText={DELETE_COMMENT_TEXT.busy}
        >
          {DELETE_COMMENT_TEXT.confirm}
        </Button>
      </div>
    </div>
  );
}

export function openDeleteCommentModal(comment: CommentRow) {
  openModal({
    title: DELETE_COMMENT_TEXT.title,
    size: 'narrow',
    render: (close) => <DeleteCommentConfirm comment={comment} onDone={close} />,
  });
}
