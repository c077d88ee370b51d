/**
 * The ledger's repository: its reads and writes, on both databases. The rules — accounts, balanced
 * journals, which balances may not go negative, what each commission and withdrawal should have
 * moved — are domain/ledger.ts. Every movement of money is one journal, written in the same
 * transaction as the business change it records (through the JOURNALS collector, or `postJournal`
 * in work that is not batchable); stored balances are updated in that transaction too, and
 * `checkLedger` proves they equal the entries.
 */
import type { LedgerLine } from '@pa/shared';
import { PostgresAdapter, sql, type InsertQueryBuilder, type InsertResult } from 'kysely';
import { writeRows } from '../db/hot';
import type { Database, Db, LedgerEntriesTable, LedgerJournalsTable, ReadOnlyDb } from '../db/types';
import { COLLECTOR_ORDER, type Collector, type CollectorKind } from '../db/unit-of-work';
import { balancedEntries, commissionHolds, emptyWallet, mayGoNegative, noMovement, promoterAccount, PROMOTER_BUCKETS, withdrawalMoves, type JournalInput, type PromoterBucket, type Wallet, type WithdrawalMovement } from '../domain/ledger';
import { newId } from './ids';
import { olderThan, pageOf } from './listing';

/**
 * A promoter's ledger lines in every bucket, newest first, in keyset pages: what the promoter's
 * wallet lists and what staff see on the promoter's page.
 */
export async function ledgerPage(db: ReadOnlyDb, promoterId: string, page: { limit: number; cursor?: string | undefined }): Promise<{ items: LedgerLine[]; nextCursor: string | null }> {
  let q = db
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_journals as j', 'j.id', 'e.journal_id')
    .select(['e.id', 'e.account', 'e.amount', 'j.id as journal_id', 'j.kind', 'j.ref_type', 'j.ref_id', 'j.memo_json', 'j.at'])
    .where('e.account', 'in', PROMOTER_BUCKETS.map((b) => promoterAccount(promoterId, b)))
    .orderBy('j.at', 'desc')
    .orderBy('e.id', 'desc')
    .limit(page.limit + 1);
  if (page.cursor) q = q.where(olderThan(page.cursor, 'j.at', 'e.id'));
  const { rows, nextCursor } = pageOf(await q.execute(), page.limit, (r) => [Number(r.at), r.id]);
  return {
    items: rows.map((r) => ({
      journalId: r.journal_id,
      kind: r.kind,
      refType: r.ref_type,
      refId: r.ref_id,
      account: r.account.slice(r.account.lastIndexOf(':') + 1) as PromoterBucket,
      amount: Number(r.amount),
      memo: JSON.parse(r.memo_json) as LedgerLine['memo'],
      at: Number(r.at),
    })),
    nextCursor,
  };
}

/** Writes one balanced journal and moves the stored balances. Call inside a transaction. */
export async function postJournal(q: Db, input: JournalInput): Promise<string> {
  const batch = new JournalBatch();
  const [id] = batch.post([input]);
  await batch.flush(q);
  await batch.flushLast(q);
  return id!;
}

/**
 * Journals, their entries and the balance changes they make, collected over a transaction (or a
 * whole group commit) and written together: one multi-row insert per table, each balance moved once.
 * `add` checks every journal at once (balanced, integer minor units), so a bad journal fails the
 * change that made it, not the batch's flush.
 */
export class JournalBatch implements Collector {
  readonly journals: LedgerJournalsTable[] = [];
  readonly entries: LedgerEntriesTable[] = [];
  readonly deltas: BalanceDeltas = new Map();
  private at = 0;

  post(inputs: JournalInput[]): string[] {
    const ids: string[] = [];
    for (const input of inputs) {
      const entries = balancedEntries(input);
      const id = newId(input.at);
      ids.push(id);
      this.journals.push({ id, kind: input.kind, ref_type: input.refType, ref_id: input.refId, promoter_id: input.promoterId, memo_json: JSON.stringify(input.memo ?? {}), at: input.at });
      for (const e of entries) {
        this.entries.push({ id: newId(input.at), journal_id: id, account: e.account, amount: e.amount });
        this.deltas.set(e.account, (this.deltas.get(e.account) ?? 0) + e.amount);
      }
      this.at = Math.max(this.at, input.at);
    }
    return ids;
  }

