/**
 * Bulk loading for the data-scale benchmark's fixtures only (not product code): multi-row inserts
 * of millions of rows through the raw SQLite handle, or Kysely's raw-query path on PostgreSQL.
 */
import { CompiledQuery } from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import type { Db } from '../apps/server/src/db/types';

export interface BulkExec {
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/** `(?, ?, …), (?, ?, …)` for `rows` rows of `columns` values. */
export function valueRows(rows: number, columns: number): string {
  const one = `(${Array(columns).fill('?').join(', ')})`;
  return Array(rows).fill(one).join(', ');
}

export function bulkExec(db: Db, sqlite: BetterSqlite3.Database | undefined): BulkExec {
  if (sqlite) {
    const cache = new Map<string, BetterSqlite3.Statement>();
    const prepared = (sql: string) => cache.get(sql) ?? cache.set(sql, sqlite.prepare(sql)).get(sql)!;
    return {
      run: async (sql, params = []) => prepared(sql).run(...params).changes,
      all: async <T>(sql: string, params: readonly unknown[] = []) => prepared(sql).all(...params) as T[],
    };
  }
  let n = 0;
  const pg = (sql: string) => ((n = 0), sql.replace(/\?/g, () => `$${++n}`));
  return {
    run: async (sql, params = []) => Number((await db.executeQuery(CompiledQuery.raw(pg(sql), [...params]))).numAffectedRows ?? 0n),
    all: async <T>(sql: string, params: readonly unknown[] = []) => (await db.executeQuery(CompiledQuery.raw(pg(sql), [...params]))).rows as T[],
  };
}
