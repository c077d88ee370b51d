import { queryOptions } from '@tanstack/react-query';
import type { Group, GroupList } from '@pa/shared';
import { api } from './api-client';

/**
 * `GET api/admin/groups`: every promoter group (few: one answer), the default first. The groups
 * page lists them; the promoters table filters by them and moves promoters between them.
 */
export const groupsQuery = queryOptions({
  queryKey: ['admin', 'groups'] as const,
  queryFn: ({ signal }) => api<GroupList>('GET', 'admin/groups', undefined, { signal }).then((r): Group[] => r.items),
  staleTime: 30_000,
});
