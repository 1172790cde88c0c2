import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import {
  MIGRATIONS,
  migrationsBefore,
  openEmptyDatabase,
  type EmptyDatabase,
} from './migration-database';

// Reset links mailed before they named their address cannot say where they went: the migration
// ends those still unused and gives every row the account's email of today.

const BEFORE = '0024_reset_links_follow_email';

describe('the reset-links migration on links mailed before it', () => {
  const folder = migrationsBefore(BEFORE);
  let database: EmptyDatabase | undefined;
  afterAll(async () => {
    await database?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('ends the unused links and keeps when the used ones were used', async () => {
    database = await openEmptyDatabase();
    const { rows } = database;
    await database.migrate(folder);
    await rows(sql`
      insert into users (id, app_name, display_name, is_temporary, roles, email)
      values (1, 'hunch', 'Ada', false, '{}', 'ada@example.com')`);
    await rows(sql`
      insert into password_resets (id, user_id, token_hash, expires_at, used_at) values
        (1, 1, 'unused', now() + interval '1 hour', null),
        (2, 1, 'used', now() + interval '1 hour', '2026-01-01T00:00:00Z')`);

    await database.migrate(MIGRATIONS);

    const resets = await rows<{ id: number; sent_to: string; is_used: boolean; used_at: Date }>(
      sql`select id, sent_to, used_at is not null as is_used, used_at from password_resets order by id`,
    );
    expect(resets.map(({ id, sent_to, is_used }) => ({ id, sent_to, is_used }))).toEqual([
      { id: 1, sent_to: 'ada@example.com', is_used: true },
      { id: 2, sent_to: 'ada@example.com', is_used: true },
    ]);
    expect(new Date(resets[1]!.used_at).toISOString()).toBe('2026-01-01T00:00:00.000Z');
    // A fresh database migrated step by step: seconds when quiet, far more on a busy machine.
  }, 120_000);
});
