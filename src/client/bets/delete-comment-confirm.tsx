import type { CommentRow } from '../data/db';
import { openModal } from '../shell/modal-store';
import { ConfirmDialog } from '../shell/confirm-dialog';
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
  return (
    <ConfirmDialog
      body={DELETE_COMMENT_TEXT.body}
      keepLabel={DELETE_COMMENT_TEXT.keep}
      confirmLabel={DELETE_COMMENT_TEXT.confirm}
      busyLabel={DELETE_COMMENT_TEXT.busy}
      onConfirm={async () => {
        await deleteComment(comment);
      }}
      onDone={onDone}
    >
      {comment.text && <blockquote className={styles.quote}>{comment.text}</blockquote>}
    </ConfirmDialog>
  );
}

export function openDeleteCommentModal(comment: CommentRow) {
  openModal({
    title: DELETE_COMMENT_TEXT.title,
    size: 'narrow',
    render: (close) => <DeleteCommentConfirm comment={comment} onDone={close} />,
  });
}
