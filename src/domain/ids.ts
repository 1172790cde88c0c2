import { z } from './zod';

// Ids are positive integers (ARCHITECTURE.md §4). They arrive as JSON numbers in bodies and as
// numeric strings in route params, query strings and invite links (spec 02 §3 "Invite
// reference": groupId is a string there), so both spellings parse to one number.

/** The largest id: ids are PostgreSQL `integer` columns (2^31 − 1); a bigger one would overflow them. */
export const MAX_ID = 2_147_483_647;

/** A positive integer id up to MAX_ID, from a number or a numeric string; every failure reads `message`. */
export const idSchema = (message: string) =>
  z
    .union(
      [
        z.number({ error: message }),
        z
          .string({ error: message })
          .trim()
          .regex(/^\d{1,15}$/, message)
          .transform(Number),
      ],
      {
        error: message,
      },
    )
    .pipe(z.number().int(message).positive(message).max(MAX_ID, message));
