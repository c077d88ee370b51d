/**
 * The signed-in user's query and how a fresh one is remembered: what sign-in and the app's start
 * need (in the entry). Reading it in a component (`useMe`) and signing out are in lib/session.ts,
 * which the signed-in screens load: `useQuery` and its observer stay out of a first visit.
 */
import { queryOptions, useQueryClient } from '@tanstack/react-query';
import type { User, UserEnvelope } from '@pa/shared';
import { api } from './api-client';
import { useAppStore } from '../stores/app-store';

export const meQuery = queryOptions({
  queryKey: ['me'] as const,
  queryFn: ({ signal }) => api<UserEnvelope>('GET', 'me', undefined, { signal }).then((r) => r.user),
  staleTime: 60_000,
});

/** Puts a freshly returned user into the cache and the store summary. */
export function useRememberUser() {
  const queryClient = useQueryClient();
  const setUser = useAppStore((s) => s.setUser);
  return (user: User) => {
    queryClient.setQueryData(meQuery.queryKey, user);
    setUser({ id: user.id, displayName: user.displayName, role: user.role });
  };
}
