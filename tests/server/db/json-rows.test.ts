import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseConnection } from '../../../src/server/db/connect';
import { rowsFromJson } from '../../../src/server/db/json-rows';
import { users } from '../../../src/server/db/schema';
import { openTestDatabase } from '../harness';

// rowsFromJson: many rows inserted through one JSON parameter, each value taking its column's
// type, and every column no row gives taking the default Drizzle's `.values()` would give it.

let database: DatabaseConnection;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('rowsFromJson', () => {
  it('inserts every row with its columns’ types, and the defaults of the columns left out', async () => {
    const createdAt = new Date('2026-11-28T01:02:03.456Z');
    const inserted = await database.db
      .insert(users)
      .select(
        rowsFromJson(users, [
          { appName: 'hunch', displayName: 'Ann “quoted” \\ back', isTemporary: true, createdAt },
          { appName: 'hunch', displayName: 'Ben', isTemporary: false, createdAt },
        ]),
      )
      .returning();
    expect(inserted).toHaveLength(2);
    const [ann, ben] = inserted;
    expect(ann!.displayName).toBe('Ann “quoted” \\ back');
    expect([ann!.isTemporary, ben!.isTemporary]).toEqual([true, false]);
    expect(ann!.createdAt.toISOString()).toBe(createdAt.toISOString());
    // Left out: a serial id, a text default, an array default, a nullable column.
    expect(ben!.id).toBeGreaterThan(ann!.id);
    const [plain] = await database.db
      .insert(users)
      .values({ appName: 'hunch', displayName: 'Plain' })
      .returning();
    for (const row of [ann!, ben!]) {
      expect(row.firstName).toBe(plain!.firstName);
      expect(row.roles).toEqual(plain!.roles);
      expect(row.email).toBeNull();
    }
    await database.db.delete(users).where(inArray(users.id, [ann!.id, ben!.id, plain!.id]));
  });

  it('gives null where a row leaves out a nullable column the others give', async () => {
    const [withEmail, without] = await database.db
      .insert(users)
      .select(
        rowsFromJson(users, [
          { appName: 'hunch', displayName: 'Cat', email: 'cat@example.com' },
          { appName: 'hunch', displayName: 'Dan' },
        ]),
      )
      .returning();
    expect(withEmail!.email).toBe('cat@example.com');
    expect(without!.email).toBeNull();
    await database.db.delete(users).where(inArray(users.id, [withEmail!.id, without!.id]));
  });

  it('refuses rows that disagree on a column with a default', () => {
    expect(() =>
      rowsFromJson(users, [
        { appName: 'hunch', displayName: 'Eve', isTemporary: true },
        { appName: 'hunch', displayName: 'Fay' },
      ]),
    ).toThrow(/is_temporary/);
  });
});
