import { signedOutError } from '../data/api-client';
import { db as defaultDb, type CommentRow, type HunchDb } from '../data/db';
import { localData as defaultLocalData, type LocalData } from '../data/local-data';
import { sessionStore } from '../data/session';
import type { SessionStore } from '../data/session-store';
import { postCommentMutator, deleteCommentMutator } from '../data/comment-mutators';

// The comment writes the thread calls. Each runs a named mutator through the
// outbox (comment-mutators.ts, data/outbox.ts): the change shows at once in the mirror, marked
// pending, and is sent now or when the network returns. A refusal rejects with the server's
// message (the thread shows it) and the change is rolled back.

export interface CommentActionsDeps {
  db?: HunchDb;
  session?: Pick<SessionStore, 'user'>;
  local?: Pick<LocalData, 'run' | 'outbox'>;
}

/** How a write ended for the thread: sent, or queued until the network returns (the outbox has said so). */
export type CommentWriteStatus = 'sent' | 'queued';

export function createCommentActions({
  db = defaultDb,
  session = sessionStore,
  local = defaultLocalData,
}: CommentActionsDeps = {}) {
  const requireUser = () => {
    if (!session.user) throw signedOutError();
  };

  return {
    /** POST /bets/{id}/comments: the comment shows at the end of the thread at once. */
    async postComment(betId: number, text: string): Promise<CommentWriteStatus> {
      requireUser();
      const result = await local.run(postCommentMutator, {
        tempId: local.outbox.tempId(),
        betId,
        text,
      });
      return result.status;
    },

    /**
     * DELETE /comments/{id}. A comment never sent yet is simply taken back (its write is
     * discarded); one on its way is deleted right after it arrives.
     */
    async deleteComment(comment: CommentRow): Promise<CommentWriteStatus> {
      requireUser();
      if (comment.id < 0 && comment.pendingWriteId) {
        await local.outbox.discard(comment.pendingWriteId);
        if (!(await db.comments.get(comment.id))) return 'sent';
      }
      const result = await local.run(deleteCommentMutator, { commentId: comment.id });
      return result.status;
    },
  };
}

const actions = createCommentActions();
export const postComment = actions.postComment;
export const deleteComment = actions.deleteComment;
