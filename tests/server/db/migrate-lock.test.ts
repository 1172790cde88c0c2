import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromPool, type DatabaseConnection } from '../../../src/server/db/connect';

// Every instance migrates at start (README, "Running at scale"), and drizzle-orm has no
// protection against two runs at once (audit item 19): they raced to create the same tables.
// A PostgreSQL advisory lock makes them take turns.

describe.runIf(process.env.HUNCH_TEST_DB === 'postgres')(
  'migrations started by several instances at once',
  () => {
    const base = process.env.TEST_DATABASE_URL!;
    const name = `hunch_migrate_${process.pid}_${randomBytes(3).toString('hex')}`;
    const connections: DatabaseConnection[] = [];

    beforeAll(async () => {
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
    });
    afterAll(async () => {
      for (const connection of connections) await connection.close();
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    });

    it('all succeed, and the schema is migrated once', async () => {
      const url = new URL(base);
      url.pathname = `/${name}`;
      for (let index = 0; index < 4; index++)
        connections.push(fromPool(new pg.Pool({ connectionString: url.toString(), max: 2 })));
      const results = await Promise.allSettled(
        connections.map((connection) => connection.migrate()),
      );
      expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
      const check = new pg.Client({ connectionString: url.toString() });
      await check.connect();
      try {
        const { rows } = await check.query(
          'select count(*)::int as count, count(distinct hash)::int as distinct from drizzle.__drizzle_migrations',
        );
        expect(rows[0].count).toBe(rows[0].distinct);
        expect(rows[0].count).toBeGreaterThan(5);
      } finally {
        await check.end();
      }
    });
  },
);
