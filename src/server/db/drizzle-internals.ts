import type { Executor } from './connect';

// The one place this app reaches into Drizzle's internals (for prepared.ts). Drizzle has no
// public way to run a query prepared on one executor on another: `.prepare()` binds the query
// to the client of the executor it was built on, and building it again for each transaction is
// the cost prepared.ts exists to avoid. So a prepared query built once is run on another
// client by overriding its `client` field, taken from the executor's session (`_.session`,
// which holds the pool, a pooled connection in a transaction, PGlite or its transaction).
// Both drivers' prepared queries (node-postgres, PGlite) read `this.client` when they execute.
// Each access is checked here, so a Drizzle that moved them throws at the first statement
// instead of running it outside its transaction; tests/server/db/drizzle-internals.test.ts
// holds the installed Drizzle to all of it.

const UPGRADE_HINT = 'a drizzle-orm upgrade changed it; see src/server/db/drizzle-internals.ts';

export interface ExecutorSession {
  /** The driver's session class: one per driver, the key of a statement's template. */
  driver: unknown;
  /** The client the executor's statements run on. */
  client: unknown;
}

/** The session behind a database or a transaction: its driver and the client it runs on. */
export function sessionOf(executor: Executor): ExecutorSession {
  const session = (executor as unknown as { _?: { session?: { client?: unknown } } })._?.session;
  if (!session || session.client === undefined)
    throw new Error(`Drizzle executors no longer hold their session in _.session: ${UPGRADE_HINT}`);
  return { driver: session.constructor, client: session.client };
}

/**
 * Checks that `prepared`, just prepared on `executor`, keeps that executor's client in its
 * `client` field, the field onClient() overrides.
 */
export function assertRebindable(prepared: object, executor: Executor): void {
  if ((prepared as { client?: unknown }).client !== sessionOf(executor).client)
    throw new Error(
      `Drizzle prepared queries no longer keep their client in \`client\`: ${UPGRADE_HINT}`,
    );
}

/** `prepared` (checked by assertRebindable) running on `client`: the original is left as it was. */
export function onClient<Q extends object>(prepared: Q, client: unknown): Q {
  const bound = Object.create(prepared) as Q & { client: unknown };
  bound.client = client;
  return bound;
}
