import { appendFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import pg from 'pg';

// What SQL a path sends, so the scale benchmark can EXPLAIN exactly those statements: with
// BENCH_SQL_LOG set, every statement a `pg` client sends in this process (the server's pool,
// or the jobs' in the bench itself) is appended to that file as one JSON line, text and
// parameters. The bench notes the file's length before a path and reads what it added.

export interface CapturedStatement {
  text: string;
  values: unknown[];
}

let target: string | null = null;
let patched = false;

/** Logs this process's statements into `file` from now on (null: stops). */
export function captureStatements(file: string | null): void {
  target = file;
  if (patched) return;
  patched = true;
  const prototype = pg.Client.prototype as unknown as {
    query: (...args: unknown[]) => unknown;
  };
  const original = prototype.query;
  prototype.query = function query(this: unknown, ...args: unknown[]) {
    const [first, second] = args;
    const text =
      typeof first === 'string'
        ? first
        : first && typeof first === 'object' && 'text' in first
          ? String((first as { text: unknown }).text)
          : null;
    const values =
      first && typeof first === 'object' && 'values' in first
        ? (first as { values: unknown }).values
        : Array.isArray(second)
          ? second
          : [];
    if (text && target)
      appendFileSync(target, `${JSON.stringify({ text, values: values ?? [] })}\n`);
    return original.apply(this, args);
  };
}

export function logLength(file: string): number {
  return existsSync(file) ? statSync(file).size : 0;
}

/** The distinct statements (by text, the first parameters seen) logged since `from`. */
export function statementsSince(file: string, from: number): CapturedStatement[] {
  if (!existsSync(file)) return [];
  const added = readFileSync(file).subarray(from).toString('utf8');
  const seen = new Map<string, CapturedStatement>();
  for (const line of added.split('\n')) {
    if (!line) continue;
    const statement = JSON.parse(line) as CapturedStatement;
    if (!/^\s*(select|insert|update|delete|with)\b/i.test(statement.text)) continue;
    if (!seen.has(statement.text)) seen.set(statement.text, statement);
  }
  return [...seen.values()];
}
