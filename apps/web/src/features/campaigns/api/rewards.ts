import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RewardGroupOption, RewardGroupOptions, Rewards, RewardRuleInput } from '@pa/shared';
import { api, ApiError } from '@/lib/api-client';
import { campaignQuery } from './console-campaigns';

const path = (id: string) => `admin/campaigns/${encodeURIComponent(id)}/rewards`;

export const rewardsQuery = (id: string) =>
  queryOptions({
    queryKey: ['admin', 'campaigns', 'rewards', id] as const,
    queryFn: ({ signal }) => api<Rewards>('GET', path(id), undefined, { signal }),
  });

export const useRewards = (id: string) => useQuery(rewardsQuery(id));

/**
 * Saves the rules and the budget. The base rules are the campaign's reward fields: the campaign
 * is fetched again (its editor may be mounted later, and starts from the cache).
 */
export function usePutRewards(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { rules: RewardRuleInput[]; budgetPerMonth: number | null }) => api<Rewards>('PUT', path(id), body),
    onSuccess: async (saved) => {
      queryClient.setQueryData(rewardsQuery(id).queryKey, saved);
      await queryClient.invalidateQueries({ queryKey: campaignQuery(id).queryKey, refetchType: 'all' });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'campaigns', 'list'] });
    },
  });
}

export type { RewardGroupOption as GroupOption };

/**
 * The promoter groups rules may be limited to (`GET api/admin/groups`, issue 31 item 1), or null
 * where this server does not answer it: the editor then leaves the groups out (keeping what a
 * rule already names).
 */
export const groupsQuery = queryOptions({
  queryKey: ['admin', 'groups', 'options'] as const,
  queryFn: async ({ signal }): Promise<RewardGroupOption[] | null> => {
    try {
      const res = await api<RewardGroupOptions>('GET', 'admin/groups', undefined, { signal });
      return Array.isArray(res.items) ? res.items.map((g) => ({ id: g.id, name: g.name })) : null;
    } catch (error) {
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) return null;
      throw error;
    }
  },
  staleTime: 60_000,
});

export const useGroupOptions = () => useQuery(groupsQuery);
