/**
 * The promoter's figures, read from the rollups only (never from clicks, conversions or
 * commissions rows): summary with the previous period, daily series, breakdowns, Home's overview,
 * the team and the leaderboard. Days are calendar days in the installation's time zone.
 */
import { MAX_STATS_RANGE_DAYS, maskName, type StatsFigures, type StatsMetric, type StatsRange, type StatsRangeQuery } from '@pa/shared';
import type { AppContext } from '../../context';
import type { Db } from '../../db/types';
import { AppError } from '../../platform/errors';
import { walletOf } from '../../platform/ledger';
import { pickLocalized } from '../../platform/localized';
import { periodsOf, TEAM_LINK_PREFIX } from '../../platform/rollups';
import { dayKey } from '../../platform/time';
import { readSettings, zoneOf } from '../../platform/settings';
import {
  activeAmong, campaignNames, displayNames, firstSteps, inviteCodeOf, leaderboardExcluded, linksWithCampaign, membersPage, membersSums, overrideDays, periodFigures,
  SUM_COLUMNS, sumsByDay, sumsByKey, teamCounts, viewerStanding, type SumRow,
} from './repository';

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
type Sums = Record<(typeof SUM_COLUMNS)[number], number>;
const emptySums = (): Sums => Object.fromEntries(SUM_COLUMNS.map((c) => [c, 0])) as Sums;
function addSums(into: Sums, row: SumRow) {
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
  const rows = await sumsByDay(db, promoterId, from, to);
  return new Map(rows.map((r) => [r.day, addSums(emptySums(), r)]));
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

/** The installation's currency, which every answer of figures names. */
const currencyOf = async (ctx: AppContext) => (await readSettings(ctx.db)).currency;

export async function summary(ctx: AppContext, promoterId: string, query: StatsRangeQuery) {
  const { range, period, previous } = resolveRange(query, today(ctx));
  const [byDay, currency] = await Promise.all([sumsOfBoth(ctx.db, promoterId, period, previous), currencyOf(ctx)]);
  return { currency, range, period, previousPeriod: previous, current: figuresOf(total(byDay, period)), previous: figuresOf(total(byDay, previous)) };
}

const metricOf = (f: StatsFigures, metric: StatsMetric): number => (metric === 'earnings' ? f.earnings : f[metric]);

export async function timeseries(ctx: AppContext, promoterId: string, query: StatsRangeQuery & { metric: StatsMetric }) {
  const { period } = resolveRange(query, today(ctx));
  const [byDay, currency] = await Promise.all([dailySums(ctx.db, promoterId, period.from, period.to), currencyOf(ctx)]);
  const points = Array.from({ length: period.days }, (_, i) => {
    const day = shift(period.from, i);
    return { day, value: metricOf(figuresOf(byDay.get(day) ?? emptySums()), query.metric) };
  });
  return { currency, metric: query.metric, period, points };
}

/** Key for level-2 overrides (their rows are `team:<member>`) in link and channel breakdowns. */
const TEAM_KEY = '@team';

export async function breakdown(ctx: AppContext, promoterId: string, query: StatsRangeQuery & { by: 'campaign' | 'link' | 'channel'; limit: number }, locale: string) {
  const { period } = resolveRange(query, today(ctx));
  const [items, currency] = await Promise.all([breakdownItems(ctx.db, promoterId, period, query.by, query.limit, locale), currencyOf(ctx)]);
  return { currency, by: query.by, period, items };
}

async function breakdownItems(db: Db, promoterId: string, period: Period, by: 'campaign' | 'link' | 'channel', limit: number, locale: string) {
  const rows = await sumsByKey(db, promoterId, period.from, period.to, by === 'campaign' ? 'campaign_id' : 'link_id');
  const groups = new Map<string, Sums>();
  let links = new Map<string, { code: string; label: string | null; channel: string | null; names_json: string }>();
  if (by !== 'campaign') {
    const ids = rows.map((r) => r.key).filter((id) => id !== '' && !id.startsWith(TEAM_LINK_PREFIX));
    links = new Map((await linksWithCampaign(db, ids)).map((l) => [l.id, l]));
  }
  for (const r of rows) {
    const id = r.key;
    const key = by === 'campaign' ? id : id.startsWith(TEAM_LINK_PREFIX) ? TEAM_KEY : by === 'link' ? id : (links.get(id)?.channel ?? '');
    groups.set(key, addSums(groups.get(key) ?? emptySums(), r));
  }
  const names = by === 'campaign'
    ? new Map((await campaignNames(db, [...groups.keys()])).map((c) => [c.id, pickLocalized(c.names_json, locale)]))
    : new Map<string, string>();
  return [...groups]
    .map(([key, sums]) => {
      const link = by === 'link' ? links.get(key) : undefined;
      return {
        key,
        name: by === 'campaign' ? (names.get(key) ?? null) : link ? pickLocalized(link.names_json, locale) : null,
        code: link?.code ?? null,
        label: link?.label ?? null,
        figures: figuresOf(sums),
      };
    })
    .sort((a, b) => b.figures.earnings - a.figures.earnings || b.figures.clicks - a.figures.clicks || (a.key < b.key ? -1 : 1))
    .slice(0, limit);
}

/** Home in one call: the wallet, the summary, a series of the main figures per day and the top links. */
export async function overview(ctx: AppContext, promoterId: string, query: StatsRangeQuery, locale: string) {
  const { range, period, previous } = resolveRange(query, today(ctx));
  const [byDay, topLinks, steps, wallet, currency] = await Promise.all([
    sumsOfBoth(ctx.db, promoterId, period, previous),
    breakdownItems(ctx.db, promoterId, period, 'link', 6, locale),
    firstSteps(ctx.db, promoterId),
    walletOf(ctx.db, promoterId),
    currencyOf(ctx),
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
    currency,
    wallet: { available: wallet.available, pending: wallet.pending, withdrawing: wallet.withdrawing + wallet.payable, paidOut: wallet.paid_out },
    range, period, previousPeriod: previous,
    current: figuresOf(total(byDay, period)), previous: figuresOf(total(byDay, previous)),
    series,
    topLinks: topLinks.filter((l) => l.key !== TEAM_KEY).slice(0, 5),
    firstSteps: steps,
    generatedAt: Date.now(),
  };
}

// ——— Team ———

const ACTIVE_DAYS = 30;

/** My team: invite code, counts, this month's figures, direct members (masked) with the override each earned me. */
export async function team(ctx: AppContext, promoterId: string, page: { limit: number; cursor?: string | undefined }) {
  const db = ctx.db;
  const now = Date.now();
  const day = today(ctx, now);
  const monthStart = `${day.slice(0, 7)}-01`;
  const activeFrom = shift(day, -(ACTIVE_DAYS - 1));
  const [counts, memberMonth, own, inviteCode, currency] = await Promise.all([
    teamCounts(db, promoterId, activeFrom),
    membersSums(db, promoterId, monthStart, day),
    // The viewer's override rows, all time: per member, total and this month.
    overrideDays(db, promoterId),
    inviteCodeOf(db, promoterId),
    currencyOf(ctx),
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

  const { rows: pageRows, nextCursor } = await membersPage(db, promoterId, page);
  const activeOnPage = new Set(await activeAmong(db, pageRows.map((r) => r.id), activeFrom));
  return {
    currency,
    inviteCode,
    counts: { direct: counts.direct, active: counts.active, secondLevel: counts.secondLevel },
    thisMonth: { leads: memberMonth.leads, sales: memberMonth.sales, saleAmount: memberMonth.saleAmount, override: overrideMonth },
    overrideTotal,
    members: pageRows.map((r) => ({
      id: r.id,
      // In full: the viewer invited them (issue 28). The second level is counted, never named.
      name: r.display_name,
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
  const [rows, excludedIds] = await Promise.all([
    periodFigures(ctx.db, key, by),
    // Left out: opted out, not active (suspended…), not promoters — few, so read apart instead of joining every row.
    leaderboardExcluded(ctx.db),
  ]);
  const excluded = new Set(excludedIds);
  const sorted = rows
    .filter((r) => !excluded.has(r.promoterId))
    .sort((a, b) => b.value - a.value || (a.promoterId < b.promoterId ? -1 : 1));
  const rankOf = new Map<string, number>();
  sorted.forEach((e, i) => rankOf.set(e.promoterId, i > 0 && sorted[i - 1]!.value === e.value ? rankOf.get(sorted[i - 1]!.promoterId)! : i + 1));
  const head = sorted.slice(0, TOP_KEPT);
  const names = await displayNames(ctx.db, head.map((e) => e.promoterId));
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

const LEADERBOARD_SIZE = 20;

/** This week's or month's ranking (empty when an admin has turned the leaderboard off). */
export async function leaderboard(ctx: AppContext, viewerId: string, period: 'week' | 'month', by: 'earnings' | 'conversions') {
  const settings = await readSettings(ctx.db);
  if (!settings.leaderboardEnabled) {
    return { enabled: false, currency: settings.currency, period, by, from: '', to: '', updatedAt: Date.now(), entries: [], me: { rank: null, value: 0, optedOut: false } };
  }
  const r = await ranking(ctx, period, by);
  const [week, month] = periodsOf(today(ctx));
  const { optedOut, ...mine } = await viewerStanding(ctx.db, period === 'week' ? week : month, viewerId);
  return {
    enabled: true,
    currency: settings.currency,
    period,
    by,
    from: r.from,
    to: r.to,
    updatedAt: r.at,
    // An opt-out shows at once to the one who opted out; others see it with the next ranking (≤ 1 min).
    // Others' names masked; the viewer's own row (beside "You") shows their own name.
    entries: r.top.filter((e) => !(optedOut && e.promoterId === viewerId)).slice(0, LEADERBOARD_SIZE).map((e) => {
      const me = e.promoterId === viewerId;
      return { rank: e.rank, name: me ? e.name : maskName(e.name), value: e.value, me };
    }),
    me: { rank: optedOut ? null : (r.rankOf.get(viewerId) ?? null), value: mine[by], optedOut },
  };
}