  merge(other: JournalBatch) {
    this.journals.push(...other.journals);
    this.entries.push(...other.entries);
    for (const [account, amount] of other.deltas) this.deltas.set(account, (this.deltas.get(account) ?? 0) + amount);
    this.at = Math.max(this.at, other.at);
  }

  async flush(q: Db) {
    await writeRows(q, 'ledger_journals', this.journals);
    await writeRows(q, 'ledger_entries', this.entries);
    await writeRows(q, 'ledger_balances', balanceRows(this.deltas, this.at).upserts, { shape: addToBalance });
  }

  /** The debits of balances that may not go negative, after every collector's writes (see `applyBalanceDeltas`). */
  async flushLast(q: Db) {
    await writeDebits(q, balanceRows(this.deltas, this.at).debits);
  }
}

/** The journals of a unit of work (flushed after the business rows, before rollups and notifications). */
export const JOURNALS: CollectorKind<JournalBatch> = { order: COLLECTOR_ORDER.journals, create: () => new JournalBatch() };

/** Balance changes collected over several journals, written together before the commit. */
export type BalanceDeltas = Map<string, number>;

type BalanceRow = { account: string; balance: number; updated_at: number };

/**
 * A transaction's balance changes, sorted by account, as the two writes they take: `debits`, of
 * balances that may not go negative (domain/ledger.ts `mayGoNegative`), and `upserts`, the rest —
 * credits, and debits of the accounts that may go negative (all a group commit of conversions
 * moves).
 */
function balanceRows(deltas: BalanceDeltas, at: number): { upserts: BalanceRow[]; debits: BalanceRow[] } {
  const upserts: BalanceRow[] = [];
  const debits: BalanceRow[] = [];
  for (const [account, balance] of [...deltas].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (balance === 0) continue;
    (balance < 0 && !mayGoNegative(account) ? debits : upserts).push({ account, balance, updated_at: at });
  }
  return { upserts, debits };
}

/**
 * Moves the stored balances, each row touched once: the upserts in one multi-row statement, then
 * the debits of balances that may not go negative. Such a debit is an update of its row — the
 * database checks the balance it leaves (`ledger_balances_non_negative`), where an insert-or-update
 * would have it check the debit alone as a new row's balance (both databases check an upsert's
 * proposed row before finding its conflict); its row missing is a balance going below zero,
 * refused by the same check.
 *
 * In a unit of work the debits come after every collector's writes (`flushLast`): on PostgreSQL a
 * transaction's writes are sent as one statement whose clauses run last first (db/pg-client.ts),
 * so the group commit takes the rollup rows, then the balances by account; a refund or an approval
 * must take them in that order too, or the two deadlock — an update sent in the middle of its
 * flush would take its balances before its rollups.
 */
export async function applyBalanceDeltas(q: Db, deltas: BalanceDeltas, at: number) {
  const { upserts, debits } = balanceRows(deltas, at);
  await writeRows(q, 'ledger_balances', upserts, { shape: addToBalance });
  await writeDebits(q, debits);
}

async function writeDebits(q: Db, debits: BalanceRow[]) {
  for (const d of debits) {
    const moved = await q.updateTable('ledger_balances').set((eb) => ({ balance: eb('balance', '+', d.balance), updated_at: d.updated_at })).where('account', '=', d.account).executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) await q.insertInto('ledger_balances').values(d).execute();
  }
}
const addToBalance = (insert: InsertQueryBuilder<Database, 'ledger_balances', InsertResult>) =>
  insert.onConflict((oc) => oc.column('account').doUpdateSet((eb) => ({ balance: eb('ledger_balances.balance', '+', eb.ref('excluded.balance')), updated_at: eb.ref('excluded.updated_at') })));

/** A promoter's balances, from the stored balances the ledger keeps. */
export async function walletOf(db: ReadOnlyDb, promoterId: string): Promise<Wallet> {
  const rows = await db
    .selectFrom('ledger_balances')
    .select(['account', 'balance'])
    .where('account', 'in', PROMOTER_BUCKETS.map((b) => promoterAccount(promoterId, b)))
    .execute();
  const wallet = emptyWallet();
  for (const r of rows) wallet[r.account.slice(r.account.lastIndexOf(':') + 1) as PromoterBucket] = Number(r.balance);
  return wallet;
}

