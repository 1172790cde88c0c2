import { createHash } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/connect';
import { prepared, slot } from '../db/prepared';
import { idempotencyKeys, type IdempotencyKeyRow } from '../db/schema';
import { idempotencyInProgress, idempotencyKeyReused } from '../errors';

// The store behind the Idempotency-Key header (docs/architecture.md §4): one row per (user, key)
// holding the first answer. Every statement here runs on its own, outside the route's
// transaction, on purpose: the pending row must be visible to a twin request at once (so the
// twin waits instead of applying the write again), and the answer can only be stored once the
// route's transaction has committed.

/** How long a key is remembered (docs/architecture.md §4: kept 24 h). */
const KEY_LIFETIME = sql`interval '24 hours'`;
/**
 * A pending row older than this belongs to a request that died with its process (a crash or
 * a kill between claiming and answering); a retry takes it over rather than waiting 24 h.
 * Far above any real request's duration, and above the twins' wait.
 */
const PENDING_LEASE = sql`interval '60 seconds'`;

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

export type Claim = { kind: 'owner' } | { kind: 'replay'; response: StoredResponse };

export interface ClaimOptions {
  /** How long a twin waits for the first request to finish before answering 409. */
  waitMs: number;
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

// The two statements every write sends (hot: prepared once).
const claimStatement = prepared<Array<{ key: string }>, IdempotencyRequest>(
  'idempotencyClaim',
  (db) =>
    db
      .insert(idempotencyKeys)
      .values({
        userId: slot<number>('userId'),
        key: slot<string>('key'),
        method: slot<string>('method'),
        path: slot<string>('path'),
        requestHash: slot<string>('requestHash'),
        status: 'pending',
      })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key }),
);

const completeStatement = prepared<
  unknown,
  Pick<IdempotencyRequest, 'userId' | 'key'> & {
    statusCode: number;
    body: string | null;
    headers: Record<string, string>;
  }
>('idempotencyComplete', (db) =>
  db
    .update(idempotencyKeys)
    .set({
      status: 'done',
      statusCode: slot<number>('statusCode'),
      responseBody: slot<string | null>('body'),
      responseHeaders: slot<Record<string, string>>('headers'),
      completedAt: sql`now()`,
    })
    .where(
      and(
        eq(idempotencyKeys.userId, sql.placeholder('userId')),
        eq(idempotencyKeys.key, sql.placeholder('key')),
        eq(idempotencyKeys.status, 'pending'),
      ),
    ),
);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function keyOf(request: Pick<IdempotencyRequest, 'userId' | 'key'>) {
  return and(eq(idempotencyKeys.userId, request.userId), eq(idempotencyKeys.key, request.key));
}

function storedResponse(
  row: Pick<IdempotencyKeyRow, 'statusCode' | 'responseBody' | 'responseHeaders'>,
): StoredResponse {
  return {
    statusCode: row.statusCode!,
    body: row.responseBody,
    headers: row.responseHeaders ?? {},
  };
}

/**
 * Claims the key for this request (the caller then runs the route and stores its answer), or
 * returns the first request's answer. A twin still running is waited for, polling with a short
 * backoff; a key reused for another request throws 422, a twin running past the wait 409.
 */
export async function claimIdempotencyKey(
  db: Database,
  request: IdempotencyRequest,
  options: ClaimOptions,
): Promise<Claim> {
  const deadline = Date.now() + options.waitMs;
  let delayMs = 10;
  for (;;) {
    const inserted = await claimStatement(db, request);
    if (inserted.length > 0) return { kind: 'owner' };

    const [row] = await db
      .select({
        requestHash: idempotencyKeys.requestHash,
        status: idempotencyKeys.status,
        statusCode: idempotencyKeys.statusCode,
        responseBody: idempotencyKeys.responseBody,
        responseHeaders: idempotencyKeys.responseHeaders,
        isExpired: sql<boolean>`${idempotencyKeys.createdAt} < now() - ${KEY_LIFETIME}`,
        isAbandoned: sql<boolean>`${idempotencyKeys.status} = 'pending' and ${idempotencyKeys.createdAt} < now() - ${PENDING_LEASE}`,
      })
      .from(idempotencyKeys)
      .where(keyOf(request));
    // Gone between the insert and the select: the first request failed and released it. Claim again.
    if (!row) continue;
    if (row.isExpired) {
      // Forgotten after 24 h, whatever it held; the condition keeps a fresh twin's claim.
      await db
        .delete(idempotencyKeys)
        .where(and(keyOf(request), lt(idempotencyKeys.createdAt, sql`now() - ${KEY_LIFETIME}`)));
      continue;
    }
    if (row.requestHash !== request.requestHash) throw idempotencyKeyReused();
    if (row.status === 'done') return { kind: 'replay', response: storedResponse(row) };
    if (row.isAbandoned) {
      await db
        .delete(idempotencyKeys)
        .where(
          and(
            keyOf(request),
            eq(idempotencyKeys.status, 'pending'),
            lt(idempotencyKeys.createdAt, sql`now() - ${PENDING_LEASE}`),
          ),
        );
      continue;
    }
    if (Date.now() + delayMs > deadline) throw idempotencyInProgress();
    await sleep(delayMs);
    delayMs = Math.min(delayMs * 2, 250);
  }
}

/** Stores the first answer of a claimed key; retries from now on get it back. */
export async function completeIdempotencyKey(
  db: Database,
  request: IdempotencyRequest,
  response: StoredResponse,
): Promise<void> {
  await completeStatement(db, {
    userId: request.userId,
    key: request.key,
    statusCode: response.statusCode,
    body: response.body,
    headers: response.headers,
  });
}

/** Forgets a claimed key whose request failed (5xx, crash), so a retry runs it again. */
export async function releaseIdempotencyKey(
  db: Database,
  request: IdempotencyRequest,
): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(and(keyOf(request), eq(idempotencyKeys.status, 'pending')));
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
