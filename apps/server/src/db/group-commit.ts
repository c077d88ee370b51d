/**
 * The group commit (and single transactions) of the one write path, db/unit-of-work.ts: batchable
 * work queued meanwhile runs in one transaction, its collectors merged and flushed once for the
 * batch; with `readsFirst` its reads run on the pool first (db/read-ahead.ts).
 */
import { Collectors, makeTx, type BatchTx, type Tx, type TxInfo } from './collectors';
import { applyReadAhead, readAheadOnPool, type Preloader } from './read-ahead';
import type { Db, Dialect, ReadOnlyDb } from './types';
import { isDatabaseUnavailable, isUnwrittenUnavailable } from './unavailable';

interface Pending {
  work: (tx: BatchTx) => Promise<unknown> | unknown;
  preload?: { loader: Preloader<unknown>; input: unknown };
  /** Reading first: what its read ahead found, to put into its batch (absent: read in the batch). */
  loaded?: (tx: BatchTx) => void;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** An error the work decided on (a catalogue error): the item fails alone, the transaction is intact. */
export type IsItemError = (error: unknown) => boolean;

/** Batchable work: it joins the group commit, reads through a read-only `tx.q` and writes only through collectors. */
export interface BatchOptions<I = unknown> {
  batchable: true;
  /** What to read ahead for this item, together with the batch's others. */
  preload?: { loader: Preloader<I>; input: I };
}

/** Work that is not batchable: its own transaction, `tx.q` that transaction. */
export interface SingleOptions {
  batchable?: false;
}

/** The options of `run`: batchable or not. */
export type RunOptions<I = unknown> = BatchOptions<I> | SingleOptions;

export interface UnitOfWorkOptions {
  /** At most this many items per group commit. */
  maxBatch?: number;
  /**
   * Run a batch's reads (its read-ahead and its items' work) before its transaction, which then
   * holds only the collected writes. For PostgreSQL: the reads go to the pool (independent ones at
   * once, on several connections), and a transaction of writes alone is sent as one statement by
   * db/pg-client.ts. Its reads see what is committed when each runs — what READ COMMITTED gives
   * inside a transaction as well; batchable work takes no locks.
   *
   * Reading first, items are read ahead as they arrive (one read-ahead at a time, for all that
   * arrived meanwhile), while a batch is being written, and the next batch takes every item whose
   * read-ahead is done: what arrives during a write is in the next commit, not the one after.
   */
  readsFirst?: boolean;
  /** Which errors are an item's own decision (default: none — every error rolls the batch back). */
  isItemError?: IsItemError;
  log?: { warn(obj: unknown, msg: string): void };
  /** A group commit was written: how many items, and the seconds from its first try to its commit (for /metrics). */
  onBatch?: (items: number, seconds: number) => void;
}

type Outcome = ({ ok: true; value: unknown } | { ok: false; error: unknown })[];

export class UnitOfWork {
  /** Batchable items not yet read ahead (reading first), or not yet written. */
  private queue: Pending[] = [];
  /** Reading first: items read ahead, waiting for the next batch. */
  private ready: Pending[] = [];
  private reading = false;
  private writing = false;
  private scheduled = false;
  private waiters: (() => void)[] = [];
  /** Group commits written, items in them, batches sent round again (for benchmarks and logs). */
  readonly stats = { batches: 0, items: 0, retried: 0 };

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    private readonly options: UnitOfWorkOptions = {},
  ) {}

