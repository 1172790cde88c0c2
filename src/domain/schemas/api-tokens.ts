import { z } from './zod';
import { API_TOKEN_LIMITS, API_TOKEN_MESSAGES, API_TOKEN_SCOPES } from '../api-tokens';
import { hasVisibleCharacter, normalizeName } from '../text-rules';
import { idSchema } from './ids';

// Personal API tokens on the wire (the rules: api-tokens.ts).

const scope = z.enum(API_TOKEN_SCOPES);

/** POST /api/tokens: a name to know it by and at least one scope (each once). */
export const createApiTokenRequestSchema = z.strictObject({
  name: z
    .string({ error: API_TOKEN_MESSAGES.nameRequired })
    .overwrite(normalizeName)
    .min(1, { error: API_TOKEN_MESSAGES.nameRequired, abort: true })
    .max(API_TOKEN_LIMITS.nameMax, API_TOKEN_MESSAGES.nameTooLong)
    .refine(hasVisibleCharacter, API_TOKEN_MESSAGES.nameInvisible),
  scopes: z
    .array(scope, { error: API_TOKEN_MESSAGES.scopesRequired })
    .min(1, API_TOKEN_MESSAGES.scopesRequired)
    .max(API_TOKEN_SCOPES.length)
    .transform((scopes) => API_TOKEN_SCOPES.filter((known) => scopes.includes(known))),
  /** Omitted or null: the token never expires. Ahead and a year at most: the server's clock decides (`apiTokenExpiryRefusal`). */
  expiresAt: z.iso
    .datetime({ offset: true, error: API_TOKEN_MESSAGES.expiryInvalid })
    .transform((value) => new Date(value).toISOString())
    .nullish()
    .describe('When the token stops working (ISO 8601, ahead, a year at most); omitted: never.'),
});

export const apiTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  scopes: z.array(scope),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable().describe('When it stops working; null: never.'),
});

export const apiTokenListSchema = z.array(apiTokenSchema);

export const createdApiTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  scopes: z.array(scope),
  token: z.string(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
});

export const apiTokenParamsSchema = z.object({ id: idSchema('Token id must be a number') });
