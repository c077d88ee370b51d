/**
 * Hot statements, built and compiled by Kysely once and then run with new values: building and
 * compiling a query costs more than running a small one on SQLite (whose connection also caches
 * the prepared statement by its text, db/connection.ts).
 *
 * `hot(build)` calls `build` once per dialect with placeholder values, remembers the SQL and where
 * each argument lands among the parameters, and afterwards only substitutes the values. `build`
 * must give a query of the same shape whatever the values (no branching on them, no computing
 * with them: pass `code.toLowerCase()`, not `code`).
 */
import { CompiledQuery, Kysely, PostgresAdapter, sql, type Compilable, type InsertQueryBuilder, type InsertResult } from 'kysely';
import { WRITE_BEHIND } from './pg-client';
import type { Db, Database, ReadOnlyDb } from './types';

const SLOT = Symbol('slot');
type Slot = { readonly [SLOT]: number };
const isSlot = (v: unknown): v is Slot => typeof v === 'object' && v !== null && SLOT in v;

interface Compiled {
  sql: string;
  /** Per parameter: the argument index it takes, or the constant Kysely put there. */
  params: ({ arg: number } | { value: unknown })[];
}

function compileWithSlots(query: Compilable<unknown>): Compiled {
  const { sql, parameters } = query.compile();
  return { sql, params: parameters.map((p) => (isSlot(p) ? { arg: p[SLOT] } : { value: p })) };
}

const keyOf = (q: Db) => q.getExecutor().adapter.constructor;

/**
 * A hot read: `build` (given the database only to compile with) must make a `select` — refused at
 * its first compile otherwise — so it may run on a read-only handle (batchable work's `tx.q`).
 */
export function hot<A extends readonly unknown[], O>(build: (q: Db, ...args: A) => Compilable<O>) {
  const cache = new WeakMap<object, Compiled>();
  const compiled = (q: Db, count: number): Compiled => {
    let c = cache.get(keyOf(q));
    if (!c) {
      const slots = Array.from({ length: count }, (_, i): Slot => ({ [SLOT]: i }));
      c = compileWithSlots(build(q, ...(slots as unknown as A)));
      if (!/^select\b/i.test(c.sql)) throw new Error(`a hot statement must be a select: ${c.sql.slice(0, 60)}`);
      cache.set(keyOf(q), c);
    }
    return c;
  };
  const run = async (handle: ReadOnlyDb, args: A) => {
    const q = readerOf(handle);
    const c = compiled(q, args.length);
    const result = await q.executeQuery<O>(CompiledQuery.raw(c.sql, c.params.map((p) => ('arg' in p ? args[p.arg] : p.value))));
    return result;
  };
  return {
    /** The first row the query returns (the hot statements are look-ups of one row). */
    first: async (q: ReadOnlyDb, ...args: A): Promise<O | undefined> => (await run(q, args)).rows[0],
  };
}

/**
 * The database behind a read-only handle, for this file's compiled reads (`hot`, `onPostgres`)
 * only — not exported: elsewhere a read-only handle stays read-only. Every handle the unit of work
 * gives is a Kysely instance (the pool or a transaction).
 */
function readerOf(q: ReadOnlyDb): Db {
  if (q instanceof Kysely) return q as Db;
  throw new TypeError('not a Kysely query handle');
}

/**
 * Writes rows of one table (all with the same columns): on SQLite compiled multi-row statements of
 * a few fixed sizes (each prepared once), on PostgreSQL one `insert … select from
 * json_populate_recordset(…)` per `chunk` rows (a round trip saved per row). `shape` adds the conflict clause
 * of an upsert.
 */
export async function writeRows<T extends keyof Database>(
  q: Db,
  table: T,
  rows: readonly Database[T][],
  options: { chunk?: number; shape?: (insert: InsertQueryBuilder<Database, T, InsertResult>) => Compilable<unknown> } = {},
): Promise<void> {
  if (rows.length === 0) return;
  const shape = options.shape ?? ((insert: InsertQueryBuilder<Database, T, InsertResult>) => insert);
  const columns = Object.keys(rows[0]!) as (keyof Database[T] & string)[];
  const sqlite = !onPostgres(q);
  if (sqlite) {
    // Multi-row statements of a few fixed sizes (64, 16, 4, 1 rows): each size compiled and
    // prepared once, so the statement cache always hits and a batch takes few statements.
    const base = `${table}|${columns.join(',')}|${options.shape ? shapeKey(options.shape) : ''}`;
    let at = 0;
    for (const size of SQLITE_SIZES) {
      while (rows.length - at >= size) {
        const key = `${base}|${size}`;
        let c = rowStatements.get(key);
        if (!c) {
          const slotRows = Array.from({ length: size }, (_, r) => Object.fromEntries(columns.map((col, i): [string, Slot] => [col, { [SLOT]: r * columns.length + i }])));
          c = compileWithSlots(shape(q.insertInto(table).values(slotRows as never)));
          rowStatements.set(key, c);
        }
        const values: unknown[] = [];
        for (let r = at; r < at + size; r++) for (const col of columns) values.push(rows[r]![col]);
        await q.executeQuery(CompiledQuery.raw(c.sql, c.params.map((p) => ('arg' in p ? values[p.arg] : p.value))));
        at += size;
      }
    }
    return;
  }
  // PostgreSQL: one statement of constant text whatever the number of rows — the rows sent as one
  // JSON parameter and spread back into the table's row type by json_populate_recordset (JSON
  // text is made natively; node-postgres escapes array parameters element by element in
  // JavaScript). Compiled once per table, columns and shape; marked write-behind, so a
  // transaction's writes travel to the server together (db/pg-client.ts).
  const key = `${table}|${columns.join(',')}|${options.shape ? shapeKey(options.shape) : ''}|pg`;
  let c = rowStatements.get(key);
  if (!c) {
    const select = sql`select ${sql.join(columns.map((col) => sql.ref(`r.${col}`)))} from json_populate_recordset(null::${sql.table(table)}, ${{ [SLOT]: 0 } satisfies Slot}::json) as r`;
    c = compileWithSlots(shape(q.insertInto(table).columns(columns as never).expression(select as never)));
    c = { ...c, sql: WRITE_BEHIND + c.sql };
    rowStatements.set(key, c);
  }
  const chunk = options.chunk ?? 5_000;
  for (let i = 0; i < rows.length; i += chunk) {
    const json = JSON.stringify(rows.length <= chunk ? rows : rows.slice(i, i + chunk));
    await q.executeQuery(CompiledQuery.raw(c.sql, c.params.map((p) => ('arg' in p ? json : p.value))));
  }
}

const rowStatements = new Map<string, Compiled>();
const SQLITE_SIZES = [64, 16, 4, 1];
// Upsert shapes are module-level functions: each gets a number for the statement cache's key.
const shapeIds = new WeakMap<object, number>();
let shapes = 0;
const shapeKey = (shape: object) => {
  let id = shapeIds.get(shape);
  if (id === undefined) shapeIds.set(shape, (id = ++shapes));
  return String(id);
};

/** Whether `q` talks to PostgreSQL (for the few statements each database needs written its own way). */
export function onPostgres(q: ReadOnlyDb): boolean {
  return readerOf(q).getExecutor().adapter instanceof PostgresAdapter;
}