/** Locks a promoter's available balance row for the rest of the transaction (PostgreSQL; SQLite transactions are serial). */
export async function lockBalance(trx: Db, account: string, dialect: 'sqlite' | 'postgres'): Promise<number> {
  if (dialect === 'postgres') {
    await trx.insertInto('ledger_balances').values({ account, balance: 0, updated_at: Date.now() }).onConflict((oc) => oc.column('account').doNothing()).execute();
    const row = await trx.selectFrom('ledger_balances').select('balance').where('account', '=', account).forUpdate().executeTakeFirst();
    return Number(row?.balance ?? 0);
  }
  const row = await trx.selectFrom('ledger_balances').select('balance').where('account', '=', account).executeTakeFirst();
  return Number(row?.balance ?? 0);
}

export interface LedgerBreach {
  kind: 'journal_unbalanced' | 'balance_mismatch' | 'commission_mismatch' | 'withdrawal_mismatch' | 'adjustment_mismatch';
  ref: string;
  detail: string;
}

/**
 * Verifies every invariant: each journal sums to zero; each stored balance equals the sum of its
 * entries; each commission's pending and available movements match its status and amounts; each
 * withdrawal's movements match its status (the money sits where the status says, and only there).
 */
export async function checkLedger(db: Db, scope?: { promoterIds: string[] }): Promise<LedgerBreach[]> {
  // Its several reads must see one moment, or a commission approved between two of them shows as a
  // false breach: on PostgreSQL a repeatable-read, read-only transaction (one snapshot); on SQLite
  // a transaction, which holds the one connection, so no write lands between the reads.
  if (db.isTransaction) return checkLedgerAt(db, scope);
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return db.transaction().execute((trx) => checkLedgerAt(trx, scope));
  return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute((trx) => checkLedgerAt(trx, scope));
}

