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
import { commentsPerUserRule, rateLimitHook } from '../rate-limits';
import type { CommentsService } from './comments.service';

// The comment calls under /api. Every route is for signed-in users (401 before
// the body is parsed); each declares its schemas from src/domain and calls one service
// function. Posting is limited per user (RATE_LIMIT_COMMENTS_PER_USER) on top of the writes limit.

export interface CommentsRoutesOptions {
  comments: CommentsService;
  rateLimits: RateLimits;
}

export async function commentsRoutes(
  instance: FastifyInstance,
  { comments, rateLimits }: CommentsRoutesOptions,
) {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  requireSignIn(app);
  const commentsPerUser = rateLimitHook(app, commentsPerUserRule(rateLimits));

  app.get(
    '/bets/:id/comments',
    { schema: { params: betIdParamsSchema, response: { 200: z.array(commentSchema) } } },
    async (request) => comments.listComments(currentUser(request), request.params.id),
  );

  app.post(
    '/bets/:id/comments',
    {
      onRequest: commentsPerUser,
      schema: {
        params: betIdParamsSchema,
        body: createCommentRequestSchema,
        response: { 201: commentSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await comments.postComment(currentUser(request), request.params.id, request.body)),
  );

  app.delete(
    '/comments/:commentId',
    { schema: { params: commentIdParamsSchema, response: { 200: commentSchema } } },
    async (request) => comments.deleteComment(currentUser(request), request.params.commentId),
  );
}
