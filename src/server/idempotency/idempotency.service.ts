import { createHash } from 'node:crypto';
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/connect';
import { prepared, slot } from '../db/prepared';
import { idempotencyKeys } from '../db/schema';
import { idempotencyKeyReused } from '../errors';

// The store behind the Idempotency-Key header (docs/architecture.md §4): one row per (user, key)
// holding the first answer, written in the write's own transaction (`recordAnswer`, one
// statement), as a push records a client's mutation id: the write and the record that it
// happened commit together, or neither does. A twin sent meanwhile runs too, then meets the
// row: it waits for the first one's commit on the row's index entry, finds it taken, rolls its
// own run back and replays the first answer (`firstAnswer`).

/** How long a key is remembered (docs/architecture.md §4: kept 24 h). */
const KEY_LIFETIME = sql`interval '24 hours'`;

export interface IdempotencyRequest {
  userId: number;
  key: string;
  method: string;
  path: string;
  requestHash: string;
}

export interface StoredResponse {
  statusCode: number;
  body: string | null;
  headers: Record<string, string>;
}

/** Visible ASCII, 1–255 characters: what a UUID or any client-made token fits, nothing that could smuggle a header. */
export function isValidIdempotencyKey(value: string): boolean {
  return /^[\x21-\x7e]{1,255}$/.test(value);
}

// Keys sorted, so the same JSON sent with its fields in another order is the same request.
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** sha256 of method, path (with its query) and the parsed body. */
export function hashRequest(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method}\n${path}\n${body === undefined ? '' : canonicalJson(body)}`)
    .digest('hex');
}

// The one statement a keyed write adds to its transaction (hot: prepared once). It writes the
// answer, or overwrites a row older than 24 h (a forgotten key); a live row is left as it is and
// nothing is returned: the key answered before.
const recordStatement = prepared<Array<{ key: string }>, IdempotencyRequest & StoredResponse>(
  'idempotencyRecord',
  (db) =>
    db
      .insert(idempotencyKeys)
      .values({
        userId: slot<number>('userId'),
        key: slot<string>('key'),
        method: slot<string>('method'),
        path: slot<string>('path'),
        requestHash: slot<string>('requestHash'),
        statusCode: slot<number>('statusCode'),
        responseBody: slot<string | null>('body'),
        responseHeaders: slot<Record<string, string>>('headers'),
      })
      .onConflictDoUpdate({
        target: [idempotencyKeys.userId, idempotencyKeys.key],
        set: {
          method: sql`excluded.method`,
          path: sql`excluded.path`,
          requestHash: sql`excluded.request_hash`,
          statusCode: sql`excluded.status_code`,
          responseBody: sql`excluded.response_body`,
          responseHeaders: sql`excluded.response_headers`,
          createdAt: sql`excluded.created_at`,
        },
        setWhere: sql`${idempotencyKeys.createdAt} < now() - ${KEY_LIFETIME}`,
      })
      .returning({ key: idempotencyKeys.key }),
);

/**
 * Records the key's answer on `tx`, the transaction of the write it answers: false when the key
 * answered already (a twin committed first, or this is a retry), and then the caller rolls
 * `tx` back and replays `firstAnswer`.
 */
export async function recordAnswer(
  tx: Executor,
  request: IdempotencyRequest,
  response: StoredResponse,
): Promise<boolean> {
  const recorded = await recordStatement(tx, { ...request, ...response });
  return recorded.length > 0;
}

const keyOf = (request: Pick<IdempotencyRequest, 'userId' | 'key'>) =>
  and(eq(idempotencyKeys.userId, request.userId), eq(idempotencyKeys.key, request.key));

/**
 * The answer the key was recorded with, for a retry (undefined when it was forgotten meanwhile:
 * the retry runs as new). A key recorded for another request throws 422.
 */
export async function firstAnswer(
  db: Executor,
  request: IdempotencyRequest,
): Promise<StoredResponse | undefined> {
  const [row] = await db
    .select({
      requestHash: idempotencyKeys.requestHash,
      statusCode: idempotencyKeys.statusCode,
      body: idempotencyKeys.responseBody,
      headers: idempotencyKeys.responseHeaders,
    })
    .from(idempotencyKeys)
    .where(and(keyOf(request), gte(idempotencyKeys.createdAt, sql`now() - ${KEY_LIFETIME}`)));
  if (!row) return undefined;
  if (row.requestHash !== request.requestHash) throw idempotencyKeyReused();
  return { statusCode: row.statusCode, body: row.body, headers: row.headers };
}

/** Deletes keys older than 24 h; returns how many. Uses the created_at index. */
export async function purgeExpiredIdempotencyKeys(db: Database): Promise<number> {
  const deleted = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, sql`now() - ${KEY_LIFETIME}`))
    .returning({ key: idempotencyKeys.key });
  return deleted.length;
}

/** Deletes every stored answer of the user (their account is being deleted), inside the caller's transaction. */
export async function deleteIdempotencyKeysOf(tx: Executor, userId: number): Promise<void> {
  await tx.delete(idempotencyKeys).where(eq(idempotencyKeys.userId, userId));
}
