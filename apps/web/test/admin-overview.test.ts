import { describe, expect, it } from 'vitest';
import type { OverviewFigures, WorkQueue } from '@pa/shared';
import {
  choiceOf, customRangeProblem, dayNumber, evenLabels, figuresOf, overviewSearch, QUEUE_LINKS, queueEntries, queueTotal, selectionFromParams,
} from '../src/features/overview/lib/overview';
import { parseHash } from '../src/lib/hash-router';

const zero: OverviewFigures = { clicks: 0, uniqueClicks: 0, leads: 0, sales: 0, saleAmount: 0, refundAmount: 0, commission: { pending: 0, approved: 0, rejected: 0, reversed: 0 }, paidOut: 0, newPromoters: 0 };

describe('the overview period', () => {
  it('reads real calendar days only', () => {
    expect(dayNumber('2026-11-24')).toBe(Date.UTC(2026, 10, 24) / 86_400_000);
    expect(dayNumber('2026-02-30')).toBeNull();
    expect(dayNumber('2026-2-3')).toBeNull();
    expect(dayNumber('')).toBeNull();
  });

  it('checks a custom period as the server does: both days, in order, at most 366 days', () => {
    expect(customRangeProblem('2026-11-01', '2026-11-30')).toBeNull();
    expect(customRangeProblem('2026-11-24', '2026-11-24')).toBeNull();
    expect(customRangeProblem('', '2026-11-30')).toBe('required');
    expect(customRangeProblem('2026-11-30', '2026-11-01')).toBe('order');
    // 2024 is a leap year: Jan 1 to Dec 31 is 366 days, one more is too long.
    expect(customRangeProblem('2024-01-01', '2024-12-31')).toBeNull();
    expect(customRangeProblem('2024-01-01', '2025-01-01')).toBe('tooLong');
  });

  it('takes the period from the address, else the default 7 days', () => {
    expect(selectionFromParams(new URLSearchParams('range=30d'))).toEqual({ range: '30d' });
    expect(selectionFromParams(new URLSearchParams('range=year'))).toEqual({ range: '7d' });
    expect(selectionFromParams(new URLSearchParams(''))).toEqual({ range: '7d' });
    expect(selectionFromParams(new URLSearchParams('from=2026-11-01&to=2026-11-10&range=today'))).toEqual({ from: '2026-11-01', to: '2026-11-10' });
    // A custom period the server would refuse is not asked for.
    expect(selectionFromParams(new URLSearchParams('from=2026-11-10&to=2026-11-01&range=month'))).toEqual({ range: 'month' });
  });

  it('asks the API for exactly the period chosen', () => {
    expect(overviewSearch({ range: 'today' })).toBe('range=today');
    expect(overviewSearch({ from: '2026-11-01', to: '2026-11-10' })).toBe('from=2026-11-01&to=2026-11-10');
    expect(choiceOf({ range: 'month' })).toBe('month');
    expect(choiceOf({ from: '2026-11-01', to: '2026-11-10' })).toBe('custom');
  });
});

describe('the overview figures', () => {
  it('compares each figure with the previous period; commission is pending plus approved', () => {
    const current = { ...zero, clicks: 150, sales: 3, saleAmount: 30_000, commission: { pending: 1000, approved: 2000, rejected: 500, reversed: 250 }, paidOut: 0 };
    const previous = { ...zero, clicks: 100, sales: 4, saleAmount: 0, commission: { pending: 3000, approved: 0, rejected: 0, reversed: 0 } };
    const byKey = Object.fromEntries(figuresOf({ current, previous }).map((f) => [f.key, f]));
    expect(Object.keys(byKey)).toEqual(['clicks', 'uniqueClicks', 'leads', 'newPromoters', 'sales', 'saleAmount', 'commission', 'paidOut']);
    expect(byKey.clicks!.change).toEqual({ kind: 'up', ratio: 0.5 });
    expect(byKey.sales!.change).toEqual({ kind: 'down', ratio: -0.25 });
    expect(byKey.saleAmount!.change).toEqual({ kind: 'new' });
    expect(byKey.commission).toMatchObject({ current: 3000, previous: 3000, money: true, change: { kind: 'same', ratio: 0 } });
    expect(byKey.paidOut!.change).toEqual({ kind: 'none' });
    expect(byKey.leads!.money).toBe(false);
  });
});

describe('the work queue', () => {
  const queue: WorkQueue = { registrations: 2, enrollments: 0, commissions: 5, withdrawalsToApprove: 1, withdrawalsToPay: 3 };

  it('links each count to its list, filtered to what waits', () => {
    const entries = queueEntries(queue);
    expect(entries.map((e) => [e.key, e.count])).toEqual([['registrations', 2], ['enrollments', 0], ['commissions', 5], ['withdrawalsToApprove', 1], ['withdrawalsToPay', 3]]);
    const where = Object.fromEntries(entries.map((e) => {
      const location = parseHash(`#${e.to}`);
      return [e.key, { path: location.pathname, status: new URLSearchParams(location.search).get('status') }];
    }));
    expect(where).toEqual({
      registrations: { path: '/admin/users', status: 'pending' },
      enrollments: { path: '/admin/enrollments', status: 'pending' },
      commissions: { path: '/admin/commissions', status: 'pending' },
      withdrawalsToApprove: { path: '/admin/withdrawals', status: 'requested' },
      withdrawalsToPay: { path: '/admin/withdrawals', status: 'approved' },
    });
    expect(queueTotal(queue)).toBe(11);
    expect(Object.keys(QUEUE_LINKS)).toHaveLength(5);
  });

});

describe('the trend axis', () => {
  it('labels days evenly, counted back from the last one', () => {
    expect(evenLabels(7, 900)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(evenLabels(30, 900)).toEqual([2, 5, 8, 11, 14, 17, 20, 23, 26, 29]);
    expect(evenLabels(30, 300)).toEqual([9, 19, 29]);
    expect(evenLabels(1, 300)).toEqual([0]);
    expect(evenLabels(0, 300)).toEqual([]);
  });
});
