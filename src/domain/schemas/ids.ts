import { z } from './zod';
import { MAX_ID } from '../ids';

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
