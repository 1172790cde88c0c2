import { z } from './zod';
import { COMMENT_LIMITS, COMMENT_MESSAGES } from '../comments';
import { idSchema } from './ids';

// The wire shapes of comments (rules and types: comments.ts).

/** The text as stored: trimmed, 1–500 characters (line breaks allowed). */
const commentTextSchema = z
  .string({ error: COMMENT_MESSAGES.textRequired })
  .trim()
  .min(1, COMMENT_MESSAGES.textRequired)
  .max(COMMENT_LIMITS.textMax, COMMENT_MESSAGES.textMax);

export const createCommentRequestSchema = z.strictObject({ text: commentTextSchema });

export const commentIdParamsSchema = z.object({
  commentId: idSchema(COMMENT_MESSAGES.commentRequired),
});

export const commentSchema = z.object({
  id: z.number().int(),
  betId: z.number().int(),
  groupId: z.number().int(),
  userId: z.number().int(),
  /** The author's display name now (also after they left the group). */
  userName: z.string(),
  /** Empty once deleted. */
  text: z.string(),
  createdAt: z.string(),
  /** Set once the author or a group admin deleted it. */
  deletedAt: z.string().nullable(),
});

/** A comment with the version of its row (mirror.ts): the mirror and the socket events carry it. */
export const versionedCommentSchema = commentSchema.extend({ version: z.number().int() });
