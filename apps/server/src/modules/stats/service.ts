/**
 * The promoter's figures, read from the rollups only (never from clicks, conversions or
 * commissions rows): summary with the previous period, daily series, breakdowns, Home's overview,
 * the team and the leaderboard. Days are calendar days in the installation's time zone.
 */
import { MAX_STATS_RANGE_DAYS, maskName, type StatsFigures, type StatsMetric, type StatsRange, type StatsRangeQuery } from '@pa/shared';
import type { AppContext } from '../../context';
import type { ExpressionBuilder } from 'kysely';
import type { Database, Db } from '../../db/types';
import { AppError } from '../../platform/errors';
import { pickLocalized } from '../../platform/localized';
import { olderThan, pageOf } from '../../platform/listing';
import { periodsOf, ROLLUP_COLUMNS, TEAM_LINK_PREFIX, type RollupColumn } from '../../platform/rollups';
import { dayKey } from '../../platform/time';
import { zoneOf } from '../../platform/settings';
import { firstSteps } from './repository';

const DAY_MS = 86_400_000;
const shift = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const span = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
const lastOfMonth = (month: string) => shift(`${shift(`${month}-28`, 4).slice(0, 7)}-01`, -1);

export interface Period {
  from: string;
  to: string;
  days: number;
}

/**
 * The days a range covers and the period it is compared with: the same number of days just
 * before — except "this month", compared with the same days of the previous month.
 */
export function resolveRange(query: StatsRangeQuery, today: string): { range: StatsRange; period: Period; previous: Period } {
  const range: StatsRange = query.range ?? (query.from || query.to ? 'custom' : '7d');
  if (range !== 'custom' && (query.from || query.to)) throw new AppError('VALIDATION_FAILED', { 'querystring.range': 'conflict' });
  let from: string;
  let to = today;
  switch (range) {
    case 'today': from = today; break;
    case 'yesterday': from = to = shift(today, -1); break;
    case '7d': from = shift(today, -6); break;
    case '30d': from = shift(today, -29); break;
    case 'month': from = `${today.slice(0, 7)}-01`; break;
    case 'custom':
      if (!query.from) throw new AppError('VALIDATION_FAILED', { 'querystring.from': 'required' });
      if (!query.to) throw new AppError('VALIDATION_FAILED', { 'querystring.to': 'required' });
      [from, to] = [query.from, query.to];
      if (Number.isNaN(Date.parse(`${from}T00:00:00Z`)) || shift(from, 0) !== from) throw new AppError('VALIDATION_FAILED', { 'querystring.from': 'invalid' });
      if (Number.isNaN(Date.parse(`${to}T00:00:00Z`)) || shift(to, 0) !== to) throw new AppError('VALIDATION_FAILED', { 'querystring.to': 'invalid' });
      if (from > to) throw new AppError('VALIDATION_FAILED', { 'querystring.from': 'after_to' });
      if (span(from, to) > MAX_STATS_RANGE_DAYS) throw new AppError('VALIDATION_FAILED', { 'querystring.from': 'too_long' });
      break;
  }
  const days = span(from, to);
  let previous: Period;
  if (range === 'month') {
    const month = shift(from, -1).slice(0, 7);
    const end = lastOfMonth(month);
    const prevTo = `${month}-${today.slice(8)}` > end ? end : `${month}-${today.slice(8)}`;
    previous = { from: `${month}-01`, to: prevTo, days: span(`${month}-01`, prevTo) };
  } else {
    previous = { from: shift(from, -days), to: shift(from, -1), days };
  }
  return { range, period: { from, to, days }, previous };
}

/** The rollup columns the figures are made of (bot clicks are not shown), summed. */
const SUM_COLUMNS = ROLLUP_COLUMNS.filter((c): c is Exclude<RollupColumn, 'bot_clicks'> => c !== 'bot_clicks');
type Sums = Record<(typeof SUM_COLUMNS)[number], number>;
const emptySums = (): Sums => Object.fromEntries(SUM_COLUMNS.map((c) => [c, 0])) as Sums;
function addSums(into: Sums, row: Partial<Record<keyof Sums, unknown>>) {
  for (const c of SUM_COLUMNS) into[c] += Number(row[c] ?? 0);
  return into;
}

