import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { createdAt } from './schema-columns';

// Accounts and what signs them in: users, refresh tokens, password resets, email changes, device
// transfers, personal API tokens.

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  appName: text('app_name').notNull(),
  // Guests have neither email, username nor password (docs/accounts-and-shell.md §3); emails and usernames are
  // stored lowercased by the domain schemas, so a plain unique index is case-insensitive.
  email: text('email').unique('users_email_unique'),
  username: text('username').unique('users_username_unique'),
  passwordHash: text('password_hash'),
  firstName: text('first_name').notNull().default(''),
  lastName: text('last_name').notNull().default(''),
  displayName: text('display_name').notNull(),
  isTemporary: boolean('is_temporary').notNull().default(false),
  roles: text('roles')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  profilePictureUrl: text('profile_picture_url'),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  // Set when the player deleted their account: the row stays as a nameless tombstone so the
  // groups' ledgers, wagers and bets keep their owner (src/server/auth/account-data.service.ts).
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
});
export type UserRow = typeof users.$inferSelect;

// Refresh tokens are stored only as a SHA-256 hash. Every refresh rotates the token within its
// family; presenting a rotated token again revokes the whole family (docs/architecture.md §6).
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique('refresh_tokens_token_hash_unique'),
    familyId: text('family_id').notNull(),
    appName: text('app_name').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index('refresh_tokens_family_idx').on(table.familyId),
    index('refresh_tokens_user_idx').on(table.userId),
  ],
);

// Password reset tokens: random, stored hashed, single use, valid one hour, and only while the
// account's email is still the address the link was mailed to (`sent_to`): a link in a mailbox
// the account has left must not take the account over.
export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sentTo: text('sent_to').notNull(),
    tokenHash: text('token_hash').notNull().unique('password_resets_token_hash_unique'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('password_resets_user_idx').on(table.userId)],
);

// A full account's change of email waiting for the new address to confirm it: the link mailed
// there carries a random token, of which only the SHA-256 is kept; valid 24 hours. Its row is
// deleted when it is used, and when a newer change, sign-out everywhere, a password change or
// reset or the account's deletion ends it.
export const emailChanges = pgTable(
  'email_changes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    newEmail: text('new_email').notNull(),
    tokenHash: text('token_hash').notNull().unique('email_changes_token_hash_unique'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('email_changes_user_idx').on(table.userId)],
);

// Move to another device: a one-time sign-in code, `<id>.<secret>`, of which only
// the secret's SHA-256 is kept; valid 10 minutes, single use, revocable. A new code revokes the
// user's earlier ones.
export const deviceTransfers = pgTable(
  'device_transfers',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    secretHash: text('secret_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('device_transfers_user_idx').on(table.userId)],
);

// Personal API tokens (src/server/auth/api-tokens.ts): `hk_` and 32 random bytes, of which only
// the SHA-256 is kept. Revoking one deletes its row; migration 0030 notifies "st<id>" then, so
// every instance forgets it at once (session-liveness.ts). `last_used_at` is written at most once
// a minute per token and instance.
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scopes: text('scopes').array().notNull(),
    tokenHash: text('token_hash').notNull().unique('api_tokens_token_hash_unique'),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /** Null: never. From then on the token answers 401, as a revoked one (api-token-auth.ts). */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index('api_tokens_user_idx').on(table.userId),
    check(
      'api_tokens_scopes_check',
      sql`cardinality(${table.scopes}) > 0 and ${table.scopes} <@ array['read', 'play']`,
    ),
  ],
);
export type ApiTokenRow = typeof apiTokens.$inferSelect;
