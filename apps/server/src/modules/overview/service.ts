/**
 * The operator's overview (issue 14): the program's figures for a range and the period before it,
 * the trend by day, top campaigns and promoters, what promoters are owed and the work queue.
 * Figures come from the rollups (docs/stats.md); days are calendar days in the installation's
 * time zone (the `timeZone` setting).
 */
import type { OverviewFigures, OverviewQuery } from '@pa/shared';
import type { AppContext } from '../../context';
import { pickLocalized } from '../../platform/localized';
import { readSettings, zoneOf } from '../../platform/settings';
import { dayKey } from '../../platform/time';
import { countsOf, resolveRange, type Period } from '../stats/service';
import { dayLeaders, emptySums, liability, paidOutBetween, programByDay, promotersRegisteredBetween, promoterFigures, promoterSalesRanking, topCampaigns, workQueueCounts, type Sums } from './repository';

const DAY_MS = 86_400_000;
const shift = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const TOP_PROMOTERS = 10;
const TOP_CAMPAIGNS = 5;
/** How many of each day's leaders the top promoters start from. */
const DAY_LEADERS = 30;

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();
/** The zone's offset from UTC at an instant, in ms. */
function offsetAt(instant: number, zone: string): number {
  let f = offsetFormatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    offsetFormatters.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(instant).map((x) => [x.type, x.value]));
  const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return wall - Math.floor(instant / 1000) * 1000;
}
/** The first instant of a calendar day in a zone (twice: the offset may change that night). */
export function dayStart(day: string, zone: string): number {
  const midnight = Date.parse(`${day}T00:00:00Z`);
  const guess = midnight - offsetAt(midnight, zone);
  return midnight - offsetAt(guess, zone);
}

function total(byDay: Map<string, Sums>, p: Period): Sums {
  const s = emptySums();
  for (const [day, sums] of byDay) if (day >= p.from && day <= p.to) for (const c of Object.keys(s) as (keyof Sums)[]) s[c] += sums[c];
  return s;
}
const figuresOf = (s: Sums, paidOut: number, newPromoters: number): OverviewFigures => ({ ...countsOf(s), paidOut, newPromoters });

/**
 * The promoters with the highest sale amount over a period, without summing every promoter's
 * days: each day's 30 leaders are candidates; a promoter missing from a day's leaders sold at most
 * that day's 30th amount there, so one missing from every list sold at most the sum of those
 * amounts (`bound`). The candidates whose own bound can still reach the tenth are summed exactly;
 * when the tenth of them is at least `bound`, nobody else can be above it — otherwise (rare: flat
 * programs) every promoter's days are summed.
 */
export async function topPromoters(ctx: AppContext, period: Period) {
  const days = Array.from({ length: period.days }, (_, i) => shift(period.from, i));
  const lists = await Promise.all(days.map((d) => dayLeaders(ctx.db, d, DAY_LEADERS)));
  const thresholds = lists.map((l) => (l.length === DAY_LEADERS ? l[l.length - 1]!.amount : 0));
  const bound = thresholds.reduce((a, b) => a + b, 0);
  const known = new Map<string, { sum: number; seenThreshold: number }>();
  lists.forEach((list, i) => {
    for (const { promoterId, amount } of list) {
      const k = known.get(promoterId) ?? { sum: 0, seenThreshold: 0 };
      k.sum += amount;
      k.seenThreshold += thresholds[i]!;
      known.set(promoterId, k);
    }
  });
  const lower = [...known.values()].map((k) => k.sum).sort((a, b) => b - a);
  const tenth = lower[TOP_PROMOTERS - 1] ?? 0;
  const candidates = [...known].filter(([, k]) => k.sum + (bound - k.seenThreshold) >= tenth).map(([id]) => id);
  const rank = (rows: Awaited<ReturnType<typeof promoterFigures>>) =>
    rows.filter((r) => r.saleAmount > 0).sort((a, b) => b.saleAmount - a.saleAmount || (a.id < b.id ? -1 : 1)).slice(0, TOP_PROMOTERS);
  const top = rank(await promoterFigures(ctx.db, candidates, period.from, period.to));
  if (bound === 0 || (top.length === TOP_PROMOTERS && top[TOP_PROMOTERS - 1]!.saleAmount >= bound)) return top;
  return rank(await promoterFigures(ctx.db, await promoterSalesRanking(ctx.db, period.from, period.to, TOP_PROMOTERS), period.from, period.to));
}

/** What waits for staff now (the overview's work queue; the daily summary mail says the same). */
export const workQueue = (ctx: AppContext) => workQueueCounts(ctx.db);

export async function programOverview(ctx: AppContext, query: OverviewQuery, locale: string, now = Date.now()) {
  const zone = zoneOf(ctx, now);
  const { range, period, previous } = resolveRange({ range: query.range, from: query.from, to: query.to }, dayKey(now, zone));
  const bounds = (p: Period) => [dayStart(p.from, zone), dayStart(shift(p.to, 1), zone)] as const;
  const [byDay, campaigns, promoters, owed, queue, paidNow, paidBefore, settings, joinedNow, joinedBefore] = await Promise.all([
    programByDay(ctx.db, previous.from, period.to),
    topCampaigns(ctx.db, period.from, period.to, TOP_CAMPAIGNS),
    topPromoters(ctx, period),
    liability(ctx.db),
    workQueueCounts(ctx.db),
    paidOutBetween(ctx.db, ...bounds(period)),
    paidOutBetween(ctx.db, ...bounds(previous)),
    readSettings(ctx.db, ctx.config.timeZone),
    promotersRegisteredBetween(ctx.db, ...bounds(period)),
    promotersRegisteredBetween(ctx.db, ...bounds(previous)),
  ]);
  const trend = Array.from({ length: period.days }, (_, i) => {
    const day = shift(period.from, i);
    const s = byDay.get(day) ?? emptySums();
    return { day, clicks: s.clicks, uniqueClicks: s.unique_clicks, leads: s.leads, sales: s.sales, saleAmount: s.sale_amount, commission: s.commission_pending + s.commission_approved };
  });
  return {
    currency: settings.currency,
    timeZone: zone,
    range: range as 'today' | '7d' | '30d' | 'month' | 'custom',
    period,
    previousPeriod: previous,
    current: figuresOf(total(byDay, period), paidNow, joinedNow),
    previous: figuresOf(total(byDay, previous), paidBefore, joinedBefore),
    liability: { ...owed, total: owed.available + owed.withdrawing },
    trend,
    topCampaigns: campaigns.map(({ namesJson, ...c }) => ({ ...c, name: pickLocalized(namesJson, locale), account: null })),
    topPromoters: promoters,
    workQueue: queue,
    generatedAt: now,
  };
}
