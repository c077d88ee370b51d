import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Ok } from '@pa/shared';
import { api } from '@/lib/api-client';
import { sessionsQuery } from './get-sessions';

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<Ok>('DELETE', `me/sessions/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey }),
  });
}
