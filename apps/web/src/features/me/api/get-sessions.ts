import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SessionList } from '@pa/shared';
import { api } from '@/lib/api-client';

export const sessionsQuery = queryOptions({
  queryKey: ['me', 'sessions'] as const,
  queryFn: ({ signal }) => api<SessionList>('GET', 'me/sessions', undefined, { signal }).then((r) => r.items),
});

export const useSessions = () => useQuery(sessionsQuery);
