/** The signed-in user, shared by every feature: the `me` query and sign-out. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Ok, Revoked, User, UserEnvelope } from '@pa/shared';
import { api } from './api-client';
import { clearUserCaches } from './user-cache';
import { useAppStore } from '../stores/app-store';

export const meQuery = queryOptions({
  queryKey: ['me'] as const,
  queryFn: ({ signal }) => api<UserEnvelope>('GET', 'me', undefined, { signal }).then((r) => r.user),
  staleTime: 60_000,
});

export function useMe() {
  return useQuery(meQuery);
}

/** Puts a freshly returned user into the cache and the store summary. */
export function useRememberUser() {
  const queryClient = useQueryClient();
  const setUser = useAppStore((s) => s.setUser);
  return (user: User) => {
    queryClient.setQueryData(meQuery.queryKey, user);
    setUser({ id: user.id, displayName: user.displayName, role: user.role });
  };
}

export function useSignOut(everywhere = false) {
  const queryClient = useQueryClient();
  const setUser = useAppStore((s) => s.setUser);
  return useMutation({
    mutationFn: () => api<Revoked | Ok>('POST', everywhere ? 'auth/logout-all' : 'auth/logout'),
    onSettled: () => {
      setUser(null);
      queryClient.clear();
      clearUserCaches();
    },
  });
}