  /**
   * Batchable work gets a read-only `tx.q` (`BatchTx`): a write through it does not compile, so its
   * writes go through collectors, as the group commit needs. It may also be synchronous (it only
   * hands rows to collectors, say): it then costs its batch no promise of its own — on the
   * redirect's path that is measurable. Other work gets its transaction (`Tx`).
   */
  run<T, I = unknown>(work: (tx: BatchTx) => Promise<T> | T, options: BatchOptions<I>): Promise<T>;
  run<T>(work: (tx: Tx) => Promise<T>, options?: SingleOptions): Promise<T>;
  run<T, I = unknown>(work: ((tx: BatchTx) => Promise<T> | T) | ((tx: Tx) => Promise<T>), options: RunOptions<I> = {}): Promise<T> {
    if (!options.batchable) return this.single(work as (tx: Tx) => Promise<T>);
    const batchWork = work as (tx: BatchTx) => Promise<T> | T;
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work: batchWork, preload: options.preload as Pending['preload'], resolve: resolve as (v: unknown) => void, reject });
      this.schedule();
    });
  }

  /** Batchable items submitted and not yet in a group commit under way (for /metrics). */
  get waiting(): number {
    return this.queue.length + this.ready.length;
  }

  /** Resolves once every batchable item submitted so far has been written or has failed. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private isIdle() {
    return this.queue.length === 0 && this.ready.length === 0 && !this.reading && !this.writing;
  }

  /** Start on the next turn of the event loop, so requests already received join the batch. */
  private schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  /**
   * One group commit at a time (SQLite has one connection; and a batch decides on what the one
   * before it wrote). Reading first, a read-ahead runs beside it, for the items queued meanwhile.
   */
  private pump() {
    const most = this.options.maxBatch ?? 500;
    if (this.options.readsFirst && !this.reading && this.queue.length > 0) {
      this.reading = true;
      void this.readAhead(this.queue.splice(0, most)).finally(() => {
        this.reading = false;
        this.pump();
      });
    }
    const waiting = this.options.readsFirst ? this.ready : this.queue;
    if (!this.writing && waiting.length > 0) {
      this.writing = true;
      void this.write(waiting.splice(0, most), true).finally(() => {
        this.writing = false;
        if (this.queue.length > 0 || this.ready.length > 0) this.schedule();
        else if (this.isIdle()) for (const waiter of this.waiters.splice(0)) waiter();
      });
    }
  }

  /** Reads ahead for `items` (each loader once, for all its items), then makes them ready to write. */
  private async readAhead(items: Pending[]) {
    try {
      await readAheadOnPool(this.db, items, this.options.log);
    } finally {
      // Whatever happened, the items go on to be written (and answered).
      this.ready.push(...items);
    }
  }

  /**
   * One transaction for one piece of work; its collectors flushed before the commit. A transaction
   * cut by a lost connection before its commit was sent wrote nothing (the server rolled it back):
   * it runs once more, on a new connection. One whose commit was cut is not run again — it may have
   * been written — and fails as the database's being unavailable (503).
   */
  private async single<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await this.singleOnce(work);
    } catch (error) {
      if (!isUnwrittenUnavailable(error)) throw error;
      this.options.log?.warn({ err: error }, 'database connection lost before the commit; running the transaction again');
      return this.singleOnce(work);
    }
  }

  private async singleOnce<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const collectors = new Collectors();
    const result = await this.db.transaction().execute(async (q) => {
      const info: TxInfo = { now: Date.now(), dialect: this.dialect };
      const value = await work(makeTx(q, info, collectors, new Map()));
      await collectors.flush(q, info);
      return value;
    });
    collectors.committed();
    return result;
  }

  /** `readAhead`: whether what the items' read-aheads found may be used (not when a batch goes round again). */
  private async write(batch: Pending[], readAhead: boolean) {
    const started = performance.now();
    let rest = batch;
    for (let round = 0; rest.length > 0; round++) {
      const outcome = await this.attempt(rest, readAhead && round === 0);
      if (outcome.kind === 'done') {
        this.stats.batches++;
        this.stats.items += rest.length;
        this.options.onBatch?.(rest.length, (performance.now() - started) / 1000);
        rest.forEach((p, i) => {
          const o = outcome.results[i]!;
          if (o.ok) p.resolve(o.value);
          else p.reject(o.error);
        });
        return;
      }
      this.stats.retried++;
      if (outcome.kind === 'item') {
        // That item's own failure: answer it, and send the others round again without it.
        rest[outcome.index]!.reject(outcome.error);
        rest = rest.filter((_, i) => i !== outcome.index);
        continue;
      }
      if (isDatabaseUnavailable(outcome.error)) {
        // The database's failure, no item's: once more, on a new connection; if the database is
        // still out of reach, every item is answered so at once (503), not tried one by one.
        if (round >= 1) {
          for (const p of rest) p.reject(outcome.error);
          return;
        }
        this.options.log?.warn({ err: outcome.error, items: rest.length }, 'database connection lost; writing the batch again');
        continue;
      }
      // The flush or the commit failed: once more as a whole (another writer's change is visible
      // now), then item by item, so only the item that cannot be written fails.
      if (round >= 1 || rest.length === 1) {
        if (rest.length === 1) {
          rest[0]!.reject(outcome.error);
          return;
        }
        for (const p of rest) await this.write([p], false);
        return;
      }
      this.options.log?.warn({ err: outcome.error, items: rest.length }, 'group commit failed; writing the batch again');
    }
  }

  /**
   * One try at a batch. With `readAhead`, what the items' read-aheads found goes into the batch's
   * shared state; the others (and every item when a batch goes round again) are read for here. A
   * read-ahead made while the batch before was being written may have missed a repeat that batch
   * wrote: this batch's insert then fails, and it goes round again and finds it.
   */
  private async attempt(batch: Pending[], readAhead: boolean): Promise<{ kind: 'done'; results: Outcome } | { kind: 'item'; index: number; error: unknown } | { kind: 'batch'; error: unknown }> {
    const results: Outcome = [];
    let failedItem: { index: number; error: unknown } | null = null;
    const abort = new Error('item failed; batch rolled back');
    const info: TxInfo = { now: Date.now(), dialect: this.dialect };
    /** The items' work (reads through `q`, writes into collectors); the batch's collectors. */
    const perform = async (q: ReadOnlyDb) => {
      const all = new Collectors();
      const shared = new Map<unknown, unknown>();
      await applyReadAhead(q, makeTx(q, info, new Collectors(), shared), batch, readAhead);
      for (let i = 0; i < batch.length; i++) {
        const mine = new Collectors();
        try {
          const value = batch[i]!.work(makeTx(q, info, mine, shared));
          results.push({ ok: true, value: value instanceof Promise ? await value : value });
          all.mergeFrom(mine);
        } catch (error) {
          // A lost connection is the batch's failure, not this item's: the batch goes round again.
          if (isDatabaseUnavailable(error)) throw error;
          if (this.options.isItemError?.(error)) {
            results.push({ ok: false, error });
            continue;
          }
          failedItem = { index: i, error };
          throw abort;
        }
      }
      return all;
    };
    let written: Collectors;
    try {
      if (this.options.readsFirst) {
        // The reads before the transaction, on the pool (independent ones at once); the transaction
        // holds only the collected writes.
        const all = await perform(this.db);
        await this.db.transaction().execute(async (q) => {
          await all.flush(q, info);
        });
        written = all;
      } else {
        written = await this.db.transaction().execute(async (q) => {
          const all = await perform(q);
          await all.flush(q, info);
          return all;
        });
      }
    } catch (error) {
      if (failedItem) return { kind: 'item', ...(failedItem as { index: number; error: unknown }) };
      return { kind: 'batch', error };
    }
    written.committed();
    return { kind: 'done', results };
  }
}
