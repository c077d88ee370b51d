import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StaffList } from '@pa/shared';
import { api } from './api-client';

/** `GET api/admin/staff`: every operator and admin (few: one page). */
export const staffQuery = queryOptions({
  queryKey: ['admin', 'staff'] as const,
  queryFn: ({ signal }) => api<StaffList>('GET', 'admin/staff', undefined, { signal }).then((r) => r.items),
});

export const useStaff = () => useQuery(staffQuery);
