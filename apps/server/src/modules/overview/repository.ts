/**
 * The overview's queries: program figures from `program_daily_stats`, promoters' sales by day from
 * `promoter_day_sales` and their figures from `daily_stats` (by its primary key), balances from
 * `ledger_balances`, counts for the work queue. Never the clicks, conversions or commissions rows'
 * figures (docs/stats.md).
 */
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/types';
import { ROLLUP_COLUMNS, type RollupColumn } from '../../platform/rollups';

export type Sums = Record<RollupColumn, number>;
export const emptySums = (): Sums => Object.fromEntries(ROLLUP_COLUMNS.map((c) => [c, 0])) as Sums;
const toSums = (row: Record<string, unknown>): Sums => Object.fromEntries(ROLLUP_COLUMNS.map((c) => [c, Number(row[c] ?? 0)])) as Sums;

/** The program's figures per day over [from, to]. */
export async function programByDay(db: Db, from: string, to: string): Promise<Map<string, Sums>> {
  const rows = await db
    .selectFrom('program_daily_stats')
    .select((eb) => ['day', ...ROLLUP_COLUMNS.map((c) => eb.fn.sum<number>(c).as(c))])
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy('day')
    .execute();
  return new Map(rows.map((r) => [r.day, toSums(r as Record<string, unknown>)]));
}

/** Campaigns by sale amount (then commission) over [from, to]. */
export async function topCampaigns(db: Db, from: string, to: string, limit: number) {
  const rows = await db
    .selectFrom('program_daily_stats')
    .innerJoin('campaigns', 'campaigns.id', 'program_daily_stats.campaign_id')
    .select((eb) => [
      'program_daily_stats.campaign_id as id',
      'campaigns.names_json',
      eb.fn.sum<number>('program_daily_stats.clicks').as('clicks'),
      eb.fn.sum<number>('program_daily_stats.sales').as('sales'),
      eb.fn.sum<number>('program_daily_stats.sale_amount').as('sale_amount'),
      eb.fn.sum<number>(eb('program_daily_stats.commission_pending', '+', eb.ref('program_daily_stats.commission_approved'))).as('commission'),
    ])
    .where('program_daily_stats.day', '>=', from)
    .where('program_daily_stats.day', '<=', to)
    .groupBy(['program_daily_stats.campaign_id', 'campaigns.names_json'])
    .execute();
  return rows
    .map((r) => ({ id: r.id, namesJson: r.names_json, clicks: Number(r.clicks), sales: Number(r.sales), saleAmount: Number(r.sale_amount), commission: Number(r.commission) }))
    .filter((r) => r.clicks > 0 || r.sales > 0 || r.commission > 0)
    .sort((a, b) => b.saleAmount - a.saleAmount || b.commission - a.commission || (a.id < b.id ? -1 : 1))
    .slice(0, limit);
}

/** A day's promoters with the highest sale amount (the index on (day, sale_amount), read backwards). */
export async function dayLeaders(db: Db, day: string, limit: number): Promise<{ promoterId: string; amount: number }[]> {
  const rows = await db
    .selectFrom('promoter_day_sales')
    .select(['promoter_id', 'sale_amount'])
    .where('day', '=', day)
    .where('sale_amount', '>', 0)
    .orderBy('sale_amount', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ promoterId: r.promoter_id, amount: Number(r.sale_amount) }));
}

/** Every promoter's sale amount over [from, to], highest first (the exact answer, when the shortcut cannot prove its own). */
export async function promoterSalesRanking(db: Db, from: string, to: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('promoter_day_sales')
    .select((eb) => ['promoter_id', eb.fn.sum<number>('sale_amount').as('amount')])
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy('promoter_id')
    .having((eb) => eb.fn.sum('sale_amount'), '>', 0)
    .orderBy('amount', 'desc')
    .orderBy('promoter_id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.promoter_id);
}

/** Some promoters' figures over [from, to] (daily_stats is clustered by promoter and day). */
export async function promoterFigures(db: Db, ids: string[], from: string, to: string) {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('daily_stats')
    .innerJoin('users', 'users.id', 'daily_stats.promoter_id')
    .select((eb) => [
      'daily_stats.promoter_id as id',
      'users.display_name',
      'users.account',
      eb.fn.sum<number>('daily_stats.clicks').as('clicks'),
      eb.fn.sum<number>('daily_stats.sales').as('sales'),
      eb.fn.sum<number>('daily_stats.sale_amount').as('sale_amount'),
      eb.fn.sum<number>(eb('daily_stats.commission_pending', '+', eb.ref('daily_stats.commission_approved'))).as('commission'),
    ])
    .where('daily_stats.promoter_id', 'in', ids)
    .where('daily_stats.day', '>=', from)
    .where('daily_stats.day', '<=', to)
    .groupBy(['daily_stats.promoter_id', 'users.display_name', 'users.account'])
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.display_name, account: r.account, clicks: Number(r.clicks), sales: Number(r.sales), saleAmount: Number(r.sale_amount), commission: Number(r.commission) }));
}

