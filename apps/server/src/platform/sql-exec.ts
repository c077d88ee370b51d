/**
 * Hand-written SQL for the hottest write paths, run the same way on both databases: through
 * better-sqlite3 prepared statements (cached per text, synchronous) on SQLite, through Kysely's
 * compiled-query path (no query building) on PostgreSQL. Statements use `?` placeholders.
 */
import { CompiledQuery } from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import type { AppContext } from '../context';
import type { Db } from '../db/types';

export interface Exec {
  one<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a write; resolves to the number of rows changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

/** `(?, ?, …), (?, ?, …)` for a multi-row insert of `rows` rows of `columns` values. */
export function valueRows(rows: number, columns: number): string {
  const one = `(${Array(columns).fill('?').join(', ')})`;
  return Array(rows).fill(one).join(', ');
}

/** `?` → `$1, $2, …` (our statements never contain a literal question mark). */
export function toPostgres(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

const sqliteExecs = new WeakMap<BetterSqlite3.Database, Exec>();

export function sqliteExec(sqlite: BetterSqlite3.Database): Exec {
  let exec = sqliteExecs.get(sqlite);
  if (exec) return exec;
  const cache = new Map<string, BetterSqlite3.Statement>();
  const prepared = (sql: string) => {
    let s = cache.get(sql);
    if (!s) {
      s = sqlite.prepare(sql);
      cache.set(sql, s);
    }
    return s;
  };
  exec = {
    one: async <T>(sql: string, params: readonly unknown[] = []) => prepared(sql).get(...params) as T | undefined,
    all: async <T>(sql: string, params: readonly unknown[] = []) => prepared(sql).all(...params) as T[],
    run: async (sql: string, params: readonly unknown[] = []) => prepared(sql).run(...params).changes,
  };
  sqliteExecs.set(sqlite, exec);
  return exec;
}

export function kyselyExec(db: Db, dialect: 'sqlite' | 'postgres'): Exec {
  const q = (sql: string, params: readonly unknown[]) => db.executeQuery(CompiledQuery.raw(dialect === 'postgres' ? toPostgres(sql) : sql, [...params]));
  return {
    one: async <T>(sql: string, params: readonly unknown[] = []) => (await q(sql, params)).rows[0] as T | undefined,
    all: async <T>(sql: string, params: readonly unknown[] = []) => (await q(sql, params)).rows as T[],
    run: async (sql: string, params: readonly unknown[] = []) => Number((await q(sql, params)).numAffectedRows ?? 0n),
  };
}

/** The executor for hand-written SQL inside a Kysely transaction: the raw connection on SQLite (one connection, so the same transaction), Kysely on PostgreSQL. */
export function execFor(ctx: Pick<AppContext, 'sqlite' | 'dialect'>, trx: Db): Exec {
  return ctx.sqlite ? sqliteExec(ctx.sqlite) : kyselyExec(trx, ctx.dialect);
}
