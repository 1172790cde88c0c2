import { describe, expect, it } from 'vitest';
import { API_ERROR_CODES, type ApiErrorCode } from '../../src/domain/api-error';
import * as betRefusals from '../../src/server/bet-refusals';
import * as errors from '../../src/server/errors';

// The domain's ApiErrorCode is the server's whole vocabulary. AppError's code is typed with it,
// so a factory with another code does not compile; this checks the same at run time for every
// factory errors.ts (and bet-refusals.ts, the bet policy's part of it) exports, and that the list names no code the server never sends.

const NOT_FACTORIES = new Set(['AppError']);

/** Arguments for the factories that need some; the others are called with none. */
const SAMPLE_ARGUMENTS: Record<string, unknown[]> = {
  upgradeIncomplete: [['email']],
  validationFailed: ['Title is required'],
  invalidPrediction: ['Prediction must be yes or no'],
  invalidAnswer: ['Answer must be yes or no'],
  invalidWagerPoints: [2],
  betClosed: ['expired'],
  betNotActive: ['cancelled'],
  insufficientPoints: [3, 1],
  rateLimited: [30],
  wagerExists: [7],
  betRefusal: ['not_member', 'active'],
  baseNotInTiers: [[5, 10, 15]],
};

/** Codes error-handler.ts and the readiness probe send without a factory. */
const CODES_WITHOUT_FACTORY: ApiErrorCode[] = [
  'invalid_json',
  'unsupported_media_type',
  'invalid_content_length',
  'body_too_large',
  'bad_request',
  'not_ready',
];

const factories = Object.entries({ ...errors, ...betRefusals } as Record<string, unknown>).filter(
  (entry): entry is [string, (...args: unknown[]) => unknown] =>
    typeof entry[1] === 'function' && !NOT_FACTORIES.has(entry[0]),
);

describe('error codes', () => {
  it.each(factories)('%s() sends a code of the domain’s ApiErrorCode', (name, factory) => {
    const error = factory(...(SAMPLE_ARGUMENTS[name] ?? []));
    expect(error).toBeInstanceOf(errors.AppError);
    expect(API_ERROR_CODES).toContain((error as errors.AppError).code);
  });

  it('lists no code the server never sends', () => {
    const sent = new Set<string>([
      ...factories.map(
        ([name, factory]) => (factory(...(SAMPLE_ARGUMENTS[name] ?? [])) as errors.AppError).code,
      ),
      ...CODES_WITHOUT_FACTORY,
    ]);
    expect(API_ERROR_CODES.filter((code) => !sent.has(code))).toEqual([]);
    expect(new Set(API_ERROR_CODES).size).toBe(API_ERROR_CODES.length);
  });
});
