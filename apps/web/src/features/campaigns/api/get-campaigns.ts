import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CampaignList } from '@pa/shared';
import { api } from '@/lib/api-client';

/** Keyed by language too: the server answers names and texts in the reader's language. */
export const campaignsQuery = (q: string, locale: string) =>
  queryOptions({
    queryKey: ['campaigns', locale, q] as const,
    queryFn: ({ signal }) => api<CampaignList>('GET', `campaigns?limit=50${q ? `&q=${encodeURIComponent(q)}` : ''}`, undefined, { signal }),
  });

export const useCampaigns = (q: string, locale: string) => useQuery(campaignsQuery(q, locale));
