/** Opens the database: embedded SQLite by default, PostgreSQL when a URL is given. */
import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database, Db, Dialect } from './types';
import { migrationProvider } from './migrations/index';
import { pipelinedPool } from './pg-client';
import { Checkpointer, type CheckpointerOptions } from './checkpointer';
import { UnsupportedNodeError, unsupportedNode } from './node-support';

/** The SQLite database of an installation (DATA_DIR), beside its -wal and -shm files. */
export function sqliteFile(dataDir: string): string {
  return path.join(dataDir, 'promotion-assistant.db');
}

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /** PostgreSQL schema in use, when not the default. */
  schema?: string;
  /**
   * PostgreSQL: a connection was lost (a restart, a failover, an idle cut-off) and left the pool.
   * Reported, never thrown; main.ts points it at the app's log (default: a process warning).
   */
  onConnectionError: (error: Error) => void;
  /** The raw SQLite handle, for the click writer's prepared statements (SQLite only). */
  sqlite?: SqliteDatabase.Database;
  /** PostgreSQL: the pool's connections in use and idle, and requests waiting for one (for /metrics). */
  pool?: () => { inUse: number; idle: number; waiting: number };
  /**
   * PostgreSQL with a statement timeout: runs `work` on a connection of its own without one
   * (migrations, which may rightly take long, and wait for another instance's migration lock).
   */
  withoutTimeout?: <T>(work: (db: Db) => Promise<T>) => Promise<T>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** postgres://… to use PostgreSQL; otherwise SQLite. */
  databaseUrl?: string | null;
  /** SQLite file path, or ':memory:'. */
  sqlitePath?: string;
  /** PostgreSQL schema to use (tests make one per suite). */
  pgSchema?: string;
  pgPoolSize?: number;
  /**
   * PostgreSQL: the connections' `application_name` (what pg_stat_activity shows). Without it, the
   * URL's `?application_name=…` or PGAPPNAME, else `promotion-assistant`.
   */
  applicationName?: string;
  /** SQLite file: how the checkpoint thread runs (tests make it eager). */
  checkpoint?: CheckpointerOptions;
  /**
   * PostgreSQL: longest a statement may run, in ms (0 or unset: no limit). The server cancels it
   * (`statement_timeout`); the client gives up CLIENT_TIMEOUT_MARGIN_MS later, when the server does
   * not answer at all (a cut network, a hung host), and drops the connection.
   */
  statementTimeoutMs?: number;
}

/** How much longer than the statement timeout the client waits for an answer before dropping the connection. */
export const CLIENT_TIMEOUT_MARGIN_MS = 2000;

// int8 (bigint) columns hold epoch-ms times and minor-unit amounts; all fit in 2^53.
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

/** SQLite: how long a statement waits for a lock another connection holds. */
const BUSY_TIMEOUT_MS = 5000;

