import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, xid8, changeColumns } from './schema-columns';
import { users } from './accounts-schema';

// ---- groups (docs/groups-and-bets.md §3, docs/architecture.md §4) ----

export const groups = pgTable(
  'groups',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description'),
    privacy: text('privacy', { enum: ['public', 'private'] }).notNull(),
    // Private groups only: joining one by id needs this code (docs/groups-and-bets.md §3, §4).
    inviteCode: text('invite_code'),
    defaultPoints: integer('default_points').notNull(),
    // "Nobody is out of the game": on by default, an admin can turn it off.
    floorTopUp: boolean('floor_top_up').notNull().default(true),
    // The base amounts its bets choose from, $ / $$ / $$$ (src/domain/stakes.ts STAKE_TIER_SETS).
    stakeTiers: integer('stake_tiers')
      .array()
      .notNull()
      .default(sql`'{1,2,3}'`),
    createdByUserId: integer('created_by_user_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    ...changeColumns(),
  },
  (table) => [
    // Joining a public group is by name, so public names are unique case-insensitively
    // (docs/architecture.md §4); private groups may share names.
    uniqueIndex('groups_public_name_unique')
      .on(sql`lower(${table.name})`)
      .where(sql`${table.privacy} = 'public'`),
    check('groups_privacy_check', sql`${table.privacy} in ('public', 'private')`),
    check(
      'groups_invite_code_check',
      sql`(${table.privacy} = 'private') = (${table.inviteCode} is not null)`,
    ),
    check('groups_default_points_check', sql`${table.defaultPoints} > 0`),
    check(
      'groups_stake_tiers_check',
      sql`${table.stakeTiers} in ('{1,2,3}', '{5,10,15}', '{10,20,30}')`,
    ),
  ],
);
export type GroupRow = typeof groups.$inferSelect;

// One row per user and group, kept when the user leaves (left_at) so joining again restores
// the points and never grants them twice (docs/architecture.md §4).
export const memberships = pgTable(
  'memberships',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['member', 'admin'] })
      .notNull()
      .default('member'),
    totalPoints: integer('total_points').notNull(),
    availablePoints: integer('available_points').notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
    leftAt: timestamp('left_at', { withTimezone: true }),
    // Set when an admin removed the member (left_at is set too): they may not join again by
    // themself, by name, link or code, until an admin adds them back, which clears it.
    removedAt: timestamp('removed_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    ...changeColumns(),
    // The change stamp other members' mirrors read (migration 0017's trigger): it moves only with
    // what they may see (total points, role, leaving, name), never with available points alone,
    // so a wager does not send the wagerer's row to the group next to the bet's new totals.
    publicVersion: bigint('public_version', { mode: 'number' }).notNull().default(0),
    publicChangeTxid: xid8('public_change_txid')
      .notNull()
      .default(sql`pg_current_xact_id()`),
  },
  (table) => [
    primaryKey({ columns: [table.groupId, table.userId] }),
    index('memberships_user_idx').on(table.userId),
    index('memberships_group_change_idx').on(table.groupId, table.changeTxid),
    index('memberships_group_public_change_idx').on(table.groupId, table.publicChangeTxid),
    // The floor top-up job looks for members low on available points, not through every membership.
    index('memberships_available_idx')
      .on(table.availablePoints)
      .where(sql`${table.leftAt} is null`),
    check('memberships_role_check', sql`${table.role} in ('member', 'admin')`),
    // Points held in open wagers (total − available) are never negative. Available points may
    // be: a re-resolution takes back winnings the winner already wagered again (a debt that
    // payouts, refunds, the floor top-up or a season's reset fill).
    check('memberships_points_check', sql`${table.availablePoints} <= ${table.totalPoints}`),
  ],
);
export type MembershipRow = typeof memberships.$inferSelect;
