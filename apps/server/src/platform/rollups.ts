/**
 * Per-day rollups (`daily_stats`) and leaderboard period totals (`period_stats`), kept up to date
 * in the transactions that write the rows they count: clicks (the click writer's batches),
 * conversions and commissions (the conversion batches), commission decisions and reversals.
 * Changes are collected as deltas and written once per key per transaction, as one upsert.
 *
 * What counts where (the rebuild in platform/rollups-rebuild.ts computes exactly this from the rows):
 * - clicks: a person's visits only (`clickDelta`) — bots and link-preview fetchers go to
 *   `bot_clicks` instead, never to `clicks` or `unique_clicks`; all on the click's promoter,
 *   campaign, link and day;
 * - leads, sales, sale amount: attributed conversions, on their day; refunds add to the refunded
 *   amount of the sale's row (the sale's day), so a day's net sales never change sign;
 * - commission by status: a commission's amount minus what was reversed sits in the column of its
 *   status, the reversed part in `commission_reversed`, on the day of its conversion and on its
 *   link — for a level-2 override, on `team:<member>` (the member whose sale earned it), so the
 *   team screen reads each member's override from the inviter's own rows;
 * - period totals: earnings = pending + approved commission, conversions = leads + sales, in the
 *   week (from Monday) and the month of the day;
 * - the program's figures (`program_daily_stats`, for the operator's overview): the same deltas
 *   summed by day and campaign; and each promoter's sale amount per day (`promoter_day_sales`).
 */
import { sql, type InsertQueryBuilder, type InsertResult, type RawBuilder } from 'kysely';
import { writeRows } from '../db/hot';
import type { Database, Db } from '../db/types';
import { COLLECTOR_ORDER, type Collector, type CollectorKind } from '../db/unit-of-work';

export const ROLLUP_COLUMNS = ['clicks', 'unique_clicks', 'bot_clicks', 'leads', 'sales', 'sale_amount', 'refund_amount', 'commission_pending', 'commission_approved', 'commission_rejected', 'commission_reversed'] as const;
export type RollupColumn = (typeof ROLLUP_COLUMNS)[number];
export type RollupDelta = Partial<Record<RollupColumn, number>>;
export type CommissionState = 'pending' | 'approved' | 'rejected' | 'reversed';

/**
 * What one stored click adds: a person's visit to `clicks` (and `unique_clicks` when it is the
 * visitor's first in 24 h), a bot's or a preview fetcher's to `bot_clicks` alone — so every screen
 * that reads `clicks` reads people. The click writer and the rebuild both sum with this.
 */
export function clickDelta(click: { is_unique: number; is_bot: number }): RollupDelta {
  return click.is_bot ? { bot_clicks: 1 } : { clicks: 1, unique_clicks: click.is_unique ? 1 : 0 };
}

/** Where a commission counts: its link, or for a level-2 override `team:<member>`. */
export const TEAM_LINK_PREFIX = 'team:';
export function commissionLink(c: { level: number; link_id: string | null; source_promoter_id: string | null }): string | null {
  return c.level === 2 && c.source_promoter_id ? `${TEAM_LINK_PREFIX}${c.source_promoter_id}` : c.link_id;
}

/** The rollup column holding a commission's remaining amount in this status. */
export const commissionColumn = (status: CommissionState): RollupColumn => `commission_${status}`;

interface DailyRow {
  promoterId: string;
  day: string;
  campaignId: string;
  linkId: string;
  values: Record<RollupColumn, number>;
}
interface ProgramRow {
  day: string;
  campaignId: string;
  values: Record<RollupColumn, number>;
}
interface DaySalesRow {
  day: string;
  promoterId: string;
  amount: number;
}
interface PeriodRow {
  period: string;
  promoterId: string;
  earnings: number;
  conversions: number;
}

const zeros = (): Record<RollupColumn, number> => Object.fromEntries(ROLLUP_COLUMNS.map((c) => [c, 0])) as Record<RollupColumn, number>;

