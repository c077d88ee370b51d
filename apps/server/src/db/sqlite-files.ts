/**
 * The SQLite database as files, for `npm run backup` and `npm run restore` (docs/deployment.md,
 * "Backup and restore"): a consistent copy of a database other processes keep writing, a look at
 * a copy before it is trusted, and the lock that tells whether a process has a database open.
 */
import fs from 'node:fs';
import SqliteDatabase from 'better-sqlite3';

const BUSY_TIMEOUT_MS = 5000;

/**
 * Copies the database `source` into the new file `dest` as one snapshot, while a server keeps
 * writing to it. SQLite's online backup starts over whenever another connection writes between
 * two of its steps, so under steady writes a copy in small steps might never end; here every step
 * after the first takes all pages, inside one read transaction — one snapshot, and in WAL mode
 * writers never wait for a reader. The copy is left in rollback-journal mode (one file, no -wal
 * beside it; it opens read-only anywhere, and the server puts it back in WAL mode when it opens it).
 */
export async function copyLiveDatabase(source: string, dest: string): Promise<{ pages: number }> {
  const db = new SqliteDatabase(source, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  let pages = 0;
  try {
    const result = await db.backup(dest, { progress: () => 0x7fffffff });
    pages = result.totalPages;
  } finally {
    db.close();
  }
  const copy = new SqliteDatabase(dest, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
  return { pages };
}

/** What `pragma quick_check` finds wrong (none: sound), and the tables the file holds. */
export function inspectDatabase(file: string): { problems: string[]; tables: string[] } {
  const db = new SqliteDatabase(file, { fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  try {
    const problems = (db.pragma('quick_check', { simple: false }) as { quick_check: string }[]).map((r) => r.quick_check).filter((r) => r !== 'ok');
    const tables = (db.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[]).map((r) => r.name);
    return { problems, tables };
  } finally {
    db.close();
  }
}

/**
 * A connection holding the database `file` exclusively, or null when another process has it
 * open: a running server (its connections keep a shared lock on the file for as long as they are
 * open, as every connection in WAL mode does), or a command such as `ledger:check`. The lock is
 * the operating system's and ends with its process, so a server that crashed leaves nothing that
 * blocks; its WAL is recovered here. Close the connection to let go.
 */
export function lockDatabase(file: string): SqliteDatabase.Database | null {
  const db = new SqliteDatabase(file, { fileMustExist: true, timeout: 0 });
  try {
    // Set before the first read: in WAL mode the connection then takes the file's exclusive lock
    // at once (and keeps no shared-memory index); in rollback mode, at the write transaction.
    db.pragma('locking_mode = EXCLUSIVE');
    db.prepare('select count(*) from sqlite_master').get();
    db.exec('begin exclusive');
    db.exec('commit');
    return db;
  } catch (error) {
    db.close();
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return null;
    throw error;
  }
}

/**
 * Under the lock of `lockDatabase`: copies the WAL into the database file and deletes it (rollback
 * mode), so that the file stands alone and no -wal is left for another database to be read with.
 */
export function settleDatabase(locked: SqliteDatabase.Database): void {
  locked.pragma('journal_mode = DELETE');
}

/** Flushes a file (or, where the system allows it, a folder's entries) to the disk. */
export function flushToDisk(file: string): void {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    if (['EISDIR', 'EPERM', 'EACCES'].includes((error as NodeJS.ErrnoException).code ?? '')) return;
    throw error;
  }
  try {
    fs.fsyncSync(fd);
  } catch (error) {
    // Some systems cannot flush a folder (EINVAL, EISDIR); the files themselves were flushed.
    if (!['EINVAL', 'EISDIR', 'EPERM', 'EBADF'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
  } finally {
    fs.closeSync(fd);
  }
}
