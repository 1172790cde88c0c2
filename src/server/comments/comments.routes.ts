import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { betIdParamsSchema } from '../../domain/schemas/bets';
import {
  commentIdParamsSchema,
  commentSchema,
  createCommentRequestSchema,
} from '../../domain/schemas/comments';
import { z } from '../../domain/schemas/zod';
import { currentUser, requireSignIn } from '../auth/authenticate';
import type { RateLimits } from '../config';
import {
  createdRowId,
  registerWrites,
  writeWith,
  type Writes,
  type WriteRunner,
} from '../writes/writes';
import type { CommentsService } from './comments.service';

// The comment calls under /api. Every route is for signed-in users (401 before
// the body is parsed); each declares its schemas from src/domain and calls one service
// function. Posting is limited per user (RATE_LIMIT_COMMENTS_PER_USER) on top of the writes
// limit. The writes serve the push too (src/server/writes/writes.ts).

export interface CommentsRoutesOptions {
  comments: CommentsService;
  writes: WriteRunner;
  rateLimits: RateLimits;
}

const write = writeWith<{ comments: CommentsService }>();

export const COMMENT_WRITES = {
  postComment: write({
    params: betIdParamsSchema,
    body: createCommentRequestSchema,
    response: commentSchema,
    status: 201,
    run: (s, caller, { params, body }) => s.comments.postComment(caller, params.id, body),
    created: createdRowId,
    limit: 'comments',
  }),
  deleteComment: write({
    params: commentIdParamsSchema,
    response: commentSchema,
    run: (s, caller, { params }) => s.comments.deleteComment(caller, params.commentId),
  }),
} satisfies Writes;

export async function commentsRoutes(
  instance: FastifyInstance,
  { comments, writes, rateLimits }: CommentsRoutesOptions,
) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  requireSignIn(app);

  app.get(
    '/bets/:id/comments',
    { schema: { params: betIdParamsSchema, response: { 200: z.array(commentSchema) } } },
    async (request) => comments.listComments(currentUser(request), request.params.id),
  );

  registerWrites(app, COMMENT_WRITES, { runner: writes, rateLimits });
}
