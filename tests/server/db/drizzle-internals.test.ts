import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseConnection } from '../../../src/server/db/connect';
import { assertRebindable, onClient, sessionOf } from '../../../src/server/db/drizzle-internals';
import { users } from '../../../src/server/db/schema';
import { openTestDatabase } from '../harness';

// The Drizzle internals src/server/db/drizzle-internals.ts relies on, checked on the installed
// drizzle-orm with this project's driver (PGlite, or PostgreSQL in server-postgres). A failure
// here means an upgrade moved them: prepared statements would throw, or run outside their
// transaction; fix drizzle-internals.ts (or prepare per executor) before upgrading.

const UPGRADED = 'drizzle-orm changed an internal that src/server/db/drizzle-internals.ts uses';

let database: DatabaseConnection;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const nameById = (executor: Parameters<typeof sessionOf>[0]) =>
  executor
    .select({ displayName: users.displayName })
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare('drizzleInternalsNameById');

describe('Drizzle internals', () => {
  it('an executor’s _.session holds the client its statements run on', () => {
    const { db } = database;
    // drizzle() gives its database's client publicly ($client; the Database type drops it): the
    // session must hold that very one.
    const { $client } = db as unknown as { $client: unknown };
    expect(sessionOf(db).client, `${UPGRADED}: _.session.client`).toBe($client);
  });

  it('a transaction’s session holds its own client', async () => {
    await database.db.transaction(async (tx) => {
      expect(sessionOf(tx).client, `${UPGRADED}: a transaction's _.session.client`).not.toBe(
        sessionOf(database.db).client,
      );
    });
  });

  it('a prepared query keeps its client in `client` and runs on whatever client that says', async () => {
    const { db } = database;
    const [row] = await db
      .insert(users)
      .values({ appName: 'hunch', displayName: 'Outside', isTemporary: true })
      .returning({ id: users.id });
    const id = row!.id;
    const template = nameById(db);
    expect(() => assertRebindable(template, db), `${UPGRADED}: PreparedQuery.client`).not.toThrow();

    await expect(
      db.transaction(async (tx) => {
        await tx.update(users).set({ displayName: 'Inside' }).where(eq(users.id, id));
        // Run on the transaction's client, the statement prepared on the database sees the
        // transaction's uncommitted write: execute() reads `this.client`.
        const inside = await onClient(template, sessionOf(tx).client).execute({ id });
        expect(inside, `${UPGRADED}: PreparedQuery.execute reads this.client`).toEqual([
          { displayName: 'Inside' },
        ]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    // The template itself still runs on the database.
    expect(await template.execute({ id })).toEqual([{ displayName: 'Outside' }]);
  });

  it('says which internal moved when one is gone', () => {
    expect(() => sessionOf({} as never)).toThrow(/_\.session: a drizzle-orm upgrade changed it/);
    expect(() => assertRebindable({}, database.db)).toThrow(/keep their client in `client`/);
  });
});
