/**
 * SQLite's WAL checkpoints off the request thread. SQLite copies committed pages from the WAL back
 * into the database file (a checkpoint: reads, writes and two fsyncs) inside whichever commit takes
 * the WAL past 1,000 pages — on the event loop, so every request waiting behind that commit waits
 * for the disk too (measured: 45 % of the commit time under conversion load, docs/benchmarks.md).
 *
 * Here the app's connection does not checkpoint as it commits (`wal_autocheckpoint = 0`); a worker
 * thread with a connection of its own runs a PASSIVE checkpoint every `intervalMs` — it copies
 * what it can and never takes the write lock, so the app's writes never wait for it. Under
 * unbroken writes the WAL is never wholly copied at the moment a new write starts, so SQLite would
 * never start it over and it would grow: past `restartPages` the thread says so, and the app's own
 * connection runs a RESTART checkpoint between two transactions (`restart`), which copies the few
 * pages the thread has not and starts the WAL over. (Not the thread: a write lock held by another
 * connection fails a transaction that read before writing at once, whatever the busy timeout.)
 * Nothing about durability changes: a commit is in the WAL when it returns, as before; a
 * checkpoint only moves it.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export interface CheckpointerOptions {
  intervalMs?: number;
  restartPages?: number;
  /** The better-sqlite3 the thread loads (default: this project's; a test gives one that fails). */
  sqliteModule?: string;
}

// Plain JavaScript run by the worker (no TypeScript loader is needed in the thread).
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
const tick = () => {
  try {
    const [state] = db.pragma('wal_checkpoint(PASSIVE)');
    if (state && state.log >= workerData.restartPages) parentPort.postMessage({ full: state.log });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
};
const timer = setInterval(tick, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.postMessage('stopped');
});
`;

export class Checkpointer {
  private readonly worker: Worker;
  private stopping: Promise<void> | null = null;

  private restarting = false;
  private exited = false;

  constructor(
    file: string,
    /** Runs `pragma wal_checkpoint(RESTART)` on the app's connection, outside any transaction. */
    restart: () => Promise<void>,
    options: CheckpointerOptions = {},
    onError: (message: string) => void = () => {},
    /** The thread has died (it could not load SQLite, say): the app's connection must checkpoint again. */
    onLost: () => void = () => {},
  ) {
    this.worker = new Worker(WORKER, {
      eval: true,
      workerData: {
        file,
        module: options.sqliteModule ?? createRequire(import.meta.url).resolve('better-sqlite3'),
        intervalMs: options.intervalMs ?? 200,
        restartPages: options.restartPages ?? 16_384,
      },
    });
    this.worker.on('message', (message: unknown) => {
      if (typeof message !== 'object' || !message) return;
      if ('error' in message) onError(String((message as { error: unknown }).error));
      if ('full' in message && !this.restarting && !this.stopping) {
        this.restarting = true;
        restart().catch((error: unknown) => onError(String(error))).finally(() => (this.restarting = false));
      }
    });
    this.worker.on('error', (error) => onError(String(error)));
    this.worker.on('exit', () => {
      this.exited = true;
      if (!this.stopping) onLost();
    });
    // The thread never keeps the process alive (a process that ends without closing the database
    // leaves its WAL to the next opening, as SQLite always does).
    this.worker.unref();
  }

  /** Stops the thread and closes its connection (before the app's own connection closes). */
  stop(): Promise<void> {
    if (this.exited) this.stopping ??= Promise.resolve();
    this.stopping ??= new Promise<void>((resolve) => {
      // Held by the thread again until it has stopped (or the process would end with this pending).
      this.worker.ref();
      const done = () => resolve();
      this.worker.once('exit', done);
      this.worker.on('message', (message) => {
        if (message === 'stopped') void this.worker.terminate().then(done, done);
      });
      this.worker.postMessage('stop');
    });
    return this.stopping;
  }
}
