import { getTableColumns, getTableName, is, sql, SQL, type Column } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

// Many rows in one parameter: `tx.insert(table).select(rowsFromJson(table, rows))`. Drizzle's
// `.values(rows)` gives every value of every row a parameter and builds the statement's text
// anew on each call; for the hundred-row inserts of a busy group's inbox that building cost more
// of the server than the database's work. Here the rows travel as one JSON array, which
// PostgreSQL expands with json_populate_recordset into the table's own row type (so every value
// takes its column's type), and the statement's text depends only on which columns are given.

type RowOf<T extends PgTable> = Partial<T['$inferInsert']>;

/** A column's value where no row gives one: its default, a serial's next value, or null. */
function defaultOf(table: PgTable, column: Column): SQL {
  if (column.columnType === 'PgSerial')
    return sql`nextval(pg_get_serial_sequence(${getTableName(table)}, ${column.name}))`;
  if (!column.hasDefault) return sql`null`;
  const value: unknown = column.default;
  // A literal default goes as a parameter of the column's type (a bare one would be text).
  return is(value, SQL)
    ? value
    : sql`cast(${sql.param(value, column)} as ${sql.raw(column.getSQLType())})`;
}

/**
 * The SELECT that yields `rows` as rows of `table`, every column in the table's order (what
 * Drizzle's insert-select expects). A row's values are given by the keys Drizzle's types use; a
 * column no row gives takes its default, and a row that leaves out a column others give has null
 * there (so a column with a default is given by every row or by none; this throws otherwise).
 * Values must survive JSON: numbers, text, booleans, Dates (sent as ISO text) and JSON for jsonb
 * columns.
 */
export function rowsFromJson<T extends PgTable>(table: T, rows: readonly RowOf<T>[]): SQL {
  const columns = Object.entries(getTableColumns(table)) as Array<[string, Column]>;
  const givenKeys = new Set(rows.flatMap((row) => Object.keys(row)));
  const given = columns.filter(([key]) => givenKeys.has(key));
  const records = rows.map((row) => {
    const record: Record<string, unknown> = {};
    for (const [key, column] of given) {
      const value = (row as Record<string, unknown>)[key];
      // Drizzle would give such a value its default; this statement has one text for all rows.
      if (value === undefined && column.hasDefault)
        throw new Error(`rowsFromJson: some rows give ${column.name} and some do not`);
      record[column.name] = value ?? null;
    }
    return record;
  });
  const select = sql.join(
    columns.map(([key, column]) =>
      givenKeys.has(key) ? sql`r.${sql.identifier(column.name)}` : defaultOf(table, column),
    ),
    sql`, `,
  );
  const json = JSON.stringify(records);
  return sql`select ${select} from json_populate_recordset(null::${table}, ${json}::json) as r`;
}
