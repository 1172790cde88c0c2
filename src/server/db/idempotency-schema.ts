import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt } from './schema-columns';
import { users } from './accounts-schema';

// ---- idempotency keys (docs/architecture.md §4, §8) ----

// The first answer to each (user, Idempotency-Key) REST write, replayed to retries for 24 h
// (src/server/idempotency). Written in the write's own transaction, with its answer: a row
// exists exactly when its write committed (or was refused for good), as a push's mutation ids do.
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    // sha256 of method, path and body: the same key sent with another request is refused (422).
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code').notNull(),
    // The serialized body as it was sent (text, not jsonb, so a replay is byte for byte the same).
    responseBody: text('response_body'),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ name: 'idempotency_keys_pk', columns: [table.userId, table.key] }),
    // The purge of keys older than 24 h scans by age.
    index('idempotency_keys_created_at_idx').on(table.createdAt),
  ],
);
export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;
