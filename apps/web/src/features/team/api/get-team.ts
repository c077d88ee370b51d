import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { Team } from '@pa/shared';
import { api } from '@/lib/api-client';

/** My team: invite code, counts, this month's figures and the direct members, a page at a time. */
const teamQuery = () =>
  infiniteQueryOptions({
    queryKey: ['team'] as const,
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: '20' });
      if (pageParam) params.set('cursor', pageParam);
      return api<Team>('GET', `team?${params}`, undefined, { signal });
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // Override is money: refetched whenever Team opens.
    staleTime: 0,
  });

export const useTeam = () => useInfiniteQuery(teamQuery());
