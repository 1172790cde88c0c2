import { rmSync } from 'node:fs';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import {
  MIGRATIONS,
  migrationsBefore,
  openEmptyDatabase,
  type EmptyDatabase,
} from '../db/migration-database';

// Accounts deleted before a deletion ended memberships stayed current members of their groups
// ("Deleted player" in every member list, some as the last admin). The fair-play migration
// moves them out as a deletion now does: a group left without a live admin gets its
// longest-standing live member as admin, then the tombstones' memberships end.

const BEFORE = '0017_fair_play';

describe('the fair-play migration on accounts deleted before it', () => {
  const folder = migrationsBefore(BEFORE);
  let database: EmptyDatabase | undefined;
  afterAll(async () => {
    await database?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('ends their memberships and gives each group they administered a live admin', async () => {
    database = await openEmptyDatabase();
    const { rows } = database;
    const run = (query: SQL) => rows(query);
    await database.migrate(folder);
    // Users 1 (deleted, created both groups), 2 and 3 live; 4 deleted too. Group 1 has no live
    // admin; group 2 has one (user 3); group 3 has only tombstones.
    await run(sql`
      insert into users (id, app_name, display_name, is_temporary, roles, deleted_at) values
        (1, 'hunch', 'Deleted player', true, '{}', now() - interval '1 day'),
        (2, 'hunch', 'Bo', true, '{}', null),
        (3, 'hunch', 'Cy', true, '{}', null),
        (4, 'hunch', 'Deleted player', true, '{}', now() - interval '2 days')`);
    await run(sql`
      insert into groups (id, name, privacy, default_points, created_by_user_id) values
        (1, 'One', 'public', 100, 1), (2, 'Two', 'public', 100, 1), (3, 'Three', 'public', 100, 4)`);
    await run(sql`
      insert into memberships (group_id, user_id, role, total_points, available_points, joined_at) values
        (1, 1, 'admin', 100, 100, now() - interval '9 days'),
        (1, 3, 'member', 100, 100, now() - interval '7 days'),
        (1, 2, 'member', 100, 100, now() - interval '8 days'),
        (1, 4, 'member', 100, 100, now() - interval '9 days'),
        (2, 1, 'admin', 100, 100, now() - interval '9 days'),
        (2, 2, 'member', 100, 100, now() - interval '8 days'),
        (2, 3, 'admin', 100, 100, now() - interval '7 days'),
        (3, 4, 'admin', 100, 100, now() - interval '9 days')`);

    await database.migrate(MIGRATIONS);

    const memberships = await rows<{
      group_id: number;
      user_id: number;
      role: string;
      is_current: boolean;
    }>(sql`
      select group_id, user_id, role, left_at is null as is_current
      from memberships order by group_id, user_id`);
    expect(memberships).toEqual([
      { group_id: 1, user_id: 1, role: 'member', is_current: false },
      { group_id: 1, user_id: 2, role: 'admin', is_current: true },
      { group_id: 1, user_id: 3, role: 'member', is_current: true },
      { group_id: 1, user_id: 4, role: 'member', is_current: false },
      { group_id: 2, user_id: 1, role: 'member', is_current: false },
      { group_id: 2, user_id: 2, role: 'member', is_current: true },
      { group_id: 2, user_id: 3, role: 'admin', is_current: true },
      { group_id: 3, user_id: 4, role: 'member', is_current: false },
    ]);
    // Their points stay.
    const [points] = await rows<{ total: number }>(
      sql`select sum(total_points)::int as total from memberships`,
    );
    expect(points!.total).toBe(800);
    // A fresh database migrated step by step: seconds when quiet, far more on a busy machine.
  }, 120_000);
});
