import { z } from './zod';

// The one error body every endpoint answers with (ARCHITECTURE.md §6): the client shows
// `message` and branches on the stable snake_case `code`.
export const apiErrorSchema = z.object({
  message: z.string(),
  code: z.string(),
  fieldErrors: z.record(z.string(), z.string()).optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