async function checkLedgerAt(db: Db, scope?: { promoterIds: string[] }): Promise<LedgerBreach[]> {
  const breaches: LedgerBreach[] = [];
  // A scope limits the check to some promoters' journals, accounts and commissions (for tests that check after every step).
  const ids = scope?.promoterIds ?? [];
  const accounts = ids.flatMap((id) => PROMOTER_BUCKETS.map((b) => promoterAccount(id, b)));
  const unbalanced = await db
    .selectFrom('ledger_journals')
    .$if(!!scope, (q) => q.where('ledger_journals.id', 'in', (eb) => eb.selectFrom('ledger_entries').select('journal_id').where('account', 'in', accounts)))
    .leftJoin('ledger_entries', 'ledger_entries.journal_id', 'ledger_journals.id')
    .select(['ledger_journals.id', (eb) => eb.fn.coalesce(eb.fn.sum<number>('ledger_entries.amount'), sql<number>`0`).as('total'), (eb) => eb.fn.count<number>('ledger_entries.id').as('n')])
    .groupBy('ledger_journals.id')
    .having((eb) => eb.or([eb(eb.fn.coalesce(eb.fn.sum('ledger_entries.amount'), sql`0`), '!=', 0), eb(eb.fn.count('ledger_entries.id'), '=', 0)]))
    .execute();
  for (const j of unbalanced) breaches.push({ kind: 'journal_unbalanced', ref: j.id, detail: `sum ${j.total} over ${j.n} entries` });

  const sums = await db.selectFrom('ledger_entries').select(['account', (eb) => eb.fn.sum<number>('amount').as('total')]).$if(!!scope, (q) => q.where('account', 'in', accounts)).groupBy('account').execute();
  const stored = await db.selectFrom('ledger_balances').select(['account', 'balance']).$if(!!scope, (q) => q.where('account', 'in', accounts)).execute();
  const expected = new Map(sums.map((s) => [s.account, Number(s.total)]));
  const actual = new Map(stored.map((s) => [s.account, Number(s.balance)]));
  for (const account of new Set([...expected.keys(), ...actual.keys()])) {
    const e = expected.get(account) ?? 0;
    const a = actual.get(account) ?? 0;
    if (e !== a) breaches.push({ kind: 'balance_mismatch', ref: account, detail: `stored ${a}, entries ${e}` });
  }

  // Per commission: the net it put into the promoter's pending and available accounts.
  const moved = await db
    .selectFrom('ledger_entries')
    .innerJoin('ledger_journals', 'ledger_journals.id', 'ledger_entries.journal_id')
    .select(['ledger_journals.ref_id', 'ledger_entries.account', (eb) => eb.fn.sum<number>('ledger_entries.amount').as('total')])
    .where('ledger_journals.ref_type', '=', 'commission')
    .$if(!!scope, (q) => q.where('ledger_journals.id', 'in', (eb) => eb.selectFrom('ledger_entries').select('journal_id').where('account', 'in', accounts)))
    .groupBy(['ledger_journals.ref_id', 'ledger_entries.account'])
    .execute();
  const net = new Map<string, { pending: number; available: number }>();
  for (const m of moved) {
    const n = net.get(m.ref_id) ?? { pending: 0, available: 0 };
    if (m.account.endsWith(':pending')) n.pending += Number(m.total);
    else if (m.account.endsWith(':available')) n.available += Number(m.total);
    net.set(m.ref_id, n);
  }
  const commissions = await db.selectFrom('commissions').select(['id', 'status', 'amount', 'reversed_amount']).$if(!!scope, (q) => q.where('promoter_id', 'in', ids)).execute();
  for (const c of commissions) {
    const n = net.get(c.id) ?? { pending: 0, available: 0 };
    const remaining = Number(c.amount) - Number(c.reversed_amount);
    // What the status says the commission should have left in each account.
    const want = commissionHolds(c.status, Number(c.amount), Number(c.reversed_amount));
    if (c.status === 'reversed' && remaining !== 0) breaches.push({ kind: 'commission_mismatch', ref: c.id, detail: `reversed with ${remaining} left` });
    if (n.pending !== want.pending || n.available !== want.available) {
      breaches.push({ kind: 'commission_mismatch', ref: c.id, detail: `${c.status}: pending ${n.pending} (want ${want.pending}), available ${n.available} (want ${want.available})` });
    }
    net.delete(c.id);
  }
  for (const ref of net.keys()) breaches.push({ kind: 'commission_mismatch', ref, detail: 'journals for an unknown commission' });
  breaches.push(...(await checkWithdrawals(db, scope ? ids : null)));
  breaches.push(...(await checkAdjustments(db, scope ? ids : null)));
  return breaches;
}

/** Per withdrawal: the net it moved through the promoter's accounts, against what its status says. */
async function checkWithdrawals(db: Db, promoterIds: string[] | null): Promise<LedgerBreach[]> {
  const breaches: LedgerBreach[] = [];
  const moved = await db
    .selectFrom('ledger_entries')
    .innerJoin('ledger_journals', 'ledger_journals.id', 'ledger_entries.journal_id')
    .select(['ledger_journals.ref_id', 'ledger_entries.account', (eb) => eb.fn.sum<number>('ledger_entries.amount').as('total')])
    .where('ledger_journals.ref_type', '=', 'withdrawal')
    .$if(!!promoterIds, (q) => q.where('ledger_journals.promoter_id', 'in', promoterIds!))
    .groupBy(['ledger_journals.ref_id', 'ledger_entries.account'])
    .execute();
  type Net = WithdrawalMovement;
  const zero = noMovement;
  const net = new Map<string, Net>();
  for (const m of moved) {
    const n = net.get(m.ref_id) ?? zero();
    const bucket = m.account === 'platform:fees' ? 'fees' : (m.account.slice(m.account.lastIndexOf(':') + 1) as keyof Net);
    if (bucket in n) n[bucket] += Number(m.total);
    net.set(m.ref_id, n);
  }
  const rows = await db.selectFrom('withdrawals').select(['id', 'status', 'amount', 'fee', 'net']).$if(!!promoterIds, (q) => q.where('promoter_id', 'in', promoterIds!)).execute();
  for (const w of rows) {
    const a = Number(w.amount);
    const want = withdrawalMoves(w.status, a, Number(w.fee), Number(w.net));
    const got = net.get(w.id) ?? zero();
    const off = (Object.keys(want) as (keyof Net)[]).filter((k) => want[k] !== got[k]);
    if (off.length > 0) breaches.push({ kind: 'withdrawal_mismatch', ref: w.id, detail: `${w.status}: ${off.map((k) => `${k} ${got[k]} (want ${want[k]})`).join(', ')}` });
    if (Number(w.fee) + Number(w.net) !== a) breaches.push({ kind: 'withdrawal_mismatch', ref: w.id, detail: `fee ${w.fee} + net ${w.net} ≠ amount ${a}` });
    net.delete(w.id);
  }
  for (const ref of net.keys()) breaches.push({ kind: 'withdrawal_mismatch', ref, detail: 'journals for an unknown withdrawal' });
  return breaches;
}

