import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { NotificationList, Ok } from '@pa/shared';
import { api } from '@/lib/api-client';
import { NOTIFICATIONS_KEY, unreadCountQuery } from '@/lib/unread';

export const notificationsQuery = (unreadOnly: boolean) =>
  infiniteQueryOptions({
    queryKey: [...NOTIFICATIONS_KEY, 'list', unreadOnly ? 'unread' : 'all'] as const,
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: '20' });
      if (unreadOnly) params.set('unread', 'true');
      if (pageParam) params.set('cursor', pageParam);
      return api<NotificationList>('GET', `notifications?${params}`, undefined, { signal });
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime: 0,
  });

export const useNotifications = (unreadOnly: boolean) => useInfiniteQuery(notificationsQuery(unreadOnly));

/** Marks one read at once on screen (the dot goes, the badge counts down), then asks the server. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<Ok>('POST', `notifications/${encodeURIComponent(id)}/read`),
    onMutate: async (id) => {
      await queryClient.cancelQueries({ queryKey: NOTIFICATIONS_KEY });
      const now = Date.now();
      let changed = false;
      queryClient.setQueriesData<InfiniteData<NotificationList>>({ queryKey: [...NOTIFICATIONS_KEY, 'list'] }, (data) => {
        if (!data) return data;
        return {
          ...data,
          pages: data.pages.map((p) => ({
            ...p,
            items: p.items.map((n) => {
              if (n.id !== id || n.readAt !== null) return n;
              changed = true;
              return { ...n, readAt: now };
            }),
          })),
        };
      });
      if (changed) queryClient.setQueryData<number>(unreadCountQuery.queryKey, (n) => (n === undefined ? n : Math.max(0, n - 1)));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}

export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<Ok>('POST', 'notifications/read-all'),
    onSuccess: () => queryClient.setQueryData<number>(unreadCountQuery.queryKey, 0),
    onSettled: () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}
