import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StatsOverview } from '@pa/shared';
import { forgetOpeningRequest, overviewQuery, prefetchOverview } from '../src/features/home/api/get-overview';

const overview = { currency: 'CNY', generatedAt: 1_700_000_000_000 } as StatsOverview;

describe('Home’s figures asked for ahead, as the app opens on Home', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('are asked for in the language the app opens in, whatever the API client would say', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify(overview), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    const client = new QueryClient();
    await prefetchOverview(client, 'u1', '7d', 'fr');
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('api/stats/overview?range=7d');
    expect((init.headers as Record<string, string>)['accept-language']).toBe('fr');
    expect(client.getQueryData(overviewQuery('u1', '7d', 'fr').queryKey)).toEqual(overview);
  });

  it('serve Home’s first mount without asking again; any later opening of Home asks anew', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify(overview), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    const client = new QueryClient();
    await prefetchOverview(client, 'u1', 'today', 'en');
    expect(fetch).toHaveBeenCalledTimes(1);
    // Mounting as useQuery does: the optimistic result while rendering, then the subscription —
    // TanStack Query consults refetchOnMount at both.
    const mount = async (range: 'today' | 'month' = 'today') => {
      const options = { ...client.defaultQueryOptions(overviewQuery('u1', range, 'en')), _optimisticResults: 'optimistic' as const };
      const observer = new QueryObserver(client, options);
      observer.getOptimisticResult(options);
      const unsubscribe = observer.subscribe(() => undefined);
      await vi.waitFor(() => expect(observer.getCurrentResult().fetchStatus).toBe('idle'));
      unsubscribe();
    };
    await mount();
    expect(fetch).toHaveBeenCalledTimes(1);
    forgetOpeningRequest();
    await mount();
    expect(fetch).toHaveBeenCalledTimes(2);
    // Other figures (another range, language or user) are always asked for when Home shows them.
    await prefetchOverview(client, 'u1', 'today', 'en');
    await mount('month');
    expect(fetch).toHaveBeenCalledTimes(4);
  });
});