/** The figures read straight off the summed rollups: a promoter's here, the whole program's in the overview. */
export const countsOf = (s: Sums) => ({
  clicks: s.clicks,
  uniqueClicks: s.unique_clicks,
  leads: s.leads,
  sales: s.sales,
  saleAmount: s.sale_amount,
  refundAmount: s.refund_amount,
  commission: { pending: s.commission_pending, approved: s.commission_approved, rejected: s.commission_rejected, reversed: s.commission_reversed },
});

export function figuresOf(s: Sums): StatsFigures {
  const earnings = s.commission_pending + s.commission_approved;
  return {
    ...countsOf(s),
    earnings,
    conversionRate: s.unique_clicks > 0 ? (s.leads + s.sales) / s.unique_clicks : 0,
    // Half up, in integers: (2e + c) div 2c.
    epc: s.clicks > 0 ? Math.floor((2 * earnings + s.clicks) / (2 * s.clicks)) : 0,
  };
}

/** A promoter's per-day sums over [from, to] (one range read of the clustered rollups). */
async function dailySums(db: Db, promoterId: string, from: string, to: string): Promise<Map<string, Sums>> {
  const rows = await db
    .selectFrom('daily_stats')
    .select((eb) => ['day', ...SUM_COLUMNS.map((c) => eb.fn.sum<number>(c).as(c))])
    .where('promoter_id', '=', promoterId)
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy('day')
    .execute();
  return new Map(rows.map((r) => [r.day, addSums(emptySums(), r as Partial<Record<keyof Sums, unknown>>)]));
}

/** A promoter's per-day sums over a period and the one it is compared with. */
const sumsOfBoth = (db: Db, promoterId: string, period: Period, previous: Period) =>
  dailySums(db, promoterId, previous.from < period.from ? previous.from : period.from, period.to);

function total(byDay: Map<string, Sums>, p: Period): Sums {
  const s = emptySums();
  for (const [day, sums] of byDay) if (day >= p.from && day <= p.to) addSums(s, sums);
  return s;
}

export function today(ctx: AppContext, now = Date.now()) {
  return dayKey(now, zoneOf(ctx));
}

export async function summary(ctx: AppContext, promoterId: string, query: StatsRangeQuery) {
  const { range, period, previous } = resolveRange(query, today(ctx));
  const byDay = await sumsOfBoth(ctx.db, promoterId, period, previous);
  return { range, period, previousPeriod: previous, current: figuresOf(total(byDay, period)), previous: figuresOf(total(byDay, previous)) };
}

const metricOf = (f: StatsFigures, metric: StatsMetric): number => (metric === 'earnings' ? f.earnings : f[metric]);

export async function timeseries(ctx: AppContext, promoterId: string, query: StatsRangeQuery & { metric: StatsMetric }) {
  const { period } = resolveRange(query, today(ctx));
  const byDay = await dailySums(ctx.db, promoterId, period.from, period.to);
  const points = Array.from({ length: period.days }, (_, i) => {
    const day = shift(period.from, i);
    return { day, value: metricOf(figuresOf(byDay.get(day) ?? emptySums()), query.metric) };
  });
  return { metric: query.metric, period, points };
}

/** Key for level-2 overrides (their rows are `team:<member>`) in link and channel breakdowns. */
export const TEAM_KEY = '@team';

export async function breakdown(ctx: AppContext, promoterId: string, query: StatsRangeQuery & { by: 'campaign' | 'link' | 'channel'; limit: number }, locale: string) {
  const { period } = resolveRange(query, today(ctx));
  return { by: query.by, period, items: await breakdownItems(ctx.db, promoterId, period, query.by, query.limit, locale) };
}

