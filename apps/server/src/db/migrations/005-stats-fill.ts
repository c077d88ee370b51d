import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../types';

/**
 * Migration 005's fill, frozen: `daily_stats` and `period_stats` computed from the rows already
 * stored, by the rules the rollup rebuild (platform/rollups-rebuild.ts) had when it was last used
 * here — set-based SQL on the tables of 001–004, and its own copies of the day and period rules, so
 * a later change to the application's rules cannot change what 005 does to an old database.
 *
 * - clicks: a person's visit adds 1 to `clicks` (and to `unique_clicks` when it is the visitor's
 *   first in 24 h), a bot's adds 1 to `bot_clicks` alone; on the click's promoter, campaign, link, day;
 * - attributed leads and sales with a promoter: `leads` / `sales`, `sale_amount`, `refund_amount`
 *   (link `''` when none), on the day the conversion occurred;
 * - commissions: amount minus reversed in the column of the status, the reversed part in
 *   `commission_reversed`, on the conversion's day and link — for a level-2 override with a source
 *   member on `team:<member>`;
 * - `period_stats`: pending + approved and leads + sales by promoter in the week (`w:<Monday>`) and
 *   the month (`m:<YYYY-MM>`) of each day;
 * - rows whose figures are all zero are not written.
 * Then bots go back into `clicks`: 005 left the figures as they were counted then, and 007, which
 * runs after it, takes them out again.
 *
 * Days are the calendar days of `timeZone`. SQLite knows no time zones, so the days are a table of
 * instants at which each local day starts, made here from `Intl` for the span of the stored rows;
 * both databases join it the same way.
 */