const periodMemo = new Map<string, [string, string]>();
/** The leaderboard periods of a day: its week (Monday-based, keyed by the Monday) and its month. */
export function periodsOf(day: string): [week: string, month: string] {
  let periods = periodMemo.get(day);
  if (!periods) {
    const t = Date.parse(`${day}T00:00:00Z`);
    const weekday = (new Date(t).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
    periods = [`w:${new Date(t - weekday * 86_400_000).toISOString().slice(0, 10)}`, `m:${day.slice(0, 7)}`];
    if (periodMemo.size > 10_000) periodMemo.clear();
    periodMemo.set(day, periods);
  }
  return periods;
}

/** Deltas for one transaction, merged by key. */
export class Rollups implements Collector {
  readonly daily = new Map<string, DailyRow>();
  readonly periods = new Map<string, PeriodRow>();
  /** `day|campaign` → the program's deltas. */
  readonly program = new Map<string, ProgramRow>();
  /** `day|promoter` → sale amount delta. */
  readonly daySales = new Map<string, DaySalesRow>();

  addFigures(promoterId: string, day: string, campaignId: string, linkId: string | null, delta: RollupDelta) {
    const link = linkId ?? '';
    const key = `${promoterId}|${day}|${campaignId}|${link}`;
    let row = this.daily.get(key);
    if (!row) {
      row = { promoterId, day, campaignId, linkId: link, values: zeros() };
      this.daily.set(key, row);
    }
    const pkey = `${day}|${campaignId}`;
    let program = this.program.get(pkey);
    if (!program) {
      program = { day, campaignId, values: zeros() };
      this.program.set(pkey, program);
    }
    for (const c in delta) {
      row.values[c as RollupColumn] += delta[c as RollupColumn]!;
      program.values[c as RollupColumn] += delta[c as RollupColumn]!;
    }
    if (delta.sale_amount) {
      const skey = `${day}|${promoterId}`;
      const s = this.daySales.get(skey);
      if (s) s.amount += delta.sale_amount;
      else this.daySales.set(skey, { day, promoterId, amount: delta.sale_amount });
    }
    const earnings = (delta.commission_pending ?? 0) + (delta.commission_approved ?? 0);
    const conversions = (delta.leads ?? 0) + (delta.sales ?? 0);
    if (earnings !== 0 || conversions !== 0) {
      for (const period of periodsOf(day)) {
        const pkey = `${period}|${promoterId}`;
        let p = this.periods.get(pkey);
        if (!p) {
          p = { period, promoterId, earnings: 0, conversions: 0 };
          this.periods.set(pkey, p);
        }
        p.earnings += earnings;
        p.conversions += conversions;
      }
    }
  }

  /** Folds another transaction's deltas into this one (the group commit merges its deliveries'). */
  merge(other: Rollups) {
    for (const [key, r] of other.daily) {
      const mine = this.daily.get(key);
      if (!mine) this.daily.set(key, r);
      else for (const c of ROLLUP_COLUMNS) mine.values[c] += r.values[c];
    }
    for (const [key, p] of other.periods) {
      const mine = this.periods.get(key);
      if (!mine) this.periods.set(key, p);
      else {
        mine.earnings += p.earnings;
        mine.conversions += p.conversions;
      }
    }
    for (const [key, r] of other.program) {
      const mine = this.program.get(key);
      if (!mine) this.program.set(key, r);
      else for (const c of ROLLUP_COLUMNS) mine.values[c] += r.values[c];
    }
    for (const [key, r] of other.daySales) {
      const mine = this.daySales.get(key);
      if (!mine) this.daySales.set(key, r);
      else mine.amount += r.amount;
    }
  }

  get empty() {
    return this.daily.size === 0;
  }

  flush(q: Db) {
    return applyRollups(q, this);
  }

  clear() {
    this.daily.clear();
    this.periods.clear();
    this.program.clear();
    this.daySales.clear();
  }
}

const byKey = <T>(map: Map<string, T>) => [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
/** `column = table.column + excluded.column` for each figure: an upsert adds its deltas. */
const adding = (table: 'daily_stats' | 'program_daily_stats') =>
  Object.fromEntries(ROLLUP_COLUMNS.map((c) => [c, sql<number>`${sql.ref(`${table}.${c}`)} + ${sql.ref(`excluded.${c}`)}`])) as Record<RollupColumn, RawBuilder<number>>;
/** The figure columns of a rollup row (zeros when there is none). */
export const figures = (values: Record<RollupColumn, number> | undefined) => Object.fromEntries(ROLLUP_COLUMNS.map((c) => [c, values?.[c] ?? 0])) as Record<RollupColumn, number>;
const addDaily = (insert: InsertQueryBuilder<Database, 'daily_stats', InsertResult>) =>
  insert.onConflict((oc) => oc.columns(['promoter_id', 'day', 'campaign_id', 'link_id']).doUpdateSet(adding('daily_stats')));
const addPeriod = (insert: InsertQueryBuilder<Database, 'period_stats', InsertResult>) =>
  insert.onConflict((oc) => oc.columns(['period', 'promoter_id']).doUpdateSet((eb) => ({ earnings: eb('period_stats.earnings', '+', eb.ref('excluded.earnings')), conversions: eb('period_stats.conversions', '+', eb.ref('excluded.conversions')) })));
const addProgram = (insert: InsertQueryBuilder<Database, 'program_daily_stats', InsertResult>) =>
  insert.onConflict((oc) => oc.columns(['day', 'campaign_id']).doUpdateSet(adding('program_daily_stats')));
const addDaySales = (insert: InsertQueryBuilder<Database, 'promoter_day_sales', InsertResult>) =>
  insert.onConflict((oc) => oc.columns(['day', 'promoter_id']).doUpdateSet((eb) => ({ sale_amount: eb('promoter_day_sales.sale_amount', '+', eb.ref('excluded.sale_amount')) })));

/** Writes the deltas as upserts that add. Call inside the transaction that wrote the rows. */
export async function applyRollups(q: Db, rollups: Rollups): Promise<void> {
  // Sorted by key: rows of a promoter are neighbours in the clustered tables, and two writers
  // touching the same rows take them in the same order (they queue instead of deadlocking).
  await writeRows(q, 'daily_stats', byKey(rollups.daily).map((r) => ({ promoter_id: r.promoterId, day: r.day, campaign_id: r.campaignId, link_id: r.linkId, ...figures(r.values) })), { chunk: 100, shape: addDaily });
  const periods = byKey(rollups.periods).filter((p) => p.earnings !== 0 || p.conversions !== 0);
  await writeRows(q, 'period_stats', periods.map((p) => ({ period: p.period, promoter_id: p.promoterId, earnings: p.earnings, conversions: p.conversions })), { chunk: 100, shape: addPeriod });
  // The program's rows are shared by every writer: written last, in key order.
  const program = byKey(rollups.program).filter((r) => ROLLUP_COLUMNS.some((c) => r.values[c] !== 0));
  await writeRows(q, 'program_daily_stats', program.map((r) => ({ day: r.day, campaign_id: r.campaignId, ...figures(r.values) })), { chunk: 100, shape: addProgram });
  const sales = byKey(rollups.daySales).filter((r) => r.amount !== 0);
  await writeRows(q, 'promoter_day_sales', sales.map((r) => ({ day: r.day, promoter_id: r.promoterId, sale_amount: r.amount })), { chunk: 100, shape: addDaySales });
}

/** A unit of work's rollup deltas, flushed after the rows and journals they summarize. */
export const ROLLUPS: CollectorKind<Rollups> = { order: COLLECTOR_ORDER.rollups, create: () => new Rollups() };