async function breakdownItems(db: Db, promoterId: string, period: Period, by: 'campaign' | 'link' | 'channel', limit: number, locale: string) {
  const column = by === 'campaign' ? 'campaign_id' : 'link_id';
  const rows = await db
    .selectFrom('daily_stats')
    .select((eb) => [column, ...SUM_COLUMNS.map((c) => eb.fn.sum<number>(c).as(c))])
    .where('promoter_id', '=', promoterId)
    .where('day', '>=', period.from)
    .where('day', '<=', period.to)
    .groupBy(column)
    .execute();
  const groups = new Map<string, Sums>();
  let links = new Map<string, { code: string; label: string | null; channel: string | null; names_json: string }>();
  if (by !== 'campaign') {
    const ids = rows.map((r) => (r as { link_id: string }).link_id).filter((id) => id !== '' && !id.startsWith(TEAM_LINK_PREFIX));
    links = new Map(ids.length ? (await db.selectFrom('links').innerJoin('campaigns', 'campaigns.id', 'links.campaign_id').select(['links.id', 'links.code', 'links.label', 'links.channel', 'campaigns.names_json']).where('links.id', 'in', ids).execute()).map((l) => [l.id, l]) : []);
  }
  for (const r of rows) {
    const id = String((r as unknown as Record<string, unknown>)[column]);
    const key = by === 'campaign' ? id : id.startsWith(TEAM_LINK_PREFIX) ? TEAM_KEY : by === 'link' ? id : (links.get(id)?.channel ?? '');
    groups.set(key, addSums(groups.get(key) ?? emptySums(), r as Partial<Record<keyof Sums, unknown>>));
  }
  const campaignNames = by === 'campaign' && groups.size
    ? new Map((await db.selectFrom('campaigns').select(['id', 'names_json']).where('id', 'in', [...groups.keys()]).execute()).map((c) => [c.id, pickLocalized(c.names_json, locale)]))
    : new Map<string, string>();
  return [...groups]
    .map(([key, sums]) => {
      const link = by === 'link' ? links.get(key) : undefined;
      return {
        key,
        name: by === 'campaign' ? (campaignNames.get(key) ?? null) : link ? pickLocalized(link.names_json, locale) : null,
        code: link?.code ?? null,
        label: link?.label ?? null,
        figures: figuresOf(sums),
      };
    })
    .sort((a, b) => b.figures.earnings - a.figures.earnings || b.figures.clicks - a.figures.clicks || (a.key < b.key ? -1 : 1))
    .slice(0, limit);
}

/** Home in one call: the summary, a series of the main figures per day and the top links. */
export async function overview(ctx: AppContext, promoterId: string, query: StatsRangeQuery, locale: string) {
  const { range, period, previous } = resolveRange(query, today(ctx));
  const [byDay, topLinks, steps] = await Promise.all([
    sumsOfBoth(ctx.db, promoterId, period, previous),
    breakdownItems(ctx.db, promoterId, period, 'link', 6, locale),
    firstSteps(ctx.db, promoterId),
  ]);
  // A single day charts better as the week up to it.
  const chart = period.days === 1 ? { from: shift(period.to, -6), to: period.to, days: 7 } : period;
  const chartDays = chart === period ? byDay : await dailySums(ctx.db, promoterId, chart.from, chart.to);
  const series = Array.from({ length: chart.days }, (_, i) => {
    const day = shift(chart.from, i);
    const f = figuresOf(chartDays.get(day) ?? emptySums());
    return { day, clicks: f.clicks, uniqueClicks: f.uniqueClicks, leads: f.leads, sales: f.sales, earnings: f.earnings };
  });
  return {
    range, period, previousPeriod: previous,
    current: figuresOf(total(byDay, period)), previous: figuresOf(total(byDay, previous)),
    series,
    topLinks: topLinks.filter((l) => l.key !== TEAM_KEY).slice(0, 5),
    firstSteps: steps,
  };
}

// ——— Team ———

const ACTIVE_DAYS = 30;
/** A daily_stats row that makes its promoter active: a click, a lead or a sale. */
const hadActivity = (x: ExpressionBuilder<Database, 'daily_stats'>) => x.or([x('clicks', '>', 0), x('leads', '>', 0), x('sales', '>', 0)]);

