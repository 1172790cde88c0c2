import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import {
  MIGRATIONS,
  migrationsBefore,
  openEmptyDatabase,
  type EmptyDatabase,
} from './migration-database';

// The resolve reminders' schedule starts with the bets already there: every active bet gets its
// row, due at its close or a day after its creator's last resolve reminder, whichever is later;
// a settled bet gets none.

const BEFORE = '0021_resolve_reminders';

describe('the resolve reminders migration on existing bets', () => {
  const folder = migrationsBefore(BEFORE);
  let database: EmptyDatabase | undefined;
  afterAll(async () => {
    await database?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('schedules each active bet at its close or a day after its last reminder', async () => {
    database = await openEmptyDatabase();
    const { rows } = database;
    await database.migrate(folder);
    await rows(sql`
      insert into users (id, app_name, display_name, is_temporary, roles) values
        (1, 'hunch', 'Al', true, '{}'), (2, 'hunch', 'Bo', true, '{}')`);
    await rows(sql`
      insert into groups (id, name, privacy, default_points, created_by_user_id) values
        (1, 'One', 'public', 100, 1)`);
    // 1 open; 2 closed, never reminded; 3 closed, reminded 2 hours ago (and Bo's entry with the
    // same key does not count); 4 resolved; 5 closed and reminded 3 days ago.
    await rows(sql`
      insert into bets (id, group_id, title, bet_type, base_wager_amount, state, expires_at, created_by) values
        (1, 1, 'Open', 'yes_no', 1, 'active', '2030-01-10T12:00:00Z', 1),
        (2, 1, 'Closed', 'yes_no', 1, 'active', '2030-01-01T12:00:00Z', 1),
        (3, 1, 'Reminded', 'yes_no', 1, 'active', '2030-01-01T12:00:00Z', 1),
        (4, 1, 'Resolved', 'yes_no', 1, 'resolved', '2030-01-01T12:00:00Z', 1),
        (5, 1, 'Long ago', 'yes_no', 1, 'active', '2030-01-01T12:00:00Z', 1)`);
    await rows(sql`
      insert into notifications (user_id, kind, group_id, bet_id, key, coalesces, payload, updated_at) values
        (1, 'resolveReminder', 1, 3, 'resolveReminder:bet:3', false, '{}', '2030-01-02T10:00:00Z'),
        (2, 'resolveReminder', 1, 3, 'resolveReminder:bet:3', false, '{}', '2030-01-02T11:30:00Z'),
        (1, 'resolveReminder', 1, 5, 'resolveReminder:bet:5', false, '{}', '2029-12-30T12:00:00Z')`);

    await database.migrate(MIGRATIONS);

    const schedule = await rows<{ bet_id: number; due_at: string }>(sql`
      select bet_id, to_char(due_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI') as due_at
      from resolve_reminders order by bet_id`);
    expect(schedule).toEqual([
      { bet_id: 1, due_at: '2030-01-10T12:00' },
      { bet_id: 2, due_at: '2030-01-01T12:00' },
      { bet_id: 3, due_at: '2030-01-03T10:00' },
      { bet_id: 5, due_at: '2030-01-01T12:00' },
    ]);
  }, 120_000);
});
