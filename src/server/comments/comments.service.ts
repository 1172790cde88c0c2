import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Comment, CreateCommentRequest } from '../../domain/comments';
import type { AuthUser } from '../auth/tokens';
import { findBet } from '../bets/bet-queries';
import type { Database, Executor } from '../db/connect';
import { betComments, users } from '../db/schema';
import { commentNotFound } from '../errors';
import type { EventBus } from '../events';
import { requireGroupAccess } from '../groups/group-access';
import { presentComment, type CommentWithAuthor } from './comment.presenter';

// Comments on a bet: only active members of the bet's group read and write them (who may do
// what is groups/group-access.ts's); the author or a group admin deletes one, softly (a tombstone the mirror carries). A comment
// holds its author and text only: no prediction or wager is ever attached (docs/architecture.md §5).
// Events go out after the commit, to the group's room only, with the row's version.

export interface CommentsServiceDeps {
  db: Database;
  events: EventBus;
  now?: () => Date;
}

export type CommentsService = ReturnType<typeof createCommentsService>;

const withAuthor = { comment: betComments, userName: users.displayName };

async function findComment(tx: Executor, commentId: number): Promise<CommentWithAuthor> {
  const [row] = await tx
    .select(withAuthor)
    .from(betComments)
    .innerJoin(users, eq(users.id, betComments.userId))
    .where(eq(betComments.id, commentId))
    .limit(1);
  if (!row) throw commentNotFound();
  return row;
}

export function createCommentsService({ db, events, now = () => new Date() }: CommentsServiceDeps) {
  return {
    /** GET /bets/{id}/comments: the bet's comments, oldest first (deleted ones left out). */
    async listComments(caller: AuthUser, betId: number): Promise<Comment[]> {
      const bet = await findBet(db, betId);
      await requireGroupAccess(db, { userId: caller.id, bet, permission: 'readComments' });
      const rows = await db
        .select(withAuthor)
        .from(betComments)
        .innerJoin(users, eq(users.id, betComments.userId))
        .where(and(eq(betComments.betId, bet.id), isNull(betComments.deletedAt)))
        .orderBy(asc(betComments.createdAt), asc(betComments.id));
      return rows.map(presentComment);
    },

    /** POST /bets/{id}/comments. */
    async postComment(
      caller: AuthUser,
      betId: number,
      input: CreateCommentRequest,
    ): Promise<Comment> {
      const row = await db.transaction(async (tx) => {
        const bet = await findBet(tx, betId);
        await requireGroupAccess(tx, { userId: caller.id, bet, permission: 'comment' });
        const [inserted] = await tx
          .insert(betComments)
          .values({
            betId: bet.id,
            groupId: bet.groupId,
            userId: caller.id,
            text: input.text.trim(),
            createdAt: now(),
          })
          .returning();
        return findComment(tx, inserted!.id);
      });
      const comment = presentComment(row);
      events.publish(
        'commentPosted',
        { ...comment, version: row.comment.version },
        { groupId: comment.groupId },
      );
      return comment;
    },

    /** DELETE /comments/{id}: by its author or a group admin; deleting a deleted comment answers it again. */
    async deleteComment(caller: AuthUser, commentId: number): Promise<Comment> {
      const { row, changed } = await db.transaction(async (tx) => {
        const found = await findComment(tx, commentId);
        await requireGroupAccess(tx, {
          userId: caller.id,
          comment: found.comment,
          permission: 'deleteComment',
        });
        if (found.comment.deletedAt !== null) return { row: found, changed: false };
        await tx
          .update(betComments)
          .set({ text: '', deletedAt: now(), deletedBy: caller.id })
          .where(eq(betComments.id, commentId));
        return { row: await findComment(tx, commentId), changed: true };
      });
      const comment = presentComment(row);
      if (changed)
        events.publish(
          'commentDeleted',
          { ...comment, version: row.comment.version },
          { groupId: comment.groupId },
        );
      return comment;
    },
  };
}
