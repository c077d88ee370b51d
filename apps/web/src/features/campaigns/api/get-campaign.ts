import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CampaignEnvelope } from '@pa/shared';
import { api } from '@/lib/api-client';

export const campaignQuery = (id: string, locale: string) =>
  queryOptions({
    queryKey: ['campaigns', locale, 'detail', id] as const,
    queryFn: ({ signal }) => api<CampaignEnvelope>('GET', `campaigns/${encodeURIComponent(id)}`, undefined, { signal }).then((r) => r.campaign),
  });

/** Waits (stays pending) while the id is not known yet. */
export const useCampaign = (id: string, locale: string) => useQuery({ ...campaignQuery(id, locale), enabled: id !== '', staleTime: 0 });