/** Net paid out by withdrawals paid in [fromMs, toMs). */
export async function paidOutBetween(db: Db, fromMs: number, toMs: number): Promise<number> {
  const row = await db
    .selectFrom('withdrawals')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('net'), sql<number>`0`).as('net'))
    .where('status', '=', 'paid')
    .where('paid_at', '>=', fromMs)
    .where('paid_at', '<', toMs)
    .executeTakeFirst();
  return Number(row?.net ?? 0);
}

/** Promoters registered in [fromMs, toMs) (the index on (role, created_at), migration 016). */
export async function promotersRegisteredBetween(db: Db, fromMs: number, toMs: number): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'promoter')
    .where('created_at', '>=', fromMs)
    .where('created_at', '<', toMs)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * What promoters are owed now, from the stored balances the ledger keeps: available, and
 * withdrawing plus payable (requested and approved withdrawals). Each sum reads only its partial
 * covering index (migration 011), whose condition the query repeats word for word.
 */
export async function liability(db: Db): Promise<{ available: number; withdrawing: number }> {
  const sum = (owed: RawBuilder<boolean>) =>
    db.selectFrom('ledger_balances').select(sql<number>`coalesce(sum(balance), 0)`.as('total')).where(owed).executeTakeFirst().then((r) => Number(r?.total ?? 0));
  const [available, withdrawing] = await Promise.all([
    sum(sql<boolean>`account like '%:available'`),
    sum(sql<boolean>`(account like '%:withdrawing' or account like '%:payable')`),
  ]);
  return { available, withdrawing };
}

const countOf = (row: { n: number | string | bigint } | undefined) => Number(row?.n ?? 0);

/** Promoters whose registration awaits approval (an index range: users by status). */
export const pendingRegistrations = (db: Db) =>
  db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'pending').where('role', '=', 'promoter').executeTakeFirst().then(countOf);

/** Campaign applications awaiting a decision. */
export const pendingEnrollments = (db: Db) =>
  db.selectFrom('enrollments').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'pending').executeTakeFirst().then(countOf);

/** Withdrawals requested, to approve or reject. */
export const withdrawalsToApprove = (db: Db) =>
  db.selectFrom('withdrawals').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'requested').executeTakeFirst().then(countOf);

/**
 * The work queue's counts (each an index range: users, enrollments and withdrawals by status;
 * commissions by campaign and status). Commissions count only campaigns approved by hand: the
 * others are approved when their hold ends, nobody reviews them. The overview, the daily summary
 * mail and the staff notifications all read these.
 */
export async function workQueueCounts(db: Db) {
  const manual = (await db.selectFrom('campaigns').select('id').where('approval_mode', '=', 'manual').execute()).map((c) => c.id);
  const [registrations, enrollments, commissions, withdrawals] = await Promise.all([
    pendingRegistrations(db),
    pendingEnrollments(db),
    manual.length
      ? db.selectFrom('commissions').select((eb) => eb.fn.countAll<number>().as('n')).where('campaign_id', 'in', manual).where('status', '=', 'pending').executeTakeFirst().then(countOf)
      : Promise.resolve(0),
    db.selectFrom('withdrawals').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).where('status', 'in', ['requested', 'approved']).groupBy('status').execute(),
  ]);
  return {
    registrations,
    enrollments,
    commissions,
    withdrawalsToApprove: countOf(withdrawals.find((w) => w.status === 'requested')),
    withdrawalsToPay: countOf(withdrawals.find((w) => w.status === 'approved')),
  };
}
