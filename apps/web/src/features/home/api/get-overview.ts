import { hashKey, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import type { StatsOverview } from '@pa/shared';
import { api } from '@/lib/api-client';
import { LIVE } from '@/lib/query-client';
import type { HomeRange } from '../lib/range';
import { readCachedOverview, writeCachedOverview } from '../lib/overview-cache';

/** In `locale` (top links carry localized campaign names), also when asked before the app's language is set up. */
const getOverview = (range: HomeRange, locale: string, signal?: AbortSignal) =>
  api<StatsOverview>('GET', `stats/overview?range=${range}`, undefined, { signal, headers: { 'accept-language': locale } });

/** The figures asked for ahead of Home's code, as the app opened on Home (prefetchOverview); null once Home has mounted. */
let askedForOpening: string | null = null;

/**
 * Home in one call. Keyed by language (top links carry localized campaign names). Money is always
 * refetched when Home opens — unless the app has just asked for it ahead of Home's code, as it
 * opened on Home (prefetchOverview); each answer is also saved on the device (per user) so the
 * next visit shows the last figures at once, marked as saved, while the fresh ones load.
 */
export const overviewQuery = (userId: string, range: HomeRange, locale: string) =>
  queryOptions({
    queryKey: ['stats', 'overview', userId, range, locale] as const,
    queryFn: async ({ signal }) => {
      const data = await getOverview(range, locale, signal);
      writeCachedOverview(userId, range, data);
      return data;
    },
    staleTime: 0,
    // Balances and figures move while Home is open (sales, approvals, payouts).
    ...LIVE,
    // Asked more than once per mount (while rendering and when subscribing), so it only reads;
    // useOverview forgets the opening request once Home has mounted.
    refetchOnMount: (query) => query.queryHash !== askedForOpening,
  });

/** Asks for the figures Home opens on while its code loads (app/routes.tsx); Home's first mount then does not ask again. */
export function prefetchOverview(client: QueryClient, userId: string, range: HomeRange, locale: string) {
  const options = overviewQuery(userId, range, locale);
  askedForOpening = hashKey(options.queryKey);
  return client.prefetchQuery(options);
}

/** Home has mounted with the figures asked for ahead: any later mount asks anew. */
export function forgetOpeningRequest() {
  askedForOpening = null;
}

/**
 * The overview, with the figures saved on this device as placeholder while it loads (`saved`
 * says when they were saved; they stay on screen, marked, if loading fails).
 */
export function useOverview(userId: string, range: HomeRange, locale: string) {
  // Read once per range: the entry is rewritten by every successful fetch.
  const saved = useMemo(() => readCachedOverview(userId, range), [userId, range]);
  const query = useQuery({ ...overviewQuery(userId, range, locale), placeholderData: saved?.data });
  // After the query has subscribed (its effect runs first): from now on every mount of Home asks again.
  useEffect(forgetOpeningRequest, []);
  const data = query.data ?? (query.isError ? saved?.data : undefined);
  const showingSaved = data !== undefined && (query.isPlaceholderData || (query.isError && query.data === undefined));
  return { query, data, saved: showingSaved ? saved : null };
}
