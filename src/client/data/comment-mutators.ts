import type { Comment } from '../../domain/comments';
import type { CommentRow } from '../data/db';
import { withoutMark, type Mutator } from '../data/mutators';

// The comment writes as named mutators (data/mutators.ts, docs/architecture.md §8): what each
// pushes and how it shows at once in the mirror. apply() runs again on top of the server's rows after
// every pull while the write waits, so it reads the rows as they are then and never assumes.

export interface AddCommentArgs {
  /** The comment's temporary id until the server numbers it. */
  tempId: number;
  /** The bet (a temporary id too when the bet was created offline). */
  betId: number;
  text: string;
}

export interface DeleteCommentArgs {
  /** A temporary id when the comment is still on its way: the delete is sent after it. */
  commentId: number;
}

/** The comment shows at once at the end of the thread, marked pending. */
export const postCommentMutator: Mutator<AddCommentArgs, Comment> = {
  name: 'postComment',
  texts: {
    queued: "You're offline. Your comment will be sent when you're back.",
    refused: "Your comment wasn't posted. Please try again.",
    label: 'Comment',
    refusedAs: (bet) => `Your comment on ${bet} wasn't posted`,
  },
  betIdOf: ({ betId }) => betId,
  describe: ({ text }) => (text.length > 40 ? `${text.slice(0, 39)}…` : text),
  push: ({ betId, text }) => ({ params: { id: betId }, body: { text } }),
  async apply({ tempId, betId, text }, context) {
    const id = context.idFor(tempId);
    // Once numbered, the server's row (if a pull or an event brought it) is the truth.
    if (id > 0 && (await context.db.comments.get(id))) return;
    const bet = await context.db.bets.get(context.idFor(betId));
    if (!bet) return;
    const row: CommentRow = {
      id,
      betId: bet.id,
      groupId: bet.groupId,
      userId: context.userId,
      userName: context.userName,
      text: text.trim(),
      createdAt: context.now,
      deletedAt: null,
    };
    await context.put('comments', row);
  },
  numbered: ({ tempId }, comment) => [tempId, comment.id],
};

/** The comment leaves the thread at once (a tombstone); a refusal brings it back. */
export const deleteCommentMutator: Mutator<DeleteCommentArgs, Comment> = {
  name: 'deleteComment',
  texts: {
    queued: "You're offline. The comment will be deleted when you're back.",
    refused: "The comment wasn't deleted. Please try again.",
    label: 'Deleted comment',
  },
  push: ({ commentId }) => ({ params: { commentId } }),
  async apply({ commentId }, context) {
    const comment = await context.db.comments.get(context.idFor(commentId));
    if (!comment || comment.deletedAt) return;
    await context.put('comments', {
      ...withoutMark(comment),
      text: '',
      deletedAt: context.now,
    });
  },
};

export const COMMENT_MUTATORS = [postCommentMutator, deleteCommentMutator] as const;
