import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminOverview } from '@pa/shared';
import { api } from '@/lib/api-client';
import { FOLLOWED } from '@/lib/query-client';
import { overviewSearch, type OverviewSelection } from '../lib/overview';

/**
 * `GET api/admin/overview`: the program's figures for a period with the previous one, the trend,
 * top campaigns and promoters, the liability and the work queue. Keyed by language (campaign names
 * are localized); figures and the queue move while the page is open, so it is refetched live.
 */
const adminOverviewQuery = (selection: OverviewSelection, locale: string) =>
  queryOptions({
    queryKey: ['admin', 'overview', overviewSearch(selection), locale] as const,
    queryFn: ({ signal }) => api<AdminOverview>('GET', `admin/overview?${overviewSearch(selection)}`, undefined, { signal, headers: { 'accept-language': locale } }),
    ...FOLLOWED,
    // Switching the period keeps the last figures on screen (dimmed) until the new ones arrive.
    placeholderData: keepPreviousData,
  });

export const useAdminOverview = (selection: OverviewSelection, locale: string) => useQuery(adminOverviewQuery(selection, locale));
