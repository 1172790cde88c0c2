import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from './connect';
import { BackupError, type BackupHeader } from './backup-file';

// What a backup and a restore read of a database's own catalog: its tables (columns, primary
// key, foreign-key order), sequences and row counts.

/** Rows fetched from the source per round trip, and at most inserted per statement. */
export const BATCH_ROWS = 500;

type Row = Record<string, unknown>;

export async function query(db: Executor, statement: SQL): Promise<Row[]> {
  const result = (await db.execute(statement)) as unknown as { rows: Row[] };
  return result.rows;
}

export const identifier = (name: string) => sql.identifier(name);

/** The base tables of the public schema, each with its columns (in order) and primary key. */
export async function readTables(db: Executor) {
  const columns = await query(
    db,
    sql`select c.relname as "table", a.attname as "column",
          format_type(a.atttypid, a.atttypmod) as "type"
        from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
        where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attgenerated = ''
        order by c.relname, a.attnum`,
  );
  const keys = await query(
    db,
    sql`select c.relname as "table", a.attname as "column"
        from pg_index i
        join pg_class c on c.oid = i.indrelid
        join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = c.oid and a.attnum = any(i.indkey)
        where n.nspname = 'public' and i.indisprimary
        order by c.relname, array_position(i.indkey::int2[], a.attnum)`,
  );
  const references = await query(
    db,
    sql`select distinct c.relname as "child", p.relname as "parent"
        from pg_constraint k
        join pg_class c on c.oid = k.conrelid
        join pg_class p on p.oid = k.confrelid
        join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and k.contype = 'f'`,
  );
  const tables = new Map<string, { columns: { name: string; type: string }[]; key: string[] }>();
  for (const row of columns) {
    const name = String(row.table);
    if (!tables.has(name)) tables.set(name, { columns: [], key: [] });
    tables.get(name)!.columns.push({ name: String(row.column), type: String(row.type) });
  }
  for (const row of keys) tables.get(String(row.table))?.key.push(String(row.column));
  const parents = new Map<string, Set<string>>([...tables.keys()].map((name) => [name, new Set()]));
  for (const row of references) {
    if (row.child !== row.parent) parents.get(String(row.child))?.add(String(row.parent));
  }
  return { tables, order: dependencyOrder(parents) };
}

/** Tables so that each comes after those it references (alphabetical among equals). */
function dependencyOrder(parents: Map<string, Set<string>>): string[] {
  const order: string[] = [];
  const placed = new Set<string>();
  while (placed.size < parents.size) {
    const ready = [...parents.keys()]
      .filter((name) => !placed.has(name) && [...parents.get(name)!].every((p) => placed.has(p)))
      .sort();
    if (ready.length === 0) {
      const stuck = [...parents.keys()].filter((name) => !placed.has(name)).sort();
      throw new BackupError(`Tables reference each other in a cycle: ${stuck.join(', ')}`);
    }
    for (const name of ready) {
      placed.add(name);
      order.push(name);
    }
  }
  return order;
}

export async function readSequences(db: Executor) {
  const names = await query(
    db,
    sql`select c.relname as "name" from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'S' order by c.relname`,
  );
  const sequences: BackupHeader['sequences'] = [];
  for (const { name } of names) {
    const [state] = await query(
      db,
      sql`select last_value::text as "lastValue", is_called as "isCalled"
          from ${identifier('public')}.${identifier(String(name))}`,
    );
    sequences.push({
      name: String(name),
      lastValue: String(state!.lastValue),
      isCalled: state!.isCalled === true,
    });
  }
  return sequences;
}

/** Row counts of the tables that hold any rows. */
export async function nonEmptyTables(db: Executor): Promise<{ name: string; rows: number }[]> {
  const { order } = await readTables(db);
  const found: { name: string; rows: number }[] = [];
  for (const name of order) {
    const [counts] = await query(db, sql`select count(*)::text as "rows" from ${identifier(name)}`);
    if (Number(counts!.rows) > 0) found.push({ name, rows: Number(counts!.rows) });
  }
  return found;
}
