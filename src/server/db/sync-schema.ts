import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, xid8 } from './schema-columns';
import { users } from './accounts-schema';

// ---- pushed writes (src/server/sync) ----

// One write path (src/server/sync, docs/architecture.md §8): each device's outbox numbers its
// writes per client (1, 2, 3 …) and pushes them in order; the last number applied is written in
// the same transaction as the write, so a write is applied once whatever is sent again. A client
// group (one per player per device) belongs to one user; its clients are that device's tabs.
export const clientMutations = pgTable(
  'client_mutations',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientGroupId: text('client_group_id').notNull(),
    clientId: text('client_id').notNull(),
    lastMutationId: integer('last_mutation_id').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: 'client_mutations_pk', columns: [table.clientGroupId, table.clientId] }),
    index('client_mutations_user_idx').on(table.userId),
  ],
);
export type ClientMutationRow = typeof clientMutations.$inferSelect;

// What a pull tells a device about its writes besides their numbers: a write the server
// refused (its error, for the message) and a created row's id (a group, a bet, a comment,
// a season), so the device renames its temporary id even when the push's answer was lost.
// Written with the number, in the same transaction; kept 24 hours.
export const clientMutationOutcomes = pgTable(
  'client_mutation_outcomes',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientGroupId: text('client_group_id').notNull(),
    clientId: text('client_id').notNull(),
    mutationId: integer('mutation_id').notNull(),
    createdId: integer('created_id'),
    error: jsonb('error').$type<{ code: string; message: string; status: number }>(),
    createdAt: createdAt(),
    // The writing transaction: a pull sends the outcomes its cursor's snapshot did not see.
    changeTxid: xid8('change_txid')
      .notNull()
      .default(sql`pg_current_xact_id()`),
  },
  (table) => [
    primaryKey({
      name: 'client_mutation_outcomes_pk',
      columns: [table.clientGroupId, table.clientId, table.mutationId],
    }),
    index('client_mutation_outcomes_group_change_idx').on(table.clientGroupId, table.changeTxid),
    index('client_mutation_outcomes_created_at_idx').on(table.createdAt),
    index('client_mutation_outcomes_user_idx').on(table.userId),
  ],
);
