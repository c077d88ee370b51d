import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Leaderboard } from '@pa/shared';
import { api } from '@/lib/api-client';

export type LeaderboardPeriod = Leaderboard['period'];
export type LeaderboardMetric = Leaderboard['by'];

const leaderboardQuery = (period: LeaderboardPeriod, by: LeaderboardMetric) =>
  queryOptions({
    queryKey: ['leaderboard', period, by] as const,
    queryFn: ({ signal }) => api<Leaderboard>('GET', `leaderboard?period=${period}&by=${by}`, undefined, { signal }),
    // Asked afresh whenever the page opens (the server keeps each ranking for up to a minute).
    staleTime: 0,
  });

/** Switching period or figure keeps the current list on screen until the next one arrives. */
export const useLeaderboard = (period: LeaderboardPeriod, by: LeaderboardMetric) => useQuery({ ...leaderboardQuery(period, by), placeholderData: keepPreviousData });