export async function team(ctx: AppContext, promoterId: string, page: { limit: number; cursor?: string | undefined }) {
  const db = ctx.db;
  const now = Date.now();
  const day = today(ctx, now);
  const monthStart = `${day.slice(0, 7)}-01`;
  const activeFrom = shift(day, -(ACTIVE_DAYS - 1));
  const members = db.selectFrom('users').select('id').where('parent_id', '=', promoterId);
  const [direct, second, active, memberMonth, own] = await Promise.all([
    db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('parent_id', '=', promoterId).executeTakeFirst(),
    db.selectFrom('users as u').innerJoin('users as m', 'm.id', 'u.parent_id').select((eb) => eb.fn.countAll<number>().as('n')).where('m.parent_id', '=', promoterId).executeTakeFirst(),
    // Active: an active account with a click, lead or sale in the window (each member's rows from that day on, first hit only).
    db.selectFrom('users as m').select((eb) => eb.fn.countAll<number>().as('n')).where('m.parent_id', '=', promoterId).where('m.status', '=', 'active')
      .where((eb) => eb.exists(eb.selectFrom('daily_stats').select('day').whereRef('daily_stats.promoter_id', '=', 'm.id').where('day', '>=', activeFrom).where(hadActivity))).executeTakeFirst(),
    db.selectFrom('daily_stats').select((eb) => [eb.fn.sum<number>('leads').as('leads'), eb.fn.sum<number>('sales').as('sales'), eb.fn.sum<number>('sale_amount').as('sale_amount')])
      .where('promoter_id', 'in', members).where('day', '>=', monthStart).where('day', '<=', day).executeTakeFirst(),
    // The viewer's override rows (`team:<member>`), all time: per member, total and this month.
    db.selectFrom('daily_stats').select(['day', 'link_id', 'commission_pending', 'commission_approved']).where('promoter_id', '=', promoterId).where('link_id', '>=', TEAM_LINK_PREFIX).where('link_id', '<', `${TEAM_LINK_PREFIX}\uffff`).execute(),
  ]);
  let overrideTotal = 0;
  let overrideMonth = 0;
  const byMember = new Map<string, { total: number; month: number }>();
  for (const r of own) {
    const v = Number(r.commission_pending) + Number(r.commission_approved);
    const m = byMember.get(r.link_id) ?? { total: 0, month: 0 };
    m.total += v;
    overrideTotal += v;
    if (r.day >= monthStart && r.day <= day) {
      m.month += v;
      overrideMonth += v;
    }
    byMember.set(r.link_id, m);
  }

  let q = db.selectFrom('users').select(['id', 'display_name', 'status', 'created_at']).where('parent_id', '=', promoterId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1);
  if (page.cursor) q = q.where(olderThan(page.cursor, 'created_at', 'id'));
  const { rows: pageRows, nextCursor } = pageOf(await q.execute(), page.limit);
  const ids = pageRows.map((r) => r.id);
  const activeOnPage = new Set(ids.length
    ? (await db.selectFrom('daily_stats').select('promoter_id').distinct().where('promoter_id', 'in', ids).where('day', '>=', activeFrom)
      .where(hadActivity).execute()).map((r) => r.promoter_id)
    : []);
  return {
    counts: { direct: Number(direct?.n ?? 0), active: Number(active?.n ?? 0), secondLevel: Number(second?.n ?? 0) },
    thisMonth: { leads: Number(memberMonth?.leads ?? 0), sales: Number(memberMonth?.sales ?? 0), saleAmount: Number(memberMonth?.sale_amount ?? 0), override: overrideMonth },
    overrideTotal,
    members: pageRows.map((r) => ({
      id: r.id,
      name: maskName(r.display_name),
      joinedAt: Number(r.created_at),
      active: r.status === 'active' && activeOnPage.has(r.id),
      overrideTotal: byMember.get(`${TEAM_LINK_PREFIX}${r.id}`)?.total ?? 0,
      overrideThisMonth: byMember.get(`${TEAM_LINK_PREFIX}${r.id}`)?.month ?? 0,
    })),
    nextCursor,
  };
}

// ——— Leaderboard ———

interface Ranking {
  at: number;
  from: string;
  to: string;
  /** The top of the ranking with names, best first, with competition ranks (1, 2, 2, 4). */
  top: { promoterId: string; name: string; value: number; rank: number }[];
  rankOf: Map<string, number>;
}
const RANKING_TTL_MS = 60_000;
/** Ranked entries kept with names (the call shows 20; a few more cover an opted-out viewer). */
const TOP_KEPT = 25;
const rankings = new WeakMap<AppContext, Map<string, Ranking>>();
const refreshing = new WeakMap<AppContext, Set<string>>();

