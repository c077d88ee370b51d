/**
 * SQLite's checkpoints run on a thread of their own (db/checkpointer.ts): the app's connection never
 * copies the WAL back as it commits, yet under unbroken writes the WAL stays bounded (the thread
 * copies, the app's connection restarts it when the thread says it is long), every commit reaches
 * the database file, and closing stops the thread. SQLite only: PostgreSQL has no such thing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/connection';

describe('SQLite checkpoints on their own thread', () => {
  let dir = '';
  let handle: DatabaseHandle | null = null;
  afterEach(async () => {
    await handle?.close();
    handle = null;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the WAL bounded under unbroken writes, loses nothing, and stops on close', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-ckpt-'));
    const file = path.join(dir, 'test.db');
    handle = await openDatabase({ sqlitePath: file, checkpoint: { intervalMs: 10, restartPages: 256 } });
    const db = handle.db;
    expect((await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db)).rows[0]!.wal_autocheckpoint).toBe(0);
    await sql`create table filler (id integer primary key, body text not null)`.execute(db);
    const body = 'x'.repeat(3000);
    const insert = () => db.transaction().execute(async (q) => {
      await sql`insert into filler (body) values (${body})`.execute(q);
    });
    // First until the thread is at work (its checkpoints grow the database file): a thread starts
    // in tens of milliseconds, or seconds on a loaded machine.
    const warmup = 300;
    for (let i = 0; i < warmup; i++) await insert();
    for (let i = 0; i < 1000 && fs.statSync(file).size < 100 * 4096; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fs.statSync(file).size).toBeGreaterThanOrEqual(100 * 4096);
    let walMax = 0;
    const transactions = 8000;
    for (let i = 0; i < transactions; i++) {
      await insert();
      // Let the thread's messages in now and then, as a server's event loop does between requests.
      if (i % 25 === 0) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        walMax = Math.max(walMax, fs.statSync(`${file}-wal`).size);
      }
    }
    // 8,000 commits of at least a 4 KB page each: 32 MB or more through the WAL, which would all
    // stay in it without checkpoints. Copied back and started over past 256 pages (1 MB), it
    // holds a few MB (3.4 MB measured alone; 13.5 MB once in a full CI run, when the thread waited
    // for a CPU behind the other test files): under half of what went through.
    expect(walMax).toBeGreaterThan(0);
    expect(walMax).toBeLessThan(16 * 1024 * 1024);
    await handle.close();
    handle = null;
    // Every commit is in the database (read by a connection of its own).
    const check = new SqliteDatabase(file, { readonly: true });
    try {
      expect((check.prepare('select count(*) as n from filler').get() as { n: number }).n).toBe(warmup + transactions);
    } finally {
      check.close();
    }
  });

  it('a reader holding an old snapshot (an online backup, ledger:check) never holds up the app’s connection', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-ckpt-'));
    const file = path.join(dir, 'test.db');
    const restartPages = 64;
    handle = await openDatabase({ sqlitePath: file, checkpoint: { intervalMs: 10, restartPages } });
    const db = handle.db;
    await sql`create table filler (id integer primary key, body text not null)`.execute(db);
    const body = 'x'.repeat(3000);
    const insert = () => db.transaction().execute(async (q) => {
      await sql`insert into filler (body) values (${body})`.execute(q);
    });
    await insert();
    // Another connection reads and keeps its snapshot, as `npm run backup` does while it copies:
    // no checkpoint can start the WAL over until it ends. (On this thread, as a worst case: it
    // cannot let go while the app's connection waits.)
    const reader = new SqliteDatabase(file);
    reader.exec('begin');
    expect((reader.prepare('select count(*) as n from filler').get() as { n: number }).n).toBe(1);
    let longest = 0;
    try {
      let commits = 0;
      let pastRestart: number | null = null;
      let last = performance.now();
      // Writes until the WAL has been past the restart mark for half a second: the thread has asked
      // for a RESTART checkpoint many times by then (every 10 ms).
      while (pastRestart === null || performance.now() - pastRestart < 500) {
        await insert();
        commits++;
        if (commits % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
        const now = performance.now();
        longest = Math.max(longest, now - last);
        last = now;
        if (pastRestart === null && fs.statSync(`${file}-wal`).size > 2 * restartPages * 4096) pastRestart = now;
        if (commits > 20_000) throw new Error('the WAL never grew past the restart mark');
      }
      // A RESTART that waited for the reader would hold the connection (and the event loop) for the
      // whole busy timeout, 5 s, each time it is asked.
      expect(longest, `the longest pause between two commits (${commits} commits)`).toBeLessThan(2000);
    } finally {
      reader.exec('commit');
      reader.close();
    }
    // Once the reader has gone, the WAL is started over again: twice its size written more, and
    // the file (never shrunk, reused from its start) grows by well under what went through it.
    const grown = fs.statSync(`${file}-wal`).size;
    let written = 0;
    for (let i = 1; written < 2 * grown; i++) {
      await insert();
      written += 4096;
      if (i % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const after = fs.statSync(`${file}-wal`).size;
    console.warn(`[checkpointer] longest pause between two commits while a reader held its snapshot ${Math.round(longest)} ms; WAL ${grown} bytes when the reader let go, ${after} after ${written} more bytes of commits`);
    expect(after - grown).toBeLessThan(written / 2);
  });

  it('a thread that dies hands checkpoints back to the app’s connection', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-ckpt-'));
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      handle = await openDatabase({ sqlitePath: path.join(dir, 'test.db'), checkpoint: { sqliteModule: path.join(dir, 'no-such-module.js') } });
      const setting = async () => (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(handle!.db)).rows[0]!.wal_autocheckpoint;
      for (let i = 0; i < 200 && (await setting()) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await setting()).toBe(1000);
      expect(warnings.some((w) => w.startsWith('SQLite checkpoint:'))).toBe(true);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('an in-memory database has no thread and closes at once', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-ckpt-'));
    handle = await openDatabase({ sqlitePath: ':memory:' });
    await sql`create table t (id integer primary key)`.execute(handle.db);
    await handle.close();
    handle = null;
  });
});
