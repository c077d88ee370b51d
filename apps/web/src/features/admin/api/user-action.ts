import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '@pa/shared';
import { api } from '../../../lib/api-client';

export type UserAction = 'approve' | 'reject' | 'suspend' | 'reactivate';

export function useUserAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: UserAction }) => api<{ user: User }>('POST', `admin/users/${encodeURIComponent(id)}/${action}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'users'] }),
  });
}
