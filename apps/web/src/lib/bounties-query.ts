import { queryOptions } from '@tanstack/react-query';
import type { AdminBountyList } from '@pa/shared';
import { api } from './api-client';

/**
 * `GET api/admin/campaigns/:id/bounties`: a campaign's bounties (issue 31 item 5). The bounties
 * page lists them; the campaign editor's link to it counts the active ones and what waits for review.
 */
export const adminBountiesQuery = (campaignId: string) =>
  queryOptions({
    queryKey: ['admin', 'bounties', 'campaign', campaignId] as const,
    queryFn: ({ signal }) => api<AdminBountyList>('GET', `admin/campaigns/${encodeURIComponent(campaignId)}/bounties`, undefined, { signal }),
  });
