/**
 * The rollups recomputed from the rows they count (clicks, attributed conversions, commissions),
 * compared with the stored ones, and — with `apply` — the stored ones set to what was computed.
 * `npm run stats:rebuild` runs it (migration 005 has its own frozen copy of these rules);
 * platform/rollups.ts has the rules it recomputes. Rows are read in
 * id order, 20,000 at a time, so it runs on a live database without holding one long read.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Db, Dialect } from '../db/types';
import { figures, ROLLUP_COLUMNS, Rollups, clickDelta, commissionColumn, commissionLink, type CommissionState, type RollupColumn } from './rollups';
import { dayResolver } from './time';

interface RollupDifference {
  table: 'daily_stats' | 'period_stats' | 'program_daily_stats' | 'promoter_day_sales';
  key: string;
  column: string;
  stored: number;
  computed: number;
}

interface RebuildReport {
  scanned: { clicks: number; conversions: number; commissions: number };
  rows: { daily: number; periods: number };
  differences: RollupDifference[];
  /** How many differences the report lists at most (all are counted in `differenceCount`). */
  differenceCount: number;
  applied: boolean;
}

const DEFAULT_PAGE = 20_000;
const MAX_LISTED = 1_000;

/** Every row of a table in id order, a page at a time. */
async function scan<T extends { id: string }>(page: (after: string) => Promise<T[]>, each: (row: T) => void, size: number): Promise<number> {
  let after = '';
  let n = 0;
  for (;;) {
    const rows = await page(after);
    for (const r of rows) each(r);
    n += rows.length;
    if (rows.length < size) return n;
    after = rows[rows.length - 1]!.id;
  }
}

export async function computeRollups(db: Db, timeZone: string, PAGE = DEFAULT_PAGE): Promise<{ rollups: Rollups; scanned: RebuildReport['scanned'] }> {
  const dayOf = dayResolver(timeZone);
  const rollups = new Rollups();
  const clicks = await scan(
    (after) => db.selectFrom('clicks').select(['id', 'promoter_id', 'campaign_id', 'link_id', 'at', 'is_unique', 'is_bot']).where('id', '>', after).orderBy('id').limit(PAGE).execute(),
    (c) => rollups.addFigures(c.promoter_id, dayOf(Number(c.at)), c.campaign_id, c.link_id, clickDelta({ is_unique: Number(c.is_unique), is_bot: Number(c.is_bot) })),
    PAGE,
  );
  const conversions = await scan(
    (after) =>
      db.selectFrom('conversions').select(['id', 'promoter_id', 'campaign_id', 'link_id', 'kind', 'amount', 'refunded_amount', 'occurred_at'])
        .where('id', '>', after).where('status', '=', 'attributed').where('kind', 'in', ['lead', 'sale']).orderBy('id').limit(PAGE).execute(),
    (v) => {
      if (!v.promoter_id) return;
      const day = dayOf(Number(v.occurred_at));
      rollups.addFigures(v.promoter_id, day, v.campaign_id, v.link_id, v.kind === 'lead' ? { leads: 1 } : { sales: 1, sale_amount: Number(v.amount), refund_amount: Number(v.refunded_amount) });
    },
    PAGE,
  );
  const commissions = await scan(
    (after) => db.selectFrom('commissions').select(['id', 'promoter_id', 'campaign_id', 'link_id', 'level', 'source_promoter_id', 'occurred_at', 'amount', 'reversed_amount', 'status']).where('id', '>', after).orderBy('id').limit(PAGE).execute(),
    (c) => {
      const reversed = Number(c.reversed_amount);
      const delta: Partial<Record<RollupColumn, number>> = { [commissionColumn(c.status as CommissionState)]: Number(c.amount) - reversed };
      delta.commission_reversed = (delta.commission_reversed ?? 0) + reversed;
      rollups.addFigures(c.promoter_id, dayOf(Number(c.occurred_at)), c.campaign_id, commissionLink({ level: Number(c.level), link_id: c.link_id, source_promoter_id: c.source_promoter_id }), delta);
    },
    PAGE,
  );
  return { rollups, scanned: { clicks, conversions, commissions } };
}

/** Recomputes, compares and (with `apply`) repairs. */
/**
 * `page`: rows read at a time (tests make it small to walk many pages); `overview: false` leaves
 * the overview's tables (migration 009) alone.
 */
