import { QueryClient, type Query } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StatsOverview } from '@pa/shared';
import { overviewQuery, prefetchOverview } from '../src/features/home/api/get-overview';

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
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(overview), { status: 200 })));
    const client = new QueryClient();
    await prefetchOverview(client, 'u1', 'today', 'en');
    const options = overviewQuery('u1', 'today', 'en');
    const refetchOnMount = options.refetchOnMount as unknown as (query: Query) => boolean;
    const query = client.getQueryCache().find({ queryKey: options.queryKey })!;
    expect(refetchOnMount(query)).toBe(false);
    expect(refetchOnMount(query)).toBe(true);
    // Other figures (another range, language or user) are always asked for when Home shows them.
    await client.prefetchQuery(overviewQuery('u1', 'month', 'en'));
    expect(refetchOnMount(client.getQueryCache().find({ queryKey: overviewQuery('u1', 'month', 'en').queryKey })!)).toBe(true);
  });
});
