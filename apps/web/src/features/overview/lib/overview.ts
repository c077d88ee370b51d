/**
 * The overview's pure logic: the period asked for (a named range or custom days, kept in the
 * address), the figures shown with their change against the previous period, and the work
 * queue's entries with the list (and filter) each one opens.
 */
import { OVERVIEW_RANGES, type AdminOverview, type OverviewFigures, type OverviewRange, type WorkQueue } from '@pa/shared';
import { changeOf, type Change } from '@/lib/change';

export type OverviewSelection = { range: OverviewRange } | { from: string; to: string };
export type RangeChoice = OverviewRange | 'custom';
/** The server's default, and the page's. */
export const DEFAULT_RANGE: OverviewRange = '7d';
/** The longest custom period the server accepts (both days included). */
const MAX_CUSTOM_DAYS = 366;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day (YYYY-MM-DD) that exists, as a UTC day number; null otherwise. */
export function dayNumber(day: string): number | null {
  if (!DAY.test(day)) return null;
  const ms = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day) return null;
  return ms / 86_400_000;
}

/** Why a custom period cannot be asked for, or null when it can. */
export function customRangeProblem(from: string, to: string): 'required' | 'order' | 'tooLong' | null {
  const a = dayNumber(from);
  const b = dayNumber(to);
  if (a === null || b === null) return 'required';
  if (a > b) return 'order';
  if (b - a + 1 > MAX_CUSTOM_DAYS) return 'tooLong';
  return null;
}

/** The period in the address (`?range=30d`, or `?from=…&to=…`); anything else reads as the default range. */
export function selectionFromParams(params: URLSearchParams): OverviewSelection {
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  if ((from || to) && customRangeProblem(from, to) === null) return { from, to };
  const range = params.get('range') ?? '';
  return (OVERVIEW_RANGES as readonly string[]).includes(range) ? { range: range as OverviewRange } : { range: DEFAULT_RANGE };
}

/** The query string for the API and the address (the default range is left out of neither: the API gets it explicitly). */
export function overviewSearch(selection: OverviewSelection): string {
  return 'range' in selection ? `range=${selection.range}` : `from=${selection.from}&to=${selection.to}`;
}

export const choiceOf = (selection: OverviewSelection): RangeChoice => ('range' in selection ? selection.range : 'custom');

/** Commission earned in a period: pending plus approved (rejected and reversed are not owed). */
export const earnedCommission = (f: OverviewFigures) => f.commission.pending + f.commission.approved;

type FigureKey = 'clicks' | 'uniqueClicks' | 'leads' | 'newPromoters' | 'sales' | 'saleAmount' | 'commission' | 'paidOut';
const FIGURES: readonly { key: FigureKey; money: boolean; value: (f: OverviewFigures) => number }[] = [
  { key: 'clicks', money: false, value: (f) => f.clicks },
  { key: 'uniqueClicks', money: false, value: (f) => f.uniqueClicks },
  { key: 'leads', money: false, value: (f) => f.leads },
  // Promoters who registered in the period (leads are the business's customers, not promoters).
  { key: 'newPromoters', money: false, value: (f) => f.newPromoters },
  { key: 'sales', money: false, value: (f) => f.sales },
  { key: 'saleAmount', money: true, value: (f) => f.saleAmount },
  { key: 'commission', money: true, value: earnedCommission },
  { key: 'paidOut', money: true, value: (f) => f.paidOut },
];

export interface Figure {
  key: FigureKey;
  money: boolean;
  current: number;
  previous: number;
  change: Change;
}

/** Each figure of the period with the previous period's and how it moved. */
export function figuresOf(overview: Pick<AdminOverview, 'current' | 'previous'>): Figure[] {
  return FIGURES.map(({ key, money, value }) => {
    const current = value(overview.current);
    const previous = value(overview.previous);
    return { key, money, current, previous, change: changeOf(current, previous) };
  });
}

type QueueKey = keyof WorkQueue;
interface QueueEntry {
  key: QueueKey;
  count: number;
  /** The list that holds these, filtered to them. */
  to: string;
}

/** The lists and the filters the work queue opens (each list reads `?status=` from the address). */
export const QUEUE_LINKS: Record<QueueKey, string> = {
  registrations: '/admin/users?status=pending',
  enrollments: '/admin/enrollments?status=pending',
  commissions: '/admin/commissions?status=pending',
  withdrawalsToApprove: '/admin/withdrawals?status=requested',
  withdrawalsToPay: '/admin/withdrawals?status=approved',
};

export function queueEntries(queue: WorkQueue): QueueEntry[] {
  return (Object.keys(QUEUE_LINKS) as QueueKey[]).map((key) => ({ key, count: queue[key], to: QUEUE_LINKS[key] }));
}

/** Everything waiting, for the queue's heading ("3 to do" / "all done"). */
export const queueTotal = (queue: WorkQueue) => queueEntries(queue).reduce((sum, e) => sum + e.count, 0);

export type TrendMetric = 'clicks' | 'leads' | 'sales' | 'saleAmount' | 'commission';
export const TREND_METRICS: readonly TrendMetric[] = ['clicks', 'leads', 'sales', 'saleAmount', 'commission'];
export const isMoneyMetric = (m: TrendMetric) => m === 'saleAmount' || m === 'commission';

/** Days with an axis label: every `step`-th counted back from the last day (evenly spaced), about one per `room` px. */
export function evenLabels(n: number, width: number, room = 72): number[] {
  if (n <= 0) return [];
  const max = Math.max(2, Math.floor(width / room));
  const step = n <= max ? 1 : Math.ceil((n - 1) / (max - 1));
  const out: number[] = [];
  for (let i = n - 1; i >= 0; i -= step) out.unshift(i);
  return out;
}
