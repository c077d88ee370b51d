/**
 * The one write path: every change runs as `uow.run(work, { batchable })`, the same code on SQLite and
 * PostgreSQL.
 *
 * - `work(tx)` reads through `tx.q` and hands what many changes share — journals and balances,
 *   rollups, notifications, multi-row inserts — to collectors (`tx.collect(Kind)`), which are
 *   flushed once, in a fixed order (`COLLECTOR_ORDER`, db/collectors.ts), just before the commit.
 *   Work that is not batchable gets its transaction as `tx.q` (`Tx`) and may also write through it.
 * - Batchable work (conversions, clicks) joins a group commit: the work of every request queued
 *   meanwhile runs in one transaction, its collectors merged and flushed once for the batch, and
 *   nobody is answered before that commit — an acknowledged change is stored. A commit costs more
 *   than one small change's statements (an fsync on SQLite, a round trip and a WAL flush on
 *   PostgreSQL), so sharing it is what keeps both fast under load.
 * - Batchable work gets a read-only `tx.q` (`BatchTx`: `selectFrom` and `selectNoFrom`, no writes,
 *   no raw SQL — with `readsFirst` it is the pool itself, outside the batch's transaction), so it
 *   writes only through collectors, which the compiler enforces: then an item whose
 *   work throws a catalogue error (`AppError`) leaves nothing behind and the rest of the batch goes
 *   on. Any other error (a failed statement poisons a PostgreSQL transaction) rolls the batch back;
 *   that item is answered with its error and the batch goes round again without it. A batch whose
 *   flush or commit fails (a duplicate delivery committed meanwhile by another instance, a deadlock)
 *   goes round again as a whole, and after that item by item, so one bad item cannot sink the others.
 *   A lost database connection (db/unavailable.ts) is the batch's failure, whichever item met it: the
 *   batch goes round again on a new connection (a commit whose answer was lost included: the work
 *   reads what is stored and finds a repeat); what still fails is answered 503 `SERVICE_UNAVAILABLE`.
 *
 * Its parts: the collector protocol and the order table (db/collectors.ts), the group commit and
 * single transactions (db/group-commit.ts), the read-ahead (db/read-ahead.ts). Import from here.
 */
export { COLLECTOR_ORDER, type BatchTx, type Collector, type CollectorKind, type Tx, type TxInfo, type TxOf } from './collectors';
export { UnitOfWork, type BatchOptions, type IsItemError, type RunOptions, type SingleOptions, type UnitOfWorkOptions } from './group-commit';
export type { Preloader } from './read-ahead';
