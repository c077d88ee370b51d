import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SessionInfo } from '@pa/shared';
import { api } from '../../../lib/api-client';

export const sessionsQuery = queryOptions({
  queryKey: ['me', 'sessions'] as const,
  queryFn: ({ signal }) => api<{ items: SessionInfo[] }>('GET', 'me/sessions', undefined, { signal }).then((r) => r.items),
});

export const useSessions = () => useQuery(sessionsQuery);