export async function fillStats(db: Kysely<unknown>, dialect: Dialect, timeZone: string): Promise<void> {
  const span = await sql<{ first: number | string | null; last: number | string | null }>`
    select min(t.first) as first, max(t.last) as last from (
      select min(at) as first, max(at) as last from clicks
      union all
      select min(occurred_at), max(occurred_at) from conversions
        where status = 'attributed' and kind in ('lead', 'sale') and promoter_id is not null
      union all
      select min(occurred_at), max(occurred_at) from commissions
    ) t`.execute(db);
  const { first, last } = span.rows[0] ?? { first: null, last: null };
  if (first !== null && last !== null) {
    const time = dialect === 'postgres' ? 'bigint' : 'integer';
    await db.schema
      .createTable('migration_005_days')
      .temporary()
      .addColumn('start_at', time, (c) => c.primaryKey())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('week', 'text', (c) => c.notNull())
      .addColumn('month', 'text', (c) => c.notNull())
      .execute();
    const days = localDays(Number(first), Number(last), timeZone);
    for (let i = 0; i < days.length; i += 500) {
      const rows = days.slice(i, i + 500).map((d) => sql`(${d.startAt}, ${d.day}, ${d.week}, ${d.month})`);
      await sql`insert into migration_005_days (start_at, day, week, month) values ${sql.join(rows)}`.execute(db);
    }

    // The local day of an instant: the last day starting at or before it (one index probe per row).
    const dayOf = (at: string) => sql.raw(`(select d.day from migration_005_days d where d.start_at <= ${at} order by d.start_at desc limit 1)`);
    await sql`
      insert into daily_stats (promoter_id, day, campaign_id, link_id, clicks, unique_clicks, bot_clicks, leads, sales,
        sale_amount, refund_amount, commission_pending, commission_approved, commission_rejected, commission_reversed)
      select promoter_id, day, campaign_id, link_id, sum(clicks), sum(unique_clicks), sum(bot_clicks), sum(leads), sum(sales),
        sum(sale_amount), sum(refund_amount), sum(commission_pending), sum(commission_approved), sum(commission_rejected), sum(commission_reversed)
      from (
        select promoter_id, ${dayOf('c.at')} as day, campaign_id, link_id,
          case when is_bot <> 0 then 0 else 1 end as clicks,
          case when is_bot = 0 and is_unique <> 0 then 1 else 0 end as unique_clicks,
          case when is_bot <> 0 then 1 else 0 end as bot_clicks,
          0 as leads, 0 as sales, 0 as sale_amount, 0 as refund_amount,
          0 as commission_pending, 0 as commission_approved, 0 as commission_rejected, 0 as commission_reversed
        from clicks c
        union all
        select promoter_id, ${dayOf('v.occurred_at')}, campaign_id, coalesce(link_id, ''),
          0, 0, 0,
          case when kind = 'lead' then 1 else 0 end,
          case when kind = 'sale' then 1 else 0 end,
          case when kind = 'sale' then amount else 0 end,
          case when kind = 'sale' then refunded_amount else 0 end,
          0, 0, 0, 0
        from conversions v
        where status = 'attributed' and kind in ('lead', 'sale') and promoter_id is not null
        union all
        select promoter_id, ${dayOf('m.occurred_at')}, campaign_id,
          case when level = 2 and source_promoter_id is not null and source_promoter_id <> '' then 'team:' || source_promoter_id else coalesce(link_id, '') end,
          0, 0, 0, 0, 0, 0, 0,
          case when status = 'pending' then amount - reversed_amount else 0 end,
          case when status = 'approved' then amount - reversed_amount else 0 end,
          case when status = 'rejected' then amount - reversed_amount else 0 end,
          case when status = 'reversed' then amount else reversed_amount end
        from commissions m
      ) figures
      group by promoter_id, day, campaign_id, link_id
      having sum(clicks) <> 0 or sum(unique_clicks) <> 0 or sum(bot_clicks) <> 0 or sum(leads) <> 0 or sum(sales) <> 0
        or sum(sale_amount) <> 0 or sum(refund_amount) <> 0 or sum(commission_pending) <> 0 or sum(commission_approved) <> 0
        or sum(commission_rejected) <> 0 or sum(commission_reversed) <> 0`.execute(db);

    await sql`
      insert into period_stats (period, promoter_id, earnings, conversions)
      select p.period, s.promoter_id, sum(s.commission_pending + s.commission_approved), sum(s.leads + s.sales)
      from daily_stats s
      join (
        select distinct day, week as period from migration_005_days
        union all
        select distinct day, month from migration_005_days
      ) p on p.day = s.day
      group by p.period, s.promoter_id
      having sum(s.commission_pending + s.commission_approved) <> 0 or sum(s.leads + s.sales) <> 0`.execute(db);

    await db.schema.dropTable('migration_005_days').execute();
  }
  await sql`update daily_stats set clicks = clicks + bot_clicks where bot_clicks <> 0`.execute(db);
}

interface LocalDay {
  /** The first instant (ms) of the day in the zone, or of the span for the first day. */
  startAt: number;
  day: string;
  week: string;
  month: string;
}

/** The local days from the one holding `first` to the one holding `last`, each with where it starts. */
function localDays(first: number, last: number, timeZone: string): LocalDay[] {
  const format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const dayAt = (t: number) => format.format(t);
  const days: LocalDay[] = [];
  let start = first;
  let day = dayAt(first);
  for (;;) {
    days.push({ startAt: start, day, ...periodsOf(day) });
    // The next day starts within 36 hours (days are 23 to 25 hours long): the first instant of
    // another day, found by halving to the millisecond.
    let lo = start;
    let hi = start + 36 * 3_600_000;
    if (lo >= last || hi > 8.64e15) break;
    while (hi - lo > 1) {
      const mid = lo + Math.floor((hi - lo) / 2);
      if (dayAt(mid) === day) lo = mid;
      else hi = mid;
    }
    if (hi > last) break;
    start = hi;
    day = dayAt(hi);
  }
  return days;
}

/** The leaderboard periods of a day: its week (keyed by its Monday) and its month. */
function periodsOf(day: string): { week: string; month: string } {
  const t = Date.parse(`${day}T00:00:00Z`);
  const weekday = (new Date(t).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return { week: `w:${new Date(t - weekday * 86_400_000).toISOString().slice(0, 10)}`, month: `m:${day.slice(0, 7)}` };
}