/**
 * Per adjustment: its journal exists and moves exactly `amount` into the promoter's available
 * account and its opposite out of `platform:adjustments`, nothing else; no adjustment journal is
 * without its row; and `platform:adjustments` holds exactly minus the sum of the adjustments (no
 * other journal may touch it).
 */
async function checkAdjustments(db: Db, promoterIds: string[] | null): Promise<LedgerBreach[]> {
  const breaches: LedgerBreach[] = [];
  const moved = await db
    .selectFrom('ledger_entries')
    .innerJoin('ledger_journals', 'ledger_journals.id', 'ledger_entries.journal_id')
    .select(['ledger_journals.id as journal_id', 'ledger_journals.ref_id', 'ledger_entries.account', (eb) => eb.fn.sum<number>('ledger_entries.amount').as('total')])
    .where('ledger_journals.ref_type', '=', 'adjustment')
    .$if(!!promoterIds, (q) => q.where('ledger_journals.promoter_id', 'in', promoterIds!))
    .groupBy(['ledger_journals.id', 'ledger_journals.ref_id', 'ledger_entries.account'])
    .execute();
  const journals = new Map<string, { refId: string; byAccount: Map<string, number> }>();
  for (const m of moved) {
    const j = journals.get(m.journal_id) ?? { refId: m.ref_id, byAccount: new Map<string, number>() };
    j.byAccount.set(m.account, (j.byAccount.get(m.account) ?? 0) + Number(m.total));
    journals.set(m.journal_id, j);
  }
  const rows = await db.selectFrom('adjustments').select(['id', 'promoter_id', 'amount', 'journal_id']).$if(!!promoterIds, (q) => q.where('promoter_id', 'in', promoterIds!)).execute();
  let total = 0;
  for (const a of rows) {
    const amount = Number(a.amount);
    total += amount;
    const j = journals.get(a.journal_id);
    journals.delete(a.journal_id);
    if (!j || j.refId !== a.id) {
      breaches.push({ kind: 'adjustment_mismatch', ref: a.id, detail: `journal ${a.journal_id} missing or not this adjustment's` });
      continue;
    }
    const want = new Map([[promoterAccount(a.promoter_id, 'available'), amount], ['platform:adjustments', -amount]]);
    const off = [...new Set([...want.keys(), ...j.byAccount.keys()])].filter((k) => (want.get(k) ?? 0) !== (j.byAccount.get(k) ?? 0));
    if (off.length > 0) breaches.push({ kind: 'adjustment_mismatch', ref: a.id, detail: off.map((k) => `${k} ${j.byAccount.get(k) ?? 0} (want ${want.get(k) ?? 0})`).join(', ') });
  }
  for (const [journalId, j] of journals) breaches.push({ kind: 'adjustment_mismatch', ref: j.refId, detail: `journal ${journalId} for an unknown adjustment` });

  // The platform side: everything in platform:adjustments came from an adjustment, and all of it.
  const platform = await db
    .selectFrom('ledger_entries')
    .innerJoin('ledger_journals', 'ledger_journals.id', 'ledger_entries.journal_id')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('ledger_entries.amount'), sql<number>`0`).as('total'))
    .where('ledger_entries.account', '=', 'platform:adjustments')
    .$if(!!promoterIds, (q) => q.where('ledger_journals.promoter_id', 'in', promoterIds!))
    .executeTakeFirst();
  const held = Number(platform?.total ?? 0);
  if (held !== -total) breaches.push({ kind: 'adjustment_mismatch', ref: 'platform:adjustments', detail: `holds ${held}, adjustments sum to ${total} (want ${-total})` });
  return breaches;
}
