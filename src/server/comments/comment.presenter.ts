import type { Comment } from '../../domain/comments';
import type { BetCommentRow } from '../db/schema';
import { isoTime } from '../iso-time';

// Never send a database row (docs/conventions.md): a comment as src/domain/comments.ts shapes it.
// Every field is named here, so nothing else of the row (or of its bet's wagers) can leak.

/** A comment row with its author's display name. */
export interface CommentWithAuthor {
  comment: BetCommentRow;
  userName: string;
}

export function presentComment({ comment, userName }: CommentWithAuthor): Comment {
  return {
    id: comment.id,
    betId: comment.betId,
    groupId: comment.groupId,
    userId: comment.userId,
    userName,
    // A tombstone keeps nothing of what was said.
    text: comment.deletedAt ? '' : comment.text,
    createdAt: isoTime(comment.createdAt),
    deletedAt: comment.deletedAt ? isoTime(comment.deletedAt) : null,
  };
}
