import { describe, expect, it } from 'vitest';
import type { StatsOverview } from '@pa/shared';
import { OVERVIEW_CACHE_MAX_AGE_MS, overviewCacheKey, readCachedOverview, writeCachedOverview } from '../src/features/home/lib/overview-cache';
import { clearUserCaches, type KeyValueStorage } from '../src/lib/user-cache';

class MemoryStorage implements KeyValueStorage {
  private map = new Map<string, string>();
  get length() { return this.map.size; }
  key(i: number) { return [...this.map.keys()][i] ?? null; }
  getItem(k: string) { return this.map.get(k) ?? null; }
  setItem(k: string, v: string) { this.map.set(k, v); }
  removeItem(k: string) { this.map.delete(k); }
  keys() { return [...this.map.keys()]; }
}

const figures = { clicks: 3, uniqueClicks: 2, leads: 0, sales: 1, saleAmount: 25_900, refundAmount: 0, commission: { pending: 2590, approved: 0, rejected: 0, reversed: 0 }, earnings: 2590, conversionRate: 0.5, epc: 863 };
const overview: StatsOverview = {
  currency: 'CNY',
  wallet: { available: 0, pending: 2590, withdrawing: 0, paidOut: 0 },
  range: 'today',
  period: { from: '2025-11-22', to: '2025-11-22', days: 1 },
  previousPeriod: { from: '2025-11-21', to: '2025-11-21', days: 1 },
  current: figures,
  previous: { ...figures, clicks: 0 },
  series: [{ day: '2025-11-22', clicks: 3, uniqueClicks: 2, leads: 0, sales: 1, earnings: 2590 }],
  topLinks: [],
  firstSteps: { joined: true, linked: true, clicked: true },
  generatedAt: 1_700_000_000_000,
};
const NOW = 1_700_000_000_000;

describe("Home's saved figures", () => {
  it('gives back what was saved, per user and range', () => {
    const s = new MemoryStorage();
    writeCachedOverview('u1', 'today', overview, NOW, s);
    writeCachedOverview('u1', '7d', { ...overview, range: '7d' }, NOW + 1, s);
    expect(readCachedOverview('u1', 'today', NOW + 1000, s)).toEqual({ data: overview, savedAt: NOW });
    expect(readCachedOverview('u1', '7d', NOW + 1000, s)?.data.range).toBe('7d');
    expect(readCachedOverview('u1', '30d', NOW, s)).toBeNull();
    expect(readCachedOverview('u2', 'today', NOW, s)).toBeNull();
    expect(s.keys()).toEqual([overviewCacheKey('u1')]);
    expect(overviewCacheKey('u1')).toMatch(/^pa-cache:overview:v2:u1$/);
  });

  it("keeps one person's figures only: another user's write removes them", () => {
    const s = new MemoryStorage();
    writeCachedOverview('u1', 'today', overview, NOW, s);
    writeCachedOverview('u2', 'today', overview, NOW, s);
    expect(readCachedOverview('u1', 'today', NOW, s)).toBeNull();
    expect(s.keys()).toEqual([overviewCacheKey('u2')]);
  });

  it('ignores other versions, broken entries and figures that are too old', () => {
    const s = new MemoryStorage();
    s.setItem('pa-cache:overview:v0:u1', JSON.stringify({ v: 0, ranges: { today: { data: overview, savedAt: NOW } } }));
    s.setItem(overviewCacheKey('u1'), '{not json');
    expect(readCachedOverview('u1', 'today', NOW, s)).toBeNull();
    s.setItem(overviewCacheKey('u1'), JSON.stringify({ v: 2, ranges: { today: { data: { currency: 'CNY' }, savedAt: NOW } } }));
    expect(readCachedOverview('u1', 'today', NOW, s)).toBeNull();
    writeCachedOverview('u1', 'today', overview, NOW, s);
    expect(s.keys()).toEqual([overviewCacheKey('u1')]); // the old version's key is gone
    expect(readCachedOverview('u1', 'today', NOW + OVERVIEW_CACHE_MAX_AGE_MS + 1, s)).toBeNull();
    expect(readCachedOverview('u1', 'today', NOW - 3_600_000, s)).toBeNull();
  });

  it('is forgotten on sign-out, leaving other keys alone', () => {
    const s = new MemoryStorage();
    s.setItem('pa-store', '{}');
    writeCachedOverview('u1', 'today', overview, NOW, s);
    clearUserCaches(undefined, undefined, s);
    expect(s.keys()).toEqual(['pa-store']);
  });

  it('does nothing without storage', () => {
    expect(() => writeCachedOverview('u1', 'today', overview, NOW, null)).not.toThrow();
    expect(readCachedOverview('u1', 'today', NOW, null)).toBeNull();
  });
});