/** How long a request waits for a PostgreSQL connection (a free one of the pool, or a new one) before it fails. */
const PG_CONNECT_TIMEOUT_MS = 10_000;

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  // Before better-sqlite3's binary is loaded (the first database): on Node 20 it kills the process.
  const refusal = unsupportedNode();
  if (refusal) throw new UnsupportedNodeError(refusal);
  if (options.databaseUrl) {
    const databaseUrl = options.databaseUrl;
    const timeout = options.statementTimeoutMs ?? 0;
    const poolConfig = (max: number, statementTimeoutMs: number): pg.PoolConfig => ({
      connectionString: databaseUrl,
      max,
      types: pgTypes as unknown as pg.CustomTypesConfig,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
      // What pg_stat_activity shows: the URL's `application_name` (or PGAPPNAME) when given.
      ...(options.applicationName ? { application_name: options.applicationName } : { fallback_application_name: 'promotion-assistant' }),
      // A server that vanished (a failover, a cut network) is noticed by TCP keep-alive, and a
      // connection that cannot be made or had from the pool in time fails instead of waiting on.
      keepAlive: true,
      connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
      ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs, query_timeout: statementTimeoutMs + CLIENT_TIMEOUT_MARGIN_MS } : {}),
    });
    const pool = new pg.Pool(poolConfig(options.pgPoolSize ?? 10, timeout));
    // The pool reports to whatever the handle's `onConnectionError` is at the time (main.ts sets it).
    const onConnectionError = (error: Error) => handle.onConnectionError(error);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: pipelinedPool(pool, { onConnectionError }) }) });
    const handle: DatabaseHandle = {
      db,
      dialect: 'postgres',
      schema: options.pgSchema,
      onConnectionError: (error) => process.emitWarning(`PostgreSQL connection lost: ${error.message}`),
      pool: () => ({ inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => db.destroy(),
    };
    if (timeout > 0) {
      handle.withoutTimeout = async (work) => {
        const own = new Kysely<Database>({ dialect: new PostgresDialect({ pool: pipelinedPool(new pg.Pool(poolConfig(1, 0)), { onConnectionError }) }) });
        try {
          return await work(own);
        } finally {
          await own.destroy();
        }
      };
    }
    return handle;
  }
  const file = options.sqlitePath ?? ':memory:';
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SqliteDatabase(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  // A file's checkpoints run on a thread of their own (db/checkpointer.ts), not in a commit.
  let checkpointer: Checkpointer | null = null;
  if (file !== ':memory:') {
    sqlite.pragma('wal_autocheckpoint = 0');
    // RESTART waits (busy timeout) for readers of an older snapshot to finish. A reader in
    // another process can hold one for long — `npm run backup` copying the whole database,
    // `npm run ledger:check` — and the wait would hold this connection and the event loop (5 s at
    // a time, again at each request). So it does not wait: busy, it copies what it can like the
    // thread's PASSIVE checkpoint and is asked again at the thread's next look; the WAL grows
    // meanwhile by what is written while that reader reads.
    const restart = async () => {
      await db.connection().execute(async (c) => {
        await sql`pragma busy_timeout = 0`.execute(c);
        try {
          await sql`pragma wal_checkpoint(RESTART)`.execute(c);
        } finally {
          await sql`pragma busy_timeout = ${sql.raw(String(BUSY_TIMEOUT_MS))}`.execute(c);
        }
      });
    };
    checkpointer = new Checkpointer(
      file,
      restart,
      options.checkpoint,
      (message) => process.emitWarning(`SQLite checkpoint: ${message}`),
      // Without the thread, back to SQLite's own checkpoints in the commit: never an unbounded WAL.
      () => {
        if (sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
      },
    );
  }
  return {
    db,
    dialect: 'sqlite',
    sqlite,
    onConnectionError: () => undefined,
    close: async () => {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

/** `timeZone`: the day boundaries of the per-day figures, which a migration may fill from stored rows. */
export async function migrateToLatest(handle: DatabaseHandle, timeZone: string): Promise<void> {
  // A migration may rightly run longer than a request's statement may (filling a new table).
  if (handle.withoutTimeout) return handle.withoutTimeout((db) => migrate(handle, db, timeZone));
  return migrate(handle, handle.db, timeZone);
}

async function migrate(handle: DatabaseHandle, db: Db, timeZone: string): Promise<void> {
  // Name the schema explicitly: otherwise Kysely may find another schema's migration tables.
  const migrator = new Migrator({
    db,
    provider: migrationProvider(handle.dialect, timeZone),
    ...(handle.schema ? { migrationTableSchema: handle.schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
  }
}

/**
 * Kysely prepares every query afresh; preparing costs as much as running a small statement. The
 * same SQL text reuses its prepared statement (at most 500 kept, least recently used dropped).
 * Safe because Kysely runs each statement to completion before the next (one connection).
 */
function withStatementCache(sqlite: SqliteDatabase.Database) {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (cache.size >= 500) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}
