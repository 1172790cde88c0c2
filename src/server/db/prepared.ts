import { sql } from 'drizzle-orm';
import type { Executor } from './connect';
import { assertRebindable, onClient, sessionOf } from './drizzle-internals';

// Hot statements built once (docs/architecture.md §9). Drizzle turns a query builder into SQL text
// on every call: for a wager, whose ten statements are each a fraction of a millisecond in the
// database, that building was a fifth of the server's CPU. A `prepared()` statement is built
// with sql.placeholder() values the first time it runs on a driver, then only its values
// change; it runs on the database or inside the caller's transaction, like the builder did.
// Named, so PostgreSQL parses and plans it once per connection too. Running a query prepared
// once on each executor's client needs Drizzle's internals: drizzle-internals.ts holds them.

interface PreparedQuery<T> {
  execute(values?: Record<string, unknown>): Promise<T>;
}

interface Preparable<T> {
  prepare(name: string): PreparedQuery<T>;
}

/** Every statement name in use: PostgreSQL refuses one name for two texts on a connection. */
const names = new Set<string>();

export type PreparedStatement<T, V extends object> = (executor: Executor, values: V) => Promise<T>;

/**
 * `prepared('findBet', (db) => db.select().from(bets).where(eq(bets.id, sql.placeholder('id'))))`
 * gives `(executor, { id }) => rows`. The name must be unique in the app (PostgreSQL's
 * prepared statement name); `build` must not depend on anything but the placeholders.
 */
export function prepared<T, V extends object>(
  name: string,
  build: (executor: Executor) => Preparable<T>,
): PreparedStatement<T, V> {
  if (names.has(name)) throw new Error(`Two prepared statements are named ${name}`);
  names.add(name);
  // One template per driver (the session's class): the SQL text and the result mapping.
  const templates = new Map<unknown, PreparedQuery<T>>();
  return (executor, values) => {
    const session = sessionOf(executor);
    let template = templates.get(session.driver);
    if (!template) {
      template = build(executor).prepare(name);
      assertRebindable(template, executor);
      templates.set(session.driver, template);
    }
    return onClient(template, session.client).execute(values as Record<string, unknown>);
  };
}

/**
 * A placeholder where Drizzle's types want the column's value (`.set()`, `.values()`): Drizzle
 * fills it at run time through the column's own encoding (jsonb, timestamps), but its types
 * admit placeholders only in conditions.
 */
export function slot<T>(name: string): T {
  return sql.placeholder(name) as unknown as T;
}
