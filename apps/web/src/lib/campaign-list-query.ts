import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { AdminCampaignList, CampaignStatus } from '@pa/shared';
import { api } from './api-client';

/*
 * The console's campaign list: the campaigns table pages through it, the API keys page offers its
 * active campaigns to scope a key to.
 */

export const campaignsQuery = (filter: CampaignStatus | 'all') =>
  infiniteQueryOptions({
    queryKey: ['admin', 'campaigns', 'list', filter] as const,
    queryFn: ({ pageParam, signal }) =>
      api<AdminCampaignList>('GET', `admin/campaigns?limit=20${filter === 'all' ? '' : `&status=${filter}`}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`, undefined, { signal }),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useCampaigns = (filter: CampaignStatus | 'all') => useInfiniteQuery(campaignsQuery(filter));
