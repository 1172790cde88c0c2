import { z } from './zod';
import { SYNC_MUTATION_NAMES, SYNC_PUSH_MAX_MUTATIONS, type SyncMutationName } from '../sync';

// One write path (docs/architecture.md §8): POST /api/sync/push carries a device's named
// mutations, in order. Each mutation is one REST write: its `args` are that route's path
// parameters (`params`) and body (`body`), checked by the very schemas the route uses (the
// server declares each write once for both: src/server/writes/writes.ts), so a write means the
// same whichever way it arrives.

const SYNC_MESSAGES = {
  clientId: 'A client id is 1 to 64 letters, digits, "-" or "_".',
  mutationId: 'A mutation id is a positive integer.',
  mutations: 'A push holds 1 to 100 mutations, in increasing id order.',
};

/** A client group (a player's device) or a client (one of its tabs): a random id of its own. */
export const clientIdSchema = z
  .string({ error: SYNC_MESSAGES.clientId })
  .regex(/^[A-Za-z0-9_-]{1,64}$/, SYNC_MESSAGES.clientId);

export const mutationIdSchema = z
  .number({ error: SYNC_MESSAGES.mutationId })
  .int(SYNC_MESSAGES.mutationId)
  .positive(SYNC_MESSAGES.mutationId)
  .max(2 ** 31 - 1, SYNC_MESSAGES.mutationId);

/**
 * POST /api/sync/push. The args are checked per mutation once its turn comes (a bad one is
 * that write's refusal, recorded like any other), not here: one bad write never blocks the
 * writes queued behind it.
 */
export const syncPushRequestSchema = z.strictObject({
  clientGroupID: clientIdSchema,
  clientID: clientIdSchema,
  mutations: z
    .array(
      z.strictObject({
        id: mutationIdSchema,
        name: z.enum(SYNC_MUTATION_NAMES as [SyncMutationName, ...SyncMutationName[]]),
        args: z.unknown(),
      }),
      { error: SYNC_MESSAGES.mutations },
    )
    .min(1, SYNC_MESSAGES.mutations)
    .max(SYNC_PUSH_MAX_MUTATIONS, SYNC_MESSAGES.mutations)
    .refine(
      (mutations) => mutations.every((m, i) => i === 0 || m.id > mutations[i - 1]!.id),
      SYNC_MESSAGES.mutations,
    ),
});
export type SyncPushRequest = z.input<typeof syncPushRequestSchema>;

export const syncMutationErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  status: z.number().int(),
  fieldErrors: z.record(z.string(), z.string()).optional(),
});
export type SyncMutationError = z.infer<typeof syncMutationErrorSchema>;

/**
 * One mutation's outcome: applied (`result`, the REST route's answer), applied before
 * (`skipped`: a replay; a created row's id is in `createdId`, as the pull also says), or
 * refused (`error`, the REST route's refusal; recorded, never run again). A transient stop
 * (`retry`: out of order, or a rate limit with `retryAfter` seconds) ends the push; the
 * mutations after it were not looked at.
 */
export const syncMutationResultSchema = z.object({
  id: z.number().int(),
  ok: z.boolean(),
  result: z.unknown().optional(),
  skipped: z.boolean().optional(),
  createdId: z.number().int().nullable().optional(),
  error: syncMutationErrorSchema.optional(),
  retry: z.boolean().optional(),
  retryAfter: z.number().int().optional(),
});
export type SyncMutationResult = z.infer<typeof syncMutationResultSchema>;

export const syncPushResponseSchema = z.object({
  /** The client's last applied (or refused) mutation id after this push. */
  lastMutationID: z.number().int(),
  results: z.array(syncMutationResultSchema),
});
export type SyncPushResponse = z.infer<typeof syncPushResponseSchema>;

/** What a pull with `clientGroupID` adds: each client's last mutation id, and outcomes not seen yet. */
export const syncPullPartSchema = z.object({
  lastMutationIDChanges: z.record(z.string(), z.number().int()),
  mutationOutcomes: z.array(
    z.object({
      clientID: z.string(),
      id: z.number().int(),
      createdId: z.number().int().nullable(),
      error: syncMutationErrorSchema.nullable(),
    }),
  ),
});
export type SyncPullPart = z.infer<typeof syncPullPartSchema>;
