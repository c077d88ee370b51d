/** The signed-in user, shared by every feature: the `me` query and sign-out. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Ok, Revoked } from '@pa/shared';
import { api } from './api-client';
import { meQuery } from './me-query';
import { clearUserCaches } from './user-cache';
import { useAppStore } from '../stores/app-store';

export { meQuery, useRememberUser } from './me-query';

export function useMe() {
  return useQuery(meQuery);
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
