import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { AdminUserList, UserStatus } from '@pa/shared';
import { api } from '@/lib/api-client';

const usersQuery = (status: UserStatus) =>
  infiniteQueryOptions({
    queryKey: ['admin', 'users', status] as const,
    queryFn: ({ pageParam, signal }) =>
      api<AdminUserList>('GET', `admin/users?status=${status}&limit=20${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`, undefined, { signal }),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useUsers = (status: UserStatus) => useInfiniteQuery(usersQuery(status));
