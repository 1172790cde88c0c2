import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseConnection } from '../../src/server/db/connect';
import { prepared, slot } from '../../src/server/db/prepared';
import { users } from '../../src/server/db/schema';
import { openTestDatabase } from './harness';

// db/prepared.ts reaches into Drizzle (a prepared query's `client`, an executor's
// `_.session`): on this project's driver (PGlite, or PostgreSQL in server-postgres), a
// statement built once must run on the database and inside a transaction, with the
// transaction's own connection, so a rollback takes its write back.

let database: DatabaseConnection;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const userById = prepared<Array<{ id: number; displayName: string }>, { id: number }>(
  'testUserById',
  (tx) =>
    tx
      .select({ id: users.id, displayName: users.displayName })
      .from(users)
      .where(eq(users.id, sql.placeholder('id')))
      .limit(1),
);
const renameUser = prepared<Array<{ id: number }>, { id: number; name: string }>(
  'testRenameUser',
  (tx) =>
    tx
      .update(users)
      .set({ displayName: slot<string>('name') })
      .where(eq(users.id, sql.placeholder('id')))
      .returning({ id: users.id }),
);

async function newUser(name: string): Promise<number> {
  const [row] = await database.db
    .insert(users)
    .values({ appName: 'hunch', displayName: name, isTemporary: true })
    .returning({ id: users.id });
  return row!.id;
}

describe('prepared statements', () => {
  it('run on the database with each call’s values, mapped like the builder’s rows', async () => {
    const first = await newUser('First');
    const second = await newUser('Second');
    expect(await userById(database.db, { id: first })).toEqual([
      { id: first, displayName: 'First' },
    ]);
    expect(await userById(database.db, { id: second })).toEqual([
      { id: second, displayName: 'Second' },
    ]);
    expect(await userById(database.db, { id: 999_999 })).toEqual([]);
  });

  it('run inside the caller’s transaction: its writes are seen there and rolled back with it', async () => {
    const id = await newUser('Before');
    await expect(
      database.db.transaction(async (tx) => {
        expect(await renameUser(tx, { id, name: 'Inside' })).toEqual([{ id }]);
        expect(await userById(tx, { id })).toEqual([{ id, displayName: 'Inside' }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await userById(database.db, { id })).toEqual([{ id, displayName: 'Before' }]);
    await database.db.transaction(async (tx) => {
      await renameUser(tx, { id, name: 'Committed' });
    });
    expect(await userById(database.db, { id })).toEqual([{ id, displayName: 'Committed' }]);
  });

  it('refuses a second statement under a name already in use', () => {
    expect(() => prepared('testUserById', (tx) => tx.select().from(users))).toThrow(
      'Two prepared statements are named testUserById',
    );
  });
});
