import { rmSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { normalizeName } from '../../../src/domain/text-rules';
import {
  MIGRATIONS,
  migrationsBefore,
  openEmptyDatabase,
  type EmptyDatabase,
} from './migration-database';

// Group names stored before names were normalised: the migration normalises them as
// normalizeName does, and public ones that then render alike keep apart (the oldest keeps its
// name, the later ones get their id after it), so the unique index on public names holds.

const BEFORE = '0023_group_names_normalised';

const NAMES: Array<[id: number, name: string, privacy: 'public' | 'private']> = [
  [1, 'Caf\u00e9 Crew', 'public'],
  [2, 'Cafe\u0301 Crew', 'public'],
  [3, 'CAF\u00c9\u200B\u00A0Crew', 'public'],
  [4, 'Cafe\u0301  Crew', 'private'],
  [5, ' Dev \u{1F469}\u200D\u{1F4BB}\u2060 team\uFEFF', 'public'],
  [6, '\u200B\u200B\u200B', 'private'],
];

describe('the group-names migration on names stored before it', () => {
  const folder = migrationsBefore(BEFORE);
  let database: EmptyDatabase | undefined;
  afterAll(async () => {
    await database?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('normalises every name and keeps look-alike public names apart', async () => {
    database = await openEmptyDatabase();
    const { rows } = database;
    await database.migrate(folder);
    await rows(sql`
      insert into users (id, app_name, display_name, is_temporary, roles)
      values (1, 'hunch', 'Ada', true, '{}')`);
    for (const [id, name, privacy] of NAMES)
      await rows(sql`
        insert into groups (id, name, privacy, invite_code, default_points, created_by_user_id)
        values (${id}, ${name}, ${privacy}, ${privacy === 'private' ? 'code-123' : null}, 100, 1)`);

    await database.migrate(MIGRATIONS);

    const groups = await rows<{ id: number; name: string }>(
      sql`select id, name from groups order by id`,
    );
    expect(groups).toEqual([
      { id: 1, name: 'Caf\u00e9 Crew' },
      { id: 2, name: 'Caf\u00e9 Crew (2)' },
      { id: 3, name: 'CAF\u00c9 Crew (3)' },
      { id: 4, name: 'Caf\u00e9 Crew' },
      { id: 5, name: 'Dev \u{1F469}\u200D\u{1F4BB} team' },
      { id: 6, name: '\u200B\u200B\u200B' },
    ]);
    // As the domain's rule would have stored them.
    for (const id of [1, 4, 5]) expect(groups[id - 1]!.name).toBe(normalizeName(NAMES[id - 1]![1]));
    // A new look-alike now clashes with the index.
    await expect(
      rows(sql`
        insert into groups (id, name, privacy, default_points, created_by_user_id)
        values (7, 'caf\u00e9 crew', 'public', 100, 1)`),
    ).rejects.toMatchObject({
      cause: expect.objectContaining({ code: '23505', constraint: 'groups_public_name_unique' }),
    });
    // A fresh database migrated step by step: seconds when quiet, far more on a busy machine.
  }, 120_000);
});
