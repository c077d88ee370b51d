/**
 * The number of unread notifications, shared by the tab bar badge, the Me page, the home bell and
 * the desk navigation (features do not import each other). Polled like money: on window focus and every 20 s (LIVE).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UnreadCount } from '@pa/shared';
import { api } from './api-client';
import { LIVE } from './query-client';

export const NOTIFICATIONS_KEY = ['notifications'] as const;

export const unreadCountQuery = queryOptions({
  queryKey: [...NOTIFICATIONS_KEY, 'unread-count'] as const,
  queryFn: ({ signal }) => api<UnreadCount>('GET', 'notifications/unread-count', undefined, { signal }).then((r) => r.unread),
  staleTime: 15_000,
  ...LIVE,
  // A missing count is not worth an error screen or a retry storm: the badge just stays empty.
  retry: false,
});

/** Unread notifications of the signed-in person (promoters: the tab bar and bell; staff: the desk navigation). */
export function useUnreadCount(enabled = true) {
  return useQuery({ ...unreadCountQuery, enabled });
}

/** "99+" past two digits, so the badge keeps its size. */
export const badgeText = (count: number) => (count > 99 ? '99+' : String(count));
