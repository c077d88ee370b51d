/**
 * Home's last figures per range, kept on this device so a return visit shows them at once
 * (marked as saved, while fresh ones load). One person's figures at a time: writing for one
 * user removes any other user's entry and entries of older cache versions; signing out removes
 * them all (lib/user-cache).
 */
import type { StatsOverview } from '@pa/shared';
import { clearUserCaches, deviceStorage, USER_CACHE_PREFIX, type KeyValueStorage } from '@/lib/user-cache';

// 2: the overview carries firstSteps.
const OVERVIEW_CACHE_VERSION = 2;
const PREFIX = `${USER_CACHE_PREFIX}overview:`;
/** Older than this, saved figures mislead more than they help. */
export const OVERVIEW_CACHE_MAX_AGE_MS = 7 * 86_400_000;

interface CachedOverview {
  data: StatsOverview;
  savedAt: number;
}

interface Stored {
  v: number;
  ranges: Record<string, CachedOverview>;
}

export const overviewCacheKey = (userId: string) => `${PREFIX}v${OVERVIEW_CACHE_VERSION}:${userId}`;

function looksLikeOverview(data: unknown): data is StatsOverview {
  const d = data as Partial<StatsOverview> | null;
  return !!d && typeof d.currency === 'string' && !!d.wallet && typeof d.wallet.available === 'number'
    && !!d.current && typeof d.current.clicks === 'number' && !!d.previous && Array.isArray(d.series) && Array.isArray(d.topLinks);
}

function readStored(storage: KeyValueStorage, userId: string): Stored | null {
  try {
    const raw = storage.getItem(overviewCacheKey(userId));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Stored | null;
    return parsed && parsed.v === OVERVIEW_CACHE_VERSION && parsed.ranges && typeof parsed.ranges === 'object' ? parsed : null;
  } catch {
    return null;
  }
}

export function readCachedOverview(userId: string, range: string, now = Date.now(), storage = deviceStorage()): CachedOverview | null {
  if (!storage) return null;
  const entry = readStored(storage, userId)?.ranges[range];
  if (!entry || typeof entry.savedAt !== 'number' || !looksLikeOverview(entry.data)) return null;
  // Too old, or from a clock that has since been set back: not worth showing.
  if (now - entry.savedAt > OVERVIEW_CACHE_MAX_AGE_MS || entry.savedAt > now + 60_000) return null;
  return entry;
}

export function writeCachedOverview(userId: string, range: string, data: StatsOverview, now = Date.now(), storage = deviceStorage()): void {
  if (!storage) return;
  const key = overviewCacheKey(userId);
  clearUserCaches(PREFIX, key, storage);
  try {
    const stored = readStored(storage, userId) ?? { v: OVERVIEW_CACHE_VERSION, ranges: {} };
    stored.ranges[range] = { data, savedAt: now };
    storage.setItem(key, JSON.stringify(stored));
  } catch {
    // Full or disabled storage: the figures simply will not be there next time.
  }
}
