import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserAction, UserEnvelope } from '@pa/shared';
import { api } from '@/lib/api-client';

export type { UserAction };

export function useUserAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: UserAction }) => api<UserEnvelope>('POST', `admin/users/${encodeURIComponent(id)}/${action}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'users'] }),
  });
}
