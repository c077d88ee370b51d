import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Settings } from '@pa/shared';
import { api } from '../../../lib/api-client';

export const settingsQuery = queryOptions({
  queryKey: ['admin', 'settings'] as const,
  queryFn: ({ signal }) => api<Settings>('GET', 'admin/settings', undefined, { signal }),
});

export const useSettings = () => useQuery(settingsQuery);

export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: Partial<Settings>) => api<Settings>('PATCH', 'admin/settings', patch),
    onSuccess: (settings) => queryClient.setQueryData(settingsQuery.queryKey, settings),
  });
}