async function computeRanking(ctx: AppContext, key: string, period: 'week' | 'month', by: 'earnings' | 'conversions', now: number): Promise<Ranking> {
  const [rows, excludedRows] = await Promise.all([
    ctx.db.selectFrom('period_stats').select(['promoter_id', by]).where('period', '=', key).where(by, '>', 0).execute(),
    // Left out: opted out, not active (suspended…), not promoters — few, so read apart instead of joining every row.
    ctx.db.selectFrom('users').select('id').where((eb) => eb.or([eb('leaderboard_opt_out', '=', 1), eb('status', '<>', 'active'), eb('role', '<>', 'promoter')])).execute(),
  ]);
  const excluded = new Set(excludedRows.map((r) => r.id));
  const sorted = rows
    .filter((r) => !excluded.has(r.promoter_id))
    .map((r) => ({ promoterId: r.promoter_id, value: Number((r as Record<string, unknown>)[by]) }))
    .sort((a, b) => b.value - a.value || (a.promoterId < b.promoterId ? -1 : 1));
  const rankOf = new Map<string, number>();
  sorted.forEach((e, i) => rankOf.set(e.promoterId, i > 0 && sorted[i - 1]!.value === e.value ? rankOf.get(sorted[i - 1]!.promoterId)! : i + 1));
  const head = sorted.slice(0, TOP_KEPT);
  const names = new Map(head.length ? (await ctx.db.selectFrom('users').select(['id', 'display_name']).where('id', 'in', head.map((e) => e.promoterId)).execute()).map((u) => [u.id, u.display_name]) : []);
  const from = period === 'week' ? key.slice(2) : `${key.slice(2)}-01`;
  return {
    at: now,
    from,
    to: period === 'week' ? shift(from, 6) : lastOfMonth(key.slice(2)),
    top: head.map((e) => ({ ...e, name: names.get(e.promoterId) ?? '', rank: rankOf.get(e.promoterId)! })),
    rankOf,
  };
}

/**
 * The period's ranking from the period totals, kept in memory per instance: computed on the first
 * call, then recomputed in the background when a minute old (the call meanwhile gets the one it has).
 */
export async function ranking(ctx: AppContext, period: 'week' | 'month', by: 'earnings' | 'conversions', now = Date.now()): Promise<Ranking> {
  const [week, month] = periodsOf(today(ctx, now));
  const key = period === 'week' ? week : month;
  let cache = rankings.get(ctx);
  if (!cache) rankings.set(ctx, (cache = new Map()));
  const cacheKey = `${key}|${by}`;
  const hit = cache.get(cacheKey);
  if (!hit) {
    const fresh = await computeRanking(ctx, key, period, by, now);
    cache.set(cacheKey, fresh);
    return fresh;
  }
  if (now - hit.at >= RANKING_TTL_MS) {
    let busy = refreshing.get(ctx);
    if (!busy) refreshing.set(ctx, (busy = new Set()));
    if (!busy.has(cacheKey)) {
      busy.add(cacheKey);
      const running = busy;
      setImmediate(() => {
        computeRanking(ctx, key, period, by, Date.now())
          .then((fresh) => cache.set(cacheKey, fresh), () => undefined) // a failed refresh keeps the last one; the next call tries again
          .finally(() => running.delete(cacheKey));
      });
    }
  }
  return hit;
}

export const LEADERBOARD_SIZE = 20;

export async function leaderboard(ctx: AppContext, viewerId: string, period: 'week' | 'month', by: 'earnings' | 'conversions') {
  const r = await ranking(ctx, period, by);
  const [week, month] = periodsOf(today(ctx));
  const [me, viewer] = await Promise.all([
    ctx.db.selectFrom('period_stats').select(['earnings', 'conversions']).where('period', '=', period === 'week' ? week : month).where('promoter_id', '=', viewerId).executeTakeFirst(),
    ctx.db.selectFrom('users').select('leaderboard_opt_out').where('id', '=', viewerId).executeTakeFirst(),
  ]);
  const optedOut = Number(viewer?.leaderboard_opt_out ?? 0) === 1;
  return {
    from: r.from,
    to: r.to,
    updatedAt: r.at,
    // An opt-out shows at once to the one who opted out; others see it with the next ranking (≤ 1 min).
    // Others' names masked; the viewer's own row (beside "You") shows their own name.
    entries: r.top.filter((e) => !(optedOut && e.promoterId === viewerId)).slice(0, LEADERBOARD_SIZE).map((e) => {
      const me = e.promoterId === viewerId;
      return { rank: e.rank, name: me ? e.name : maskName(e.name), value: e.value, me };
    }),
    me: { rank: optedOut ? null : (r.rankOf.get(viewerId) ?? null), value: Number(me?.[by] ?? 0), optedOut },
  };
}