export async function rebuildRollups(db: Db, dialect: Dialect, timeZone: string, options: { apply: boolean; page?: number; overview?: boolean }): Promise<RebuildReport> {
  const PAGE = options.page ?? DEFAULT_PAGE;
  const { rollups, scanned } = await computeRollups(db, timeZone, PAGE);
  const differences: RollupDifference[] = [];
  let differenceCount = 0;
  const differ = (d: RollupDifference) => {
    differenceCount++;
    if (differences.length < MAX_LISTED) differences.push(d);
  };
  const dailyFix = new Set<string>();
  const periodFix = new Set<string>();

  // Stored daily rows against the computed ones (a missing row is a row of zeros).
  const seen = new Set<string>();
  let after: [string, string, string, string] | null = null;
  for (;;) {
    let q = db.selectFrom('daily_stats').selectAll();
    // Row-value comparison: both databases walk the primary key from there.
    if (after) q = q.where((eb) => eb(eb.refTuple('promoter_id', 'day', 'campaign_id', 'link_id'), '>', eb.tuple(...after!)));
    const rows = await q.orderBy('promoter_id').orderBy('day').orderBy('campaign_id').orderBy('link_id').limit(PAGE).execute();
    for (const r of rows) {
      const key = `${r.promoter_id}|${r.day}|${r.campaign_id}|${r.link_id}`;
      seen.add(key);
      const computed = rollups.daily.get(key)?.values;
      for (const c of ROLLUP_COLUMNS) {
        const stored = Number(r[c]);
        const want = computed?.[c] ?? 0;
        if (stored !== want) {
          differ({ table: 'daily_stats', key, column: c, stored, computed: want });
          dailyFix.add(key);
        }
      }
    }
    if (rows.length < PAGE) break;
    const last = rows[rows.length - 1]!;
    after = [last.promoter_id, last.day, last.campaign_id, last.link_id];
  }
  for (const [key, row] of rollups.daily) {
    if (seen.has(key)) continue;
    for (const c of ROLLUP_COLUMNS) if (row.values[c] !== 0) differ({ table: 'daily_stats', key, column: c, stored: 0, computed: row.values[c] });
    if (ROLLUP_COLUMNS.some((c) => row.values[c] !== 0)) dailyFix.add(key);
  }
  seen.clear();

  const storedPeriods = await db.selectFrom('period_stats').selectAll().execute();
  for (const r of storedPeriods) {
    const key = `${r.period}|${r.promoter_id}`;
    seen.add(key);
    const computed = rollups.periods.get(key);
    for (const c of ['earnings', 'conversions'] as const) {
      const stored = Number(r[c]);
      const want = computed?.[c] ?? 0;
      if (stored !== want) {
        differ({ table: 'period_stats', key, column: c, stored, computed: want });
        periodFix.add(key);
      }
    }
  }
  for (const [key, p] of rollups.periods) {
    if (seen.has(key)) continue;
    for (const c of ['earnings', 'conversions'] as const) if (p[c] !== 0) differ({ table: 'period_stats', key, column: c, stored: 0, computed: p[c] });
    if (p.earnings !== 0 || p.conversions !== 0) periodFix.add(key);
  }

  // The overview's tables: the program's rows by day and campaign, and the promoters' sales by day.
  const programFix = new Set<string>();
  const salesFix = new Set<string>();
  if (options.overview !== false) {
    seen.clear();
    const storedProgram = await db.selectFrom('program_daily_stats').select(['day', 'campaign_id', ...ROLLUP_COLUMNS]).execute();
    for (const r of storedProgram) {
      const key = `${r.day}|${r.campaign_id}`;
      seen.add(key);
      const computed = rollups.program.get(key)?.values;
      for (const c of ROLLUP_COLUMNS) {
        const stored = Number(r[c]);
        const want = computed?.[c] ?? 0;
        if (stored !== want) {
          differ({ table: 'program_daily_stats', key, column: c, stored, computed: want });
          programFix.add(key);
        }
      }
    }
    for (const [key, row] of rollups.program) {
      if (seen.has(key)) continue;
      for (const c of ROLLUP_COLUMNS) if (row.values[c] !== 0) differ({ table: 'program_daily_stats', key, column: c, stored: 0, computed: row.values[c] });
      if (ROLLUP_COLUMNS.some((c) => row.values[c] !== 0)) programFix.add(key);
    }
    seen.clear();
    let from: [string, string] | null = null;
    for (;;) {
      let q = db.selectFrom('promoter_day_sales').select(['day', 'promoter_id', 'sale_amount']);
      if (from) q = q.where((eb) => eb(eb.refTuple('day', 'promoter_id'), '>', eb.tuple(...from!)));
      const rows = await q.orderBy('day').orderBy('promoter_id').limit(PAGE).execute();
      for (const r of rows) {
        const key = `${r.day}|${r.promoter_id}`;
        seen.add(key);
        const stored = Number(r.sale_amount);
        const want = rollups.daySales.get(key)?.amount ?? 0;
        if (stored !== want) {
          differ({ table: 'promoter_day_sales', key, column: 'sale_amount', stored, computed: want });
          salesFix.add(key);
        }
      }
      if (rows.length < PAGE) break;
      const last = rows[rows.length - 1]!;
      from = [last.day, last.promoter_id];
    }
    for (const [key, r] of rollups.daySales) {
      if (seen.has(key) || r.amount === 0) continue;
      differ({ table: 'promoter_day_sales', key, column: 'sale_amount', stored: 0, computed: r.amount });
      salesFix.add(key);
    }
    seen.clear();
  }

  if (options.apply && (dailyFix.size > 0 || periodFix.size > 0 || programFix.size > 0 || salesFix.size > 0)) {
    // Inside a migration (PostgreSQL runs each in a transaction) write on that transaction.
    const inTransaction = (write: (trx: Db) => Promise<void>) => (db.isTransaction ? write(db) : db.transaction().execute(write));
    await inTransaction(async (trx) => {
      // Each fixed row takes the computed figures as they are (`excluded`), not added to what was stored.
      const replacing = Object.fromEntries(ROLLUP_COLUMNS.map((c) => [c, sql<number>`${sql.ref(`excluded.${c}`)}`])) as Record<RollupColumn, RawBuilder<number>>;
      const daily = [...dailyFix].map((key) => {
        const [promoter_id, day, campaign_id, link_id] = key.split('|') as [string, string, string, string];
        return { promoter_id, day, campaign_id, link_id, ...figures(rollups.daily.get(key)?.values) };
      });
      for (let i = 0; i < daily.length; i += 500) {
        await trx.insertInto('daily_stats').values(daily.slice(i, i + 500)).onConflict((oc) => oc.columns(['promoter_id', 'day', 'campaign_id', 'link_id']).doUpdateSet(replacing)).execute();
      }
      const periods = [...periodFix].map((key) => {
        const [period, promoter_id] = key.split('|') as [string, string];
        const p = rollups.periods.get(key);
        return { period, promoter_id, earnings: p?.earnings ?? 0, conversions: p?.conversions ?? 0 };
      });
      for (let i = 0; i < periods.length; i += 500) {
        await trx.insertInto('period_stats').values(periods.slice(i, i + 500)).onConflict((oc) => oc.columns(['period', 'promoter_id']).doUpdateSet((eb) => ({ earnings: eb.ref('excluded.earnings'), conversions: eb.ref('excluded.conversions') }))).execute();
      }
      const program = [...programFix].map((key) => {
        const [day, campaign_id] = key.split('|') as [string, string];
        return { day, campaign_id, ...figures(rollups.program.get(key)?.values) };
      });
      for (let i = 0; i < program.length; i += 500) {
        await trx.insertInto('program_daily_stats').values(program.slice(i, i + 500)).onConflict((oc) => oc.columns(['day', 'campaign_id']).doUpdateSet(replacing)).execute();
      }
      const sales = [...salesFix].map((key) => {
        const [day, promoter_id] = key.split('|') as [string, string];
        return { day, promoter_id, sale_amount: rollups.daySales.get(key)?.amount ?? 0 };
      });
      for (let i = 0; i < sales.length; i += 500) {
        await trx.insertInto('promoter_day_sales').values(sales.slice(i, i + 500)).onConflict((oc) => oc.columns(['day', 'promoter_id']).doUpdateSet((eb) => ({ sale_amount: eb.ref('excluded.sale_amount') }))).execute();
      }
    });
  }
  return { scanned, rows: { daily: rollups.daily.size, periods: rollups.periods.size }, differences, differenceCount, applied: options.apply && differenceCount > 0 };
}
