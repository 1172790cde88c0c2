import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

// One schema for PGlite and PostgreSQL (ARCHITECTURE.md §3, §4). Ids are integers.
// Later features add their tables here and a new migration with `npm run db:generate`.

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  appName: text('app_name').notNull(),
  // Guests have neither email, username nor password (spec 01 §3); emails and usernames are
  // stored lowercased by the domain schemas, so a plain unique index is case-insensitive.
  email: text('email').unique('users_email_unique'),
  username: text('username').unique('users_username_unique'),
  passwordHash: text('password_hash'),
  firstName: text('first_name').notNull().default(''),
  lastName: text('last_name').notNull().default(''),
  displayName: text('display_name').notNull(),
  isTemporary: boolean('is_temporary').notNull().default(false),
  roles: text('roles').array().notNull().default(sql`'{}'::text[]`),
  profilePictureUrl: text('profile_picture_url'),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type UserRow = typeof users.$inferSelect;

// Refresh tokens are stored only as a SHA-256 hash. Every refresh rotates the token within its
// family; presenting a rotated token again revokes the whole family (ARCHITECTURE.md §6).
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
  (table) => [index('refresh_tokens_family_idx').on(table.familyId), index('refresh_tokens_user_idx').on(table.userId)],
);

// Password reset tokens: random, stored hashed, single use, valid one hour.
export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique('password_resets_token_hash_unique'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('password_resets_user_idx').on(table.userId)],
);
