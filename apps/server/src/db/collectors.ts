/**
 * The collector protocol of the one write path (db/unit-of-work.ts): what a piece of work sees of
 * its transaction (`Tx`, or `BatchTx` for batchable work), the collectors it hands what many changes
 * share to, and the one table of the order they are flushed in.
 */
import type { Db, Dialect, ReadOnlyDb } from './types';

/** Something many changes add to, written once per transaction (in `order`, lowest first). */
export interface Collector {
  /** Adds what another (successful) item collected. */
  merge(other: this): void;
  /** Writes what was collected, inside the transaction, before the commit. */
  flush(q: Db, tx: TxInfo): Promise<void>;
  /**
   * Writes that must follow every collector's `flush` (in the same order): the ledger's debits of
   * balances that may not go negative, updates that on PostgreSQL are sent after the pipelined
   * writes (platform/ledger.ts `applyBalanceDeltas`).
   */
  flushLast?(q: Db, tx: TxInfo): Promise<void>;
  /**
   * After the commit (not after a rollback): hands what was written to whoever acts on it in this
   * process (the webhook dispatcher). It must not throw, and what it starts must not depend on
   * happening — the rows are the record, and a process that dies first leaves them to be found.
   */
  committed?(): void;
}

/** A kind of collector: how to make an empty one, and where it flushes relative to the others. */
export interface CollectorKind<C extends Collector> {
  /** One of COLLECTOR_ORDER's (tests may use others). */
  readonly order: number;
  create(): C;
}

/**
 * Every collector's place in the flush, lowest first — the same in every transaction, so two
 * transactions take their row locks table by table in one order (no deadlock between them), and a
 * row is written before anything that refers to it or summarizes it.
 */
export const COLLECTOR_ORDER = {
  /** Click rows and the visitors' 24-hour uniqueness (platform/click-buffer.ts): first, so what reads a batch's clicks finds them. */
  clicks: 5,
  /** Conversion and commission rows, customer bindings (modules/commissions/service.ts): the business rows the journals record. */
  moneyRows: 10,
  /** Risk cases, their evidence and the commissions they hold (modules/fraud/service.ts): after the rows they name. */
  riskCases: 20,
  /** Ledger journals, their entries, the stored balances (platform/ledger.ts): after the rows they record. */
  journals: 30,
  /** Per-day figures (platform/rollups.ts): after the rows and journals they summarize. */
  rollups: 40,
  /** In-app notifications (platform/notifications.ts): of every change above. */
  notifications: 50,
  /** Webhook events and their deliveries (platform/webhooks/outbox.ts): after everything an event describes. */
  webhookEvents: 60,
  /** Outgoing mail (platform/mail/outbox.ts): last, after the webhook outbox. */
  mail: 65,
} as const;

export interface TxInfo {
  /** When this transaction started (one clock reading for every item of a batch). */
  readonly now: number;
  readonly dialect: Dialect;
}

/** A piece of work's view of its transaction, `q` its query handle. */
export interface TxOf<Q extends ReadOnlyDb> extends TxInfo {
  readonly q: Q;
  /** This work's collector of a kind (made on first use). */
  collect<C extends Collector>(kind: CollectorKind<C>): C;
  /** A cache shared by every item of this transaction (campaign rows read once per batch, say). */
  readonly shared: Map<unknown, unknown>;
}

/** Work that is not batchable: `q` is its transaction, which it reads and writes through. */
export type Tx = TxOf<Db>;
/**
 * Batchable work: `q` only reads (with `readsFirst` it is the pool itself, outside any
 * transaction); every write goes through a collector. What a read-only helper takes: a `Tx` is one.
 */
export type BatchTx = TxOf<ReadOnlyDb>;

/** The collectors of one piece of work, or of a batch. */
export class Collectors {
  // Most work collects into one or two kinds: a short list beats a Map made per item.
  private readonly kinds: CollectorKind<Collector>[] = [];
  private readonly items: Collector[] = [];
  get<C extends Collector>(kind: CollectorKind<C>): C {
    const i = this.kinds.indexOf(kind as CollectorKind<Collector>);
    if (i >= 0) return this.items[i] as C;
    const c = kind.create();
    this.kinds.push(kind as CollectorKind<Collector>);
    this.items.push(c);
    return c;
  }
  mergeFrom(other: Collectors) {
    for (let i = 0; i < other.kinds.length; i++) this.get(other.kinds[i]!).merge(other.items[i]!);
  }
  async flush(q: Db, info: TxInfo) {
    const order = this.kinds.map((_, i) => i).sort((a, b) => this.kinds[a]!.order - this.kinds[b]!.order);
    for (const i of order) await this.items[i]!.flush(q, info);
    for (const i of order) await this.items[i]!.flushLast?.(q, info);
  }
  committed() {
    for (const c of this.items) c.committed?.();
  }
}

/** One piece of work's view of its transaction (a class, not a closure: one is made per item of a batch). */
class WorkTx<Q extends ReadOnlyDb> implements TxOf<Q> {
  readonly now: number;
  readonly dialect: Dialect;
  constructor(readonly q: Q, info: TxInfo, readonly collectors: Collectors, readonly shared: Map<unknown, unknown>) {
    this.now = info.now;
    this.dialect = info.dialect;
  }
  collect<C extends Collector>(kind: CollectorKind<C>): C {
    return this.collectors.get(kind);
  }
}
export const makeTx = <Q extends ReadOnlyDb>(q: Q, info: TxInfo, collectors: Collectors, shared: Map<unknown, unknown>): TxOf<Q> => new WorkTx(q, info, collectors, shared);
